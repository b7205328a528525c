// Memory instructions: ld, ldu, st, prefetch, isspacep, atom, red.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

constexpr uint64_t kLdStMods = kModType | kModSpace | kModSem | kModScope | kModVolatile |
                               kModCacheOp | kModVec | kModHint;

// Shared checks of the memory-consistency qualifiers of ld/st.
void apply_ldst_qualifiers(InstCtx& c, bool is_store) {
  const ModSet& m = c.mods;
  StateSpace s = m.space == StateSpace::None ? StateSpace::Generic : m.space;
  if (s == StateSpace::SharedCluster) c.fail(".shared::cluster accesses are not supported");
  if (m.volatile_ && m.order != MemOrder::None) c.fail(".volatile cannot be combined with a memory order");
  if (m.volatile_ && m.scope != MemScope::None) c.fail(".volatile cannot be combined with a scope");
  MemOrder o = m.order;
  if (o != MemOrder::None) {
    bool ok = o == MemOrder::Weak || o == MemOrder::Relaxed ||
              (is_store ? o == MemOrder::Release : o == MemOrder::Acquire);
    if (!ok) c.fail("memory order not allowed on " + std::string(c.mnemonic));
    bool strong = o != MemOrder::Weak;
    if (strong && m.scope == MemScope::None) c.fail("a .relaxed/.acquire/.release access needs a scope");
    if (!strong && m.scope != MemScope::None) c.fail("a scope needs .relaxed, .acquire or .release");
    if (strong && m.cache_op != CacheOp::None) c.fail("cache operators cannot be combined with a memory order");
  } else if (m.scope != MemScope::None) {
    c.fail("a scope needs .relaxed, .acquire or .release");
  }
  if ((o != MemOrder::None && o != MemOrder::Weak) || m.volatile_) {
    if (s == StateSpace::Const || s == StateSpace::Param)
      c.fail("ordered/volatile access not allowed in ." + std::string(space_name(s)));
  }
  c.inst.space = s;
  c.inst.order = m.volatile_ ? MemOrder::Volatile : o;
  c.inst.volatile_ = m.volatile_;
  if (m.cache_op != CacheOp::None) {
    if (m.volatile_) c.fail("cache operators cannot be combined with .volatile");
    // ld takes .ca .cg .cs .lu .cv, st takes .wb .cg .cs .wt (PTX ISA).
    const CacheOp op = m.cache_op;
    const bool ok = is_store ? (op == CacheOp::Wb || op == CacheOp::Cg || op == CacheOp::Cs || op == CacheOp::Wt)
                             : (op == CacheOp::Ca || op == CacheOp::Cg || op == CacheOp::Cs || op == CacheOp::Lu ||
                                op == CacheOp::Cv);
    if (!ok) c.fail("cache operator ." + std::string(cache_op_name(op)) + " not allowed on " + std::string(c.mnemonic));
    c.inst.cache_op = op;
  }
  c.inst.scope = m.scope;
  c.inst.vec = m.vec;
}

DataType ldst_type(InstCtx& c) {
  DataType t = c.need_types(1);
  if (t == DataType::Pred) c.fail(std::string(c.mnemonic) + " cannot access .pred");
  if (t == DataType::B128 && c.mods.vec != 1) c.fail("vectors of .b128 are not allowed");
  if (c.mods.vec * type_size(t) > 16) c.fail("vector access wider than 16 bytes");
  c.inst.type = t;
  return t;
}

void value_slot(InstCtx& c, size_t i, DataType t, bool dst) {
  Slot s;
  s.type = t;
  s.dst = dst;
  s.relaxed = true;
  if (c.mods.vec > 1) {
    s.kinds = kSlotVector;
    s.vec = c.mods.vec;
    s.elem = t;
  } else {
    s.kinds = dst ? kSlotReg : (kSlotReg | kSlotImm);
  }
  c.add(i, s);
}

void address_slot(InstCtx& c, size_t i) {
  Slot s;
  s.kinds = kSlotAddress;
  c.add(i, s);
}

}  // namespace

void decode_ld(InstCtx& c) {
  c.parse_mods(kLdStMods | kModNc);
  DataType t = ldst_type(c);
  apply_ldst_qualifiers(c, false);
  if (c.mods.nc) {
    if (c.inst.space != StateSpace::Global) c.fail("ld.nc needs the .global state space");
    if (c.mods.volatile_ || c.mods.order != MemOrder::None) c.fail("ld.nc cannot be volatile or ordered");
    const CacheOp op = c.inst.cache_op;
    if (op == CacheOp::Lu || op == CacheOp::Cv) c.fail("ld.nc takes only the cache operators .ca, .cg and .cs");
  }
  c.need_operands(2);
  value_slot(c, 0, t, true);
  address_slot(c, 1);
}

