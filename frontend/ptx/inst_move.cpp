// mov, cvt, cvta.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

DataType bits_of_size(unsigned bytes) {
  switch (bytes) {
    case 1: return DataType::B8;
    case 2: return DataType::B16;
    case 4: return DataType::B32;
    case 8: return DataType::B64;
    case 16: return DataType::B128;
    default: return DataType::None;
  }
}

bool cvt_type_ok(DataType t) {
  return is_signed(t) || is_unsigned(t) || t == DataType::F16 || t == DataType::BF16 ||
         t == DataType::F32 || t == DataType::F64 || t == DataType::F16x2 || t == DataType::BF16x2;
}

bool is_int_rounding(Rounding r) {
  return r == Rounding::Rni || r == Rounding::Rzi || r == Rounding::Rmi || r == Rounding::Rpi;
}
bool is_float_rounding(Rounding r) {
  return r == Rounding::Rn || r == Rounding::Rz || r == Rounding::Rm || r == Rounding::Rp ||
         r == Rounding::Rna;
}

}  // namespace

void decode_mov(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  switch (t) {
    case DataType::Pred: case DataType::B16: case DataType::B32: case DataType::B64:
    case DataType::B128: case DataType::U16: case DataType::U32: case DataType::U64:
    case DataType::S16: case DataType::S32: case DataType::S64: case DataType::F32:
    case DataType::F64: case DataType::F16: case DataType::BF16: case DataType::F16x2:
    case DataType::BF16x2:
      break;
    default:
      c.fail("mov does not support type ." + std::string(type_name(t)));
  }
  c.inst.type = t;
  c.need_operands(2);
  const bool unpack = c.raw[0].kind == RawOperand::Kind::Vector;
  const bool pack = c.raw[1].kind == RawOperand::Kind::Vector;
  if (unpack || pack) {
    if (unpack && pack) c.fail("mov cannot have vectors on both sides");
    if (!is_bits(t) || t == DataType::B8 || t == DataType::B16)
      c.fail("vector pack/unpack needs mov.b32, mov.b64 or mov.b128");
    size_t n = c.raw[unpack ? 0 : 1].elems.size();
    if (n != 2 && n != 4) c.fail_at(c.raw[unpack ? 0 : 1], "vector must have 2 or 4 elements");
    DataType elem = bits_of_size(type_size(t) / static_cast<unsigned>(n));
    if (elem == DataType::None || elem == DataType::B8)
      c.fail_at(c.raw[unpack ? 0 : 1], "vector elements would be narrower than 16 bits");
    Slot v;
    v.kinds = kSlotVector;
    v.vec = static_cast<uint8_t>(n);
    v.elem = elem;
    if (unpack) {
      v.dst = true;
      c.add(0, v);
      c.src(1, t, kSlotReg | kSlotImm);
    } else {
      c.dst(0, t);
      c.add(1, v);
    }
    return;
  }
  c.dst(0, t);
  uint32_t kinds = kSlotReg | kSlotImm | kSlotSpecial;
  if (!is_float(t) && t != DataType::Pred && (type_size(t) == 4 || type_size(t) == 8))
    kinds |= kSlotSymbol;
  c.src(1, t, kinds);
}

void decode_cvt(InstCtx& c) {
  c.parse_mods(kModType | kModRndF | kModRndI | kModRna | kModFtz | kModSat);
  if (c.mods.ntypes != 2) c.fail("cvt needs a destination and a source type");
  DataType d = c.mods.types[0], a = c.mods.types[1];
  if (!cvt_type_ok(d)) c.fail("cvt does not support destination type ." + std::string(type_name(d)));
  if (!cvt_type_ok(a) || a == DataType::F16x2 || a == DataType::BF16x2)
    c.fail("cvt does not support source type ." + std::string(type_name(a)));
  Rounding r = c.mods.rnd;
  c.inst.type = d;
  c.inst.type2 = a;
  c.inst.rounding = r;
  c.inst.ftz = c.mods.ftz;
  c.inst.sat = c.mods.sat;
  if (c.mods.ftz && d != DataType::F32 && a != DataType::F32)
    c.fail(".ftz applies only to conversions involving .f32");
  if (d == DataType::F16x2 || d == DataType::BF16x2) {
    // cvt.rn.f16x2.f32 d, a, b: packs two converted f32 values (a -> upper half).
    if (a != DataType::F32) c.fail("packed half conversions need an .f32 source");
    if (!is_float_rounding(r)) c.fail("packed half conversion needs a rounding modifier (.rn/.rz)");
    c.need_operands(3);
    c.dst(0, d);
    c.src(1, a, kSlotReg | kSlotImm);
    c.src(2, a, kSlotReg | kSlotImm);
    return;
  }
  const bool df = is_float(d), af = is_float(a);
  if (df && af) {
    unsigned ds = type_size(d), as = type_size(a);
    if (ds < as) {
      if (!is_float_rounding(r)) c.fail("narrowing float conversion needs a rounding modifier (.rn/.rz/.rm/.rp)");
    } else if (ds == as && d == a) {
      if (r != Rounding::None && !is_int_rounding(r))
        c.fail("same-type float conversion takes only integer rounding (.rni/.rzi/.rmi/.rpi)");
    } else if (ds == as) {
      // f16 <-> bf16
      if (!is_float_rounding(r)) c.fail("conversion between 16-bit float formats needs a rounding modifier");
    } else if (r != Rounding::None && !is_int_rounding(r)) {
      c.fail("widening float conversion takes no floating-point rounding modifier");
    }
  } else if (df && !af) {
    if (!is_float_rounding(r) || r == Rounding::Rna)
      c.fail("integer-to-float conversion needs a rounding modifier (.rn/.rz/.rm/.rp)");
  } else if (!df && af) {
    if (!is_int_rounding(r))
      c.fail("float-to-integer conversion needs an integer rounding modifier (.rni/.rzi/.rmi/.rpi)");
  } else if (r != Rounding::None) {
    c.fail("integer-to-integer conversion takes no rounding modifier");
  }
  c.need_operands(2);
  c.dst(0, d, true);
  c.src(1, a, kSlotReg | kSlotImm | kSlotSpecial, true);
}

void decode_cvta(InstCtx& c) {
  c.parse_mods(kModType | kModSpace | kModTo);
  DataType t = c.need_types(1);
  if (t != DataType::U32 && t != DataType::U64) c.fail("cvta needs .u32 or .u64");
  StateSpace s = c.mods.space;
  if (s == StateSpace::None) c.fail("cvta needs a state space (.global, .shared, .local, .const, .param)");
  if (s == StateSpace::SharedCluster) c.fail("cvta with .shared::cluster is not supported");
  c.inst.type = t;
  c.inst.space = s;
  c.inst.cvta_to = c.mods.to;
  c.need_operands(2);
  c.dst(0, t);
  c.src(1, t, c.mods.to ? kSlotReg : (kSlotReg | kSlotSymbol));
}

}  // namespace simtlm::frontend::ptx
