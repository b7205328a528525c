// Comparison and selection: setp, set, selp, slct.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

[[noreturn]] void bad_type(InstCtx& c, DataType t) {
  c.fail(std::string(c.mnemonic) + " does not support type ." + std::string(type_name(t)));
}

bool comparable(DataType t) {
  switch (t) {
    case DataType::B16: case DataType::B32: case DataType::B64:
    case DataType::U16: case DataType::U32: case DataType::U64:
    case DataType::S16: case DataType::S32: case DataType::S64:
    case DataType::F32: case DataType::F64: case DataType::F16: case DataType::F16x2:
    case DataType::BF16: case DataType::BF16x2:
      return true;
    default:
      return false;
  }
}

void check_cmp(InstCtx& c, CmpOp op, DataType t) {
  if (op == CmpOp::None) c.fail(std::string(c.mnemonic) + " needs a comparison (.eq, .lt, ...)");
  bool ok;
  switch (op) {
    case CmpOp::Eq: case CmpOp::Ne:
      ok = true;
      break;
    case CmpOp::Lt: case CmpOp::Le: case CmpOp::Gt: case CmpOp::Ge:
      ok = !is_bits(t);
      break;
    case CmpOp::Lo: case CmpOp::Ls: case CmpOp::Hi: case CmpOp::Hs:
      ok = is_unsigned(t);
      break;
    default:  // unordered / num / nan
      ok = is_float(t);
      break;
  }
  if (!ok) c.fail("comparison not allowed on ." + std::string(type_name(t)));
}

void check_ftz(InstCtx& c, DataType t) {
  if (c.mods.ftz && t != DataType::F32 && t != DataType::F16 && t != DataType::F16x2)
    c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
}

}  // namespace

void decode_setp(InstCtx& c) {
  c.parse_mods(kModType | kModCmp | kModBool | kModFtz);
  DataType t = c.need_types(1);
  if (!comparable(t)) bad_type(c, t);
  check_cmp(c, c.mods.cmp, t);
  check_ftz(c, t);
  c.inst.type = t;
  c.inst.cmp = c.mods.cmp;
  c.inst.boolop = c.mods.boolop;
  c.inst.ftz = c.mods.ftz;
  const bool combine = c.mods.boolop != BoolOp::None;
  c.need_operands(combine ? 4 : 3);
  Slot p;
  p.type = DataType::Pred;
  p.dst = true;
  const RawOperand& d = c.raw[0];
  if (d.kind == RawOperand::Kind::Pair) {
    c.inst.dual_dst = true;
    c.inst.ops.push_back(c.p.convert(d.elems[0], p));
    c.inst.ops.push_back(c.p.convert(d.elems[1], p));
  } else {
    c.add(0, p);
  }
  c.src(1, t, kSlotReg | kSlotImm | kSlotSpecial);
  c.src(2, t, kSlotReg | kSlotImm | kSlotSpecial);
  if (combine) c.pred_src(3, true);
}

void decode_set(InstCtx& c) {
  c.parse_mods(kModType | kModCmp | kModBool | kModFtz);
  if (c.mods.ntypes != 2) c.fail("set needs a destination and a source type");
  DataType d = c.mods.types[0], s = c.mods.types[1];
  if (d != DataType::U32 && d != DataType::S32 && d != DataType::F32)
    c.fail("set destination type must be .u32, .s32 or .f32");
  if (!comparable(s) || s == DataType::F16x2 || s == DataType::BF16x2) bad_type(c, s);
  check_cmp(c, c.mods.cmp, s);
  check_ftz(c, s);
  c.inst.type = d;
  c.inst.type2 = s;
  c.inst.cmp = c.mods.cmp;
  c.inst.boolop = c.mods.boolop;
  c.inst.ftz = c.mods.ftz;
  const bool combine = c.mods.boolop != BoolOp::None;
  c.need_operands(combine ? 4 : 3);
  c.dst(0, d);
  c.src(1, s, kSlotReg | kSlotImm | kSlotSpecial);
  c.src(2, s, kSlotReg | kSlotImm | kSlotSpecial);
  if (combine) c.pred_src(3, true);
}

void decode_selp(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (!comparable(t) || t == DataType::F16x2 || t == DataType::BF16x2 || t == DataType::F16 ||
      t == DataType::BF16)
    bad_type(c, t);
  c.inst.type = t;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t, kSlotReg | kSlotImm | kSlotSpecial);
  c.src(2, t, kSlotReg | kSlotImm | kSlotSpecial);
  c.pred_src(3, false);
}

void decode_slct(InstCtx& c) {
  c.parse_mods(kModType | kModFtz);
  if (c.mods.ntypes != 2) c.fail("slct needs a destination type and .s32/.f32");
  DataType d = c.mods.types[0], s = c.mods.types[1];
  if (!comparable(d) || (is_float(d) && d != DataType::F32 && d != DataType::F64)) bad_type(c, d);
  if (s != DataType::S32 && s != DataType::F32) c.fail("slct selector type must be .s32 or .f32");
  if (c.mods.ftz && s != DataType::F32) c.fail(".ftz applies only to slct with an .f32 selector");
  c.inst.type = d;
  c.inst.type2 = s;
  c.inst.ftz = c.mods.ftz;
  c.need_operands(4);
  c.dst(0, d);
  c.src(1, d, kSlotReg | kSlotImm | kSlotSpecial);
  c.src(2, d, kSlotReg | kSlotImm | kSlotSpecial);
  c.src(3, s, kSlotReg | kSlotImm | kSlotSpecial);
}

}  // namespace simtlm::frontend::ptx
