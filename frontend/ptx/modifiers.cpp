// Modifier classification (see modifiers.h).
#include "frontend/ptx/modifiers.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

template <typename E>
struct Word {
  std::string_view text;
  E value;
};

template <typename E, size_t N>
bool lookup(std::string_view s, const Word<E> (&table)[N], E& out) {
  for (const auto& w : table) {
    if (w.text == s) {
      out = w.value;
      return true;
    }
  }
  return false;
}

const Word<StateSpace> kSpaces[] = {
    {"global", StateSpace::Global},     {"shared", StateSpace::Shared},
    {"shared::cta", StateSpace::Shared}, {"shared::cluster", StateSpace::SharedCluster},
    {"local", StateSpace::Local},       {"const", StateSpace::Const},
    {"param", StateSpace::Param},       {"param::entry", StateSpace::Param},
    {"param::func", StateSpace::Param},
};
const Word<Rounding> kRndF[] = {
    {"rn", Rounding::Rn}, {"rz", Rounding::Rz}, {"rm", Rounding::Rm}, {"rp", Rounding::Rp}};
const Word<Rounding> kRndI[] = {
    {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi}, {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi}};
const Word<CmpOp> kCmp[] = {
    {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
    {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
    {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
    {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
    {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
const Word<BoolOp> kBool[] = {{"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}};
const Word<MulMode> kMulMode[] = {
    {"lo", MulMode::Lo}, {"hi", MulMode::Hi}, {"wide", MulMode::Wide}};
const Word<MemOrder> kSem[] = {
    {"weak", MemOrder::Weak},       {"relaxed", MemOrder::Relaxed}, {"acquire", MemOrder::Acquire},
    {"release", MemOrder::Release}, {"acq_rel", MemOrder::AcqRel},  {"sc", MemOrder::Sc}};
const Word<MemScope> kScope[] = {{"cta", MemScope::Cta},
                                 {"cluster", MemScope::Cluster},
                                 {"gpu", MemScope::Gpu},
                                 {"sys", MemScope::Sys}};
const Word<MemScope> kMembar[] = {{"cta", MemScope::Cta}, {"gl", MemScope::Gpu}, {"sys", MemScope::Sys}};
const Word<AtomOp> kAtom[] = {{"add", AtomOp::Add},   {"min", AtomOp::Min},   {"max", AtomOp::Max},
                              {"inc", AtomOp::Inc},   {"dec", AtomOp::Dec},   {"cas", AtomOp::Cas},
                              {"exch", AtomOp::Exch}, {"and", AtomOp::And},   {"or", AtomOp::Or},
                              {"xor", AtomOp::Xor}};
const Word<ShflMode> kShfl[] = {
    {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
const Word<VoteMode> kVote[] = {
    {"all", VoteMode::All}, {"any", VoteMode::Any}, {"uni", VoteMode::Uni}, {"ballot", VoteMode::Ballot}};
const Word<TestProp> kTestp[] = {{"finite", TestProp::Finite},       {"infinite", TestProp::Infinite},
                                 {"number", TestProp::Number},       {"notanumber", TestProp::NotANumber},
                                 {"normal", TestProp::Normal},       {"subnormal", TestProp::Subnormal}};
const Word<uint8_t> kPrmt[] = {{"f4e", 1}, {"b4e", 2}, {"rc8", 3}, {"ecl", 4}, {"ecr", 5}, {"rc16", 6}};
const Word<uint8_t> kBarRed[] = {{"popc", 1}, {"and", 2}, {"or", 3}};

const Word<CacheOp> kCacheOp[] = {{"ca", CacheOp::Ca}, {"cg", CacheOp::Cg}, {"cs", CacheOp::Cs}, {"lu", CacheOp::Lu},
                                   {"cv", CacheOp::Cv}, {"wb", CacheOp::Wb}, {"wt", CacheOp::Wt}};

bool is_hint(std::string_view s) {
  return s == "L1::evict_normal" || s == "L1::evict_unchanged" || s == "L1::evict_first" ||
         s == "L1::evict_last" || s == "L1::no_allocate" || s == "L2::evict_normal" ||
         s == "L2::evict_first" || s == "L2::evict_last" || s == "L2::64B" || s == "L2::128B" ||
         s == "L2::256B" || s == "level::eviction_priority" || s == "level::prefetch_size";
}

bool is_pf_level(std::string_view s) {
  return s == "L1" || s == "L2" || s == "L1::evict_last" || s == "L1::evict_normal" ||
         s == "L2::evict_last" || s == "L2::evict_normal";
}

// Sets a one-shot flag; returns Duplicate if already set.
ModResult flag(bool& f) {
  if (f) return ModResult::Duplicate;
  f = true;
  return ModResult::Ok;
}

template <typename E>
ModResult set_once(E& field, E value, E none) {
  if (field != none) return ModResult::Duplicate;
  field = value;
  return ModResult::Ok;
}

ModResult classify(std::string_view s, uint64_t allowed, ModSet& m, uint64_t& cat) {
  DataType t;
  if ((allowed & kModType) && parse_type(s, t)) {
    cat = kModType;
    if (m.ntypes >= 3) return ModResult::Duplicate;
    m.types[m.ntypes++] = t;
    return ModResult::Ok;
  }
  StateSpace sp;
  if ((allowed & kModSpace) && lookup(s, kSpaces, sp)) {
    cat = kModSpace;
    return set_once(m.space, sp, StateSpace::None);
  }
  Rounding r;
  if ((allowed & kModRndF) && lookup(s, kRndF, r)) {
    cat = kModRndF;
    return set_once(m.rnd, r, Rounding::None);
  }
  if ((allowed & kModRndI) && lookup(s, kRndI, r)) {
    cat = kModRndI;
    return set_once(m.rnd, r, Rounding::None);
  }
  if ((allowed & kModRna) && s == "rna") {
    cat = kModRna;
    return set_once(m.rnd, Rounding::Rna, Rounding::None);
  }
  if ((allowed & kModFtz) && s == "ftz") return cat = kModFtz, flag(m.ftz);
  if ((allowed & kModSat) && s == "sat") return cat = kModSat, flag(m.sat);
  if ((allowed & kModApprox) && s == "approx") return cat = kModApprox, flag(m.approx);
  if ((allowed & kModFull) && s == "full") return cat = kModFull, flag(m.full);
  if ((allowed & kModCc) && s == "cc") return cat = kModCc, flag(m.cc);
  CmpOp c;
  if ((allowed & kModCmp) && lookup(s, kCmp, c)) {
    cat = kModCmp;
    return set_once(m.cmp, c, CmpOp::None);
  }
  BoolOp b;
  if ((allowed & kModBool) && lookup(s, kBool, b)) {
    cat = kModBool;
    return set_once(m.boolop, b, BoolOp::None);
  }
  MulMode mm;
  if ((allowed & kModMulMode) && lookup(s, kMulMode, mm)) {
    cat = kModMulMode;
    return set_once(m.mul, mm, MulMode::None);
  }
  if ((allowed & kModHiLo) && (s == "hi" || s == "lo")) {
    cat = kModHiLo;
    return set_once(m.mul, s == "hi" ? MulMode::Hi : MulMode::Lo, MulMode::None);
  }
  if ((allowed & kModUni) && s == "uni") return cat = kModUni, flag(m.uni);
  if ((allowed & kModVolatile) && s == "volatile") return cat = kModVolatile, flag(m.volatile_);
  MemOrder o;
  if ((allowed & kModSem) && lookup(s, kSem, o)) {
    cat = kModSem;
    return set_once(m.order, o, MemOrder::None);
  }
  MemScope sc;
  if ((allowed & kModScope) && lookup(s, kScope, sc)) {
    cat = kModScope;
    return set_once(m.scope, sc, MemScope::None);
  }
  if ((allowed & kModMembar) && lookup(s, kMembar, sc)) {
    cat = kModMembar;
    return set_once(m.scope, sc, MemScope::None);
  }
  CacheOp cop;
  if ((allowed & kModCacheOp) && lookup(s, kCacheOp, cop)) {
    cat = kModCacheOp;
    return set_once(m.cache_op, cop, CacheOp::None);
  }
  if ((allowed & kModNc) && s == "nc") return cat = kModNc, flag(m.nc);
  if ((allowed & kModVec) && (s == "v2" || s == "v4")) {
    cat = kModVec;
    if (m.vec != 1) return ModResult::Duplicate;
    m.vec = s == "v2" ? 2 : 4;
    return ModResult::Ok;
  }
  if ((allowed & kModPfLevel) && is_pf_level(s)) return cat = kModPfLevel, flag(m.pf_level);
  if ((allowed & kModHint) && is_hint(s)) {
    cat = kModHint;
    return ModResult::Ok;  // performance hints: accepted and ignored
  }
  AtomOp a;
  if ((allowed & kModAtomOp) && lookup(s, kAtom, a)) {
    cat = kModAtomOp;
    return set_once(m.atom, a, AtomOp::None);
  }
  ShflMode sh;
  if ((allowed & kModShfl) && lookup(s, kShfl, sh)) {
    cat = kModShfl;
    return set_once(m.shfl, sh, ShflMode::None);
  }
  VoteMode v;
  if ((allowed & kModVote) && lookup(s, kVote, v)) {
    cat = kModVote;
    return set_once(m.vote, v, VoteMode::None);
  }
  if ((allowed & kModSync) && s == "sync") return cat = kModSync, flag(m.sync);
  if ((allowed & kModAligned) && s == "aligned") return cat = kModAligned, flag(m.aligned);
  TestProp tp;
  if ((allowed & kModTestp) && lookup(s, kTestp, tp)) {
    cat = kModTestp;
    return set_once(m.testp, tp, TestProp::None);
  }
  if ((allowed & kModNaN) && s == "NaN") return cat = kModNaN, flag(m.nan);
  if ((allowed & kModShiftAmt) && s == "shiftamt") return cat = kModShiftAmt, flag(m.shiftamt);
  uint8_t pm;
  if ((allowed & kModPrmt) && lookup(s, kPrmt, pm)) {
    cat = kModPrmt;
    return set_once(m.prmt, pm, uint8_t{0});
  }
  if ((allowed & kModShfDir) && (s == "l" || s == "r")) {
    cat = kModShfDir;
    return set_once(m.shf_left, static_cast<int8_t>(s == "l" ? 1 : 0), int8_t{-1});
  }
  if ((allowed & kModShfMode) && (s == "wrap" || s == "clamp")) {
    cat = kModShfMode;
    return set_once(m.shf_clamp, static_cast<int8_t>(s == "clamp" ? 1 : 0), int8_t{-1});
  }
  if ((allowed & kModTo) && s == "to") return cat = kModTo, flag(m.to);
  if ((allowed & kModNoftz) && s == "noftz") return cat = kModNoftz, flag(m.noftz);
  if ((allowed & kModBarRed) && lookup(s, kBarRed, pm)) {
    cat = kModBarRed;
    return set_once(m.bar_red, pm, uint8_t{0});
  }
  if ((allowed & kModBarCta) && s == "cta") return cat = kModBarCta, flag(m.bar_cta);
  return ModResult::Unknown;
}

}  // namespace

ModResult apply_modifier(std::string_view comp, uint64_t allowed, ModSet& m) {
  uint64_t cat = 0;
  ModResult r = classify(comp, allowed, m, cat);
  if (r == ModResult::Ok) m.seen |= cat;
  return r;
}

}  // namespace simtlm::frontend::ptx
