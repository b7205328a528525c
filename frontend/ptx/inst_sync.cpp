// Synchronisation and warp communication: bar/barrier, membar, fence,
// shfl.sync, vote.sync, activemask, nanosleep.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {
constexpr uint32_t kRegImm = kSlotReg | kSlotImm;
}

void decode_bar(InstCtx& c) {
  const bool barrier = c.mnemonic == "barrier";
  BarrierKind kind = BarrierKind::None;
  bool aligned = false, cta = false;
  uint8_t red_op = 0;
  DataType type = DataType::None;
  for (std::string_view comp : c.comps) {
    BarrierKind k = comp == "sync" ? BarrierKind::Sync
                    : comp == "arrive" ? BarrierKind::Arrive
                    : comp == "red" ? BarrierKind::Red
                                    : BarrierKind::None;
    DataType t;
    if (k != BarrierKind::None) {
      if (kind != BarrierKind::None) c.fail("more than one barrier operation");
      kind = k;
    } else if (comp == "aligned" && barrier && !aligned) {
      aligned = true;
    } else if (comp == "cta" && !cta && kind == BarrierKind::None) {
      cta = true;
    } else if ((comp == "popc" || comp == "and" || comp == "or") && kind == BarrierKind::Red && !red_op) {
      red_op = comp == "popc" ? 1 : comp == "and" ? 2 : 3;
    } else if (parse_type(comp, t) && type == DataType::None) {
      type = t;
    } else {
      c.fail("unknown or unsupported modifier '." + std::string(comp) + "' for " + std::string(c.mnemonic));
    }
  }
  if (kind == BarrierKind::None) c.fail(std::string(c.mnemonic) + " needs .sync, .arrive or .red");
  c.inst.barrier = kind;
  c.inst.bar_red_op = red_op;
  if (kind == BarrierKind::Red) {
    if (!red_op) c.fail("bar.red needs .popc, .and or .or");
    DataType want = red_op == 1 ? DataType::U32 : DataType::Pred;
    if (type != want) c.fail(red_op == 1 ? "bar.red.popc needs .u32" : "bar.red.and/.or need .pred");
    c.inst.type = type;
    c.need_operands(3, 4);
    c.dst(0, want);
    c.src(1, DataType::U32, kRegImm);
    if (c.raw.size() == 4) c.src(2, DataType::U32, kRegImm);
    c.pred_src(c.raw.size() - 1, true);
    return;
  }
  if (type != DataType::None) c.fail(std::string(c.mnemonic) + " takes no type here");
  if (kind == BarrierKind::Arrive)
    c.need_operands(2);
  else
    c.need_operands(1, 2);
  c.src(0, DataType::U32, kRegImm);
  if (c.raw.size() == 2) c.src(1, DataType::U32, kRegImm);
  if (c.inst.ops[0].kind == OperandKind::Imm && c.inst.ops[0].imm > 15) c.fail("barrier id must be 0..15");
}

void decode_membar(InstCtx& c) {
  c.parse_mods(kModMembar);
  if (c.mods.scope == MemScope::None) c.fail("membar needs .cta, .gl or .sys");
  c.inst.scope = c.mods.scope;
  c.inst.order = MemOrder::Sc;
  c.need_operands(0);
}

void decode_fence(InstCtx& c) {
  c.parse_mods(kModSem | kModScope);
  MemOrder o = c.mods.order;
  if (o == MemOrder::None) o = MemOrder::AcqRel;
  if (o != MemOrder::Sc && o != MemOrder::AcqRel && o != MemOrder::Acquire && o != MemOrder::Release)
    c.fail("fence supports .sc, .acq_rel, .acquire and .release");
  if (c.mods.scope == MemScope::None) c.fail("fence needs a scope (.cta, .cluster, .gpu, .sys)");
  c.inst.order = o;
  c.inst.scope = c.mods.scope;
  c.need_operands(0);
}

void decode_shfl(InstCtx& c) {
  c.parse_mods(kModSync | kModShfl | kModType);
  if (!c.mods.sync) c.fail("shfl without .sync is not supported (use shfl.sync)");
  if (c.mods.shfl == ShflMode::None) c.fail("shfl.sync needs a mode (.up, .down, .bfly, .idx)");
  DataType t = c.need_types(1);
  if (t != DataType::B32) c.fail("shfl.sync supports only .b32");
  c.inst.shfl = c.mods.shfl;
  c.inst.type = t;
  c.need_operands(5);
  const RawOperand& d = c.raw[0];
  Slot ds;
  ds.type = t;
  ds.dst = true;
  if (d.kind == RawOperand::Kind::Pair) {
    c.inst.dual_dst = true;
    c.inst.ops.push_back(c.p.convert(d.elems[0], ds));
    Slot ps;
    ps.type = DataType::Pred;
    ps.dst = true;
    c.inst.ops.push_back(c.p.convert(d.elems[1], ps));
  } else {
    c.add(0, ds);
  }
  c.src(1, t, kRegImm | kSlotSpecial);
  c.src(2, DataType::U32, kRegImm | kSlotSpecial);
  c.src(3, DataType::U32, kRegImm | kSlotSpecial);
  c.src(4, DataType::U32, kRegImm | kSlotSpecial);
}

void decode_vote(InstCtx& c) {
  c.parse_mods(kModSync | kModVote | kModType);
  if (!c.mods.sync) c.fail("vote without .sync is not supported (use vote.sync)");
  VoteMode m = c.mods.vote;
  if (m == VoteMode::None) c.fail("vote.sync needs a mode (.all, .any, .uni, .ballot)");
  DataType t = c.need_types(1);
  DataType want = m == VoteMode::Ballot ? DataType::B32 : DataType::Pred;
  if (t != want) c.fail(m == VoteMode::Ballot ? "vote.sync.ballot needs .b32" : "vote.sync.all/.any/.uni need .pred");
  c.inst.vote = m;
  c.inst.type = t;
  c.need_operands(3);
  c.dst(0, t);
  c.pred_src(1, true);
  c.src(2, DataType::U32, kRegImm);
}

void decode_activemask(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::B32) c.fail("activemask supports only .b32");
  c.inst.type = t;
  c.need_operands(1);
  c.dst(0, t);
}

void decode_nanosleep(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::U32) c.fail("nanosleep supports only .u32");
  c.inst.type = t;
  c.need_operands(1);
  c.src(0, t, kRegImm);
}

}  // namespace simtlm::frontend::ptx