void decode_ldu(InstCtx& c) {
  c.parse_mods(kModType | kModSpace | kModVec);
  DataType t = ldst_type(c);
  StateSpace s = c.mods.space == StateSpace::None ? StateSpace::Generic : c.mods.space;
  if (s != StateSpace::Global && s != StateSpace::Generic) c.fail("ldu supports only .global");
  c.inst.space = s;
  c.inst.vec = c.mods.vec;
  c.need_operands(2);
  value_slot(c, 0, t, true);
  address_slot(c, 1);
}

void decode_st(InstCtx& c) {
  c.parse_mods(kLdStMods);
  DataType t = ldst_type(c);
  apply_ldst_qualifiers(c, true);
  if (c.inst.space == StateSpace::Const) c.fail("cannot store to the .const state space");
  c.need_operands(2);
  address_slot(c, 0);
  value_slot(c, 1, t, false);
}

void decode_prefetch(InstCtx& c) {
  c.parse_mods(kModSpace | kModPfLevel);
  StateSpace s = c.mods.space == StateSpace::None ? StateSpace::Generic : c.mods.space;
  if (c.mnemonic == "prefetchu") {
    if (c.mods.space != StateSpace::None) c.fail("prefetchu takes no state space");
  } else if (s != StateSpace::Global && s != StateSpace::Local && s != StateSpace::Generic) {
    c.fail("prefetch supports only .global and .local");
  }
  if (!c.mods.pf_level) c.fail("prefetch needs a cache level (.L1 or .L2)");
  c.inst.space = s;
  c.need_operands(1);
  address_slot(c, 0);
}

void decode_isspacep(InstCtx& c) {
  c.parse_mods(kModSpace);
  StateSpace s = c.mods.space;
  if (s == StateSpace::None) c.fail("isspacep needs a state space");
  c.inst.space = s;
  c.need_operands(2);
  c.dst(0, DataType::Pred);
  c.src(1, c.p.mod_->address_size == 64 ? DataType::U64 : DataType::U32, kSlotReg);
}

void decode_atom(InstCtx& c) {
  const bool is_red = c.mnemonic == "red";
  c.parse_mods(kModType | kModSpace | kModSem | kModScope | kModAtomOp | kModNoftz);
  DataType t = c.need_types(1);
  AtomOp op = c.mods.atom;
  if (op == AtomOp::None) c.fail(std::string(c.mnemonic) + " needs an operation (.add, .min, ...)");
  StateSpace s = c.mods.space == StateSpace::None ? StateSpace::Generic : c.mods.space;
  if (s != StateSpace::Global && s != StateSpace::Shared && s != StateSpace::Generic)
    c.fail(std::string(c.mnemonic) + " supports only .global, .shared and generic addresses");
  MemOrder o = c.mods.order;
  if (o != MemOrder::None && o != MemOrder::Relaxed && o != MemOrder::Release &&
      (is_red || (o != MemOrder::Acquire && o != MemOrder::AcqRel)))
    c.fail("memory order not allowed on " + std::string(c.mnemonic));
  bool ok = false;
  switch (op) {
    case AtomOp::Add:
      ok = t == DataType::U32 || t == DataType::S32 || t == DataType::U64 || t == DataType::S64 ||
           t == DataType::F32 || t == DataType::F64 || t == DataType::F16 ||
           t == DataType::F16x2 || t == DataType::BF16 || t == DataType::BF16x2;
      if ((t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 ||
           t == DataType::BF16x2) && !c.mods.noftz)
        c.fail("half-precision atomic add needs .noftz");
      break;
    case AtomOp::Min: case AtomOp::Max:
      ok = t == DataType::U32 || t == DataType::S32 || t == DataType::U64 || t == DataType::S64;
      break;
    case AtomOp::Inc: case AtomOp::Dec:
      ok = t == DataType::U32;
      break;
    case AtomOp::Cas:
      ok = t == DataType::B16 || t == DataType::B32 || t == DataType::B64;
      break;
    case AtomOp::Exch:
      ok = t == DataType::B32 || t == DataType::B64;
      break;
    case AtomOp::And: case AtomOp::Or: case AtomOp::Xor:
      ok = t == DataType::B32 || t == DataType::B64;
      break;
    case AtomOp::None:
      break;
  }
  if (!ok) c.fail(std::string(c.mnemonic) + " does not support this operation on ." + std::string(type_name(t)));
  if (c.mods.noftz && op != AtomOp::Add) c.fail(".noftz applies only to .add");
  if (is_red && op == AtomOp::Cas) c.fail("red does not support .cas");
  if (is_red && op == AtomOp::Exch) c.fail("red does not support .exch");
  c.inst.atom = op;
  c.inst.type = t;
  c.inst.space = s;
  c.inst.order = o;
  c.inst.scope = c.mods.scope;
  if (is_red) {
    c.need_operands(2);
    address_slot(c, 0);
    c.src(1, t, kSlotReg | kSlotImm);
    return;
  }
  c.need_operands(op == AtomOp::Cas ? 4 : 3);
  c.dst(0, t);
  address_slot(c, 1);
  c.src(2, t, kSlotReg | kSlotImm);
  if (op == AtomOp::Cas) c.src(3, t, kSlotReg | kSlotImm);
}

}  // namespace simtlm::frontend::ptx
