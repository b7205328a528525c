// Integer and floating-point arithmetic sharing mnemonics: add, sub, addc,
// subc, mul, mad, madc, mul24, mad24, sad, div, rem, abs, neg, min, max.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

bool is_int16_64(DataType t) {
  return t == DataType::U16 || t == DataType::U32 || t == DataType::U64 || t == DataType::S16 ||
         t == DataType::S32 || t == DataType::S64;
}
bool is_half(DataType t) {
  return t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 ||
         t == DataType::BF16x2;
}
bool is_bf(DataType t) { return t == DataType::BF16 || t == DataType::BF16x2; }
bool is_int32_64(DataType t) {
  return t == DataType::U32 || t == DataType::U64 || t == DataType::S32 || t == DataType::S64;
}

DataType widened(DataType t) {
  switch (t) {
    case DataType::U16: return DataType::U32;
    case DataType::U32: return DataType::U64;
    case DataType::S16: return DataType::S32;
    case DataType::S32: return DataType::S64;
    default: return DataType::None;
  }
}

[[noreturn]] void bad_type(InstCtx& c, DataType t) {
  c.fail(std::string(c.mnemonic) + " does not support type ." + std::string(type_name(t)));
}

// Float qualifier checks common to add/sub/mul/fma/mad.
void check_float_quals(InstCtx& c, DataType t, bool rounding_required) {
  const ModSet& m = c.mods;
  if (m.cc) c.fail(".cc applies only to integer arithmetic");
  if (m.rnd != Rounding::None && (t == DataType::F16 || t == DataType::F16x2 || is_bf(t)) &&
      m.rnd != Rounding::Rn)
    c.fail("half-precision arithmetic supports only .rn");
  if (rounding_required && m.rnd == Rounding::None)
    c.fail(std::string(c.mnemonic) + " on ." + std::string(type_name(t)) + " needs a rounding modifier");
  if (m.ftz && t != DataType::F32 && t != DataType::F16 && t != DataType::F16x2)
    c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
  if (m.sat && t != DataType::F32 && t != DataType::F16 && t != DataType::F16x2)
    c.fail(".sat is not allowed on ." + std::string(type_name(t)));
  c.inst.rounding = m.rnd;
  c.inst.ftz = m.ftz;
  c.inst.sat = m.sat;
}

void three_operands(InstCtx& c, DataType d, DataType a, DataType b) {
  c.need_operands(3);
  c.dst(0, d);
  c.src(1, a);
  c.src(2, b);
}

}  // namespace

void decode_add_sub(InstCtx& c) {
  c.parse_mods(kModType | kModSat | kModCc | kModRndF | kModFtz);
  DataType t = c.need_types(1);
  c.inst.type = t;
  if (is_int16_64(t)) {
    if (c.mods.rnd != Rounding::None || c.mods.ftz) c.fail("rounding/.ftz not allowed on integer arithmetic");
    if (c.mods.sat && t != DataType::S32) c.fail(".sat is only allowed on .s32");
    if (c.mods.sat && c.mods.cc) c.fail(".sat cannot be combined with .cc");
    if (c.mods.cc && !is_int32_64(t)) c.fail(".cc needs a 32- or 64-bit integer type");
    c.inst.sat = c.mods.sat;
    c.inst.cc = c.mods.cc;
  } else if (is_float(t)) {
    check_float_quals(c, t, false);
  } else {
    bad_type(c, t);
  }
  three_operands(c, t, t, t);
}

void decode_addc_subc(InstCtx& c) {
  c.parse_mods(kModType | kModCc);
  DataType t = c.need_types(1);
  if (!is_int32_64(t)) bad_type(c, t);
  c.inst.type = t;
  c.inst.cc = c.mods.cc;
  three_operands(c, t, t, t);
}

void decode_mul(InstCtx& c) {
  c.parse_mods(kModType | kModMulMode | kModRndF | kModFtz | kModSat);
  DataType t = c.need_types(1);
  c.inst.type = t;
  if (is_int16_64(t)) {
    if (c.mods.mul == MulMode::None) c.fail("integer mul needs .lo, .hi or .wide");
    if (c.mods.rnd != Rounding::None || c.mods.ftz || c.mods.sat)
      c.fail("rounding/.ftz/.sat not allowed on integer mul");
    c.inst.mul = c.mods.mul;
    if (c.mods.mul == MulMode::Wide) {
      DataType w = widened(t);
      if (w == DataType::None) c.fail("mul.wide supports only 16- and 32-bit types");
      three_operands(c, w, t, t);
      return;
    }
  } else if (is_float(t)) {
    if (c.mods.mul != MulMode::None) c.fail(".lo/.hi/.wide apply only to integer mul");
    check_float_quals(c, t, false);
  } else {
    bad_type(c, t);
  }
  three_operands(c, t, t, t);
}

void decode_mad(InstCtx& c) {
  c.parse_mods(kModType | kModMulMode | kModRndF | kModFtz | kModSat | kModCc);
  DataType t = c.need_types(1);
  c.inst.type = t;
  DataType d = t;
  if (is_int16_64(t)) {
    MulMode m = c.mods.mul;
    if (m == MulMode::None) c.fail("integer mad needs .lo, .hi or .wide");
    if (c.mods.rnd != Rounding::None || c.mods.ftz) c.fail("rounding/.ftz not allowed on integer mad");
    if (c.mods.sat && !(m == MulMode::Hi && t == DataType::S32)) c.fail(".sat is only allowed on mad.hi.s32");
    if (c.mods.cc && (!is_int32_64(t) || m == MulMode::Wide)) c.fail(".cc needs mad.lo/.hi on 32/64-bit types");
    c.inst.mul = m;
    c.inst.sat = c.mods.sat;
    c.inst.cc = c.mods.cc;
    if (m == MulMode::Wide) {
      d = widened(t);
      if (d == DataType::None) c.fail("mad.wide supports only 16- and 32-bit types");
    }
  } else if (is_float(t)) {
    if (c.mods.mul != MulMode::None) c.fail(".lo/.hi/.wide apply only to integer mad");
    if (t == DataType::F64 && c.mods.rnd == Rounding::None) c.fail("mad.f64 needs a rounding modifier");
    if (is_half(t)) bad_type(c, t);
    check_float_quals(c, t, false);
  } else {
    bad_type(c, t);
  }
  c.need_operands(4);
  c.dst(0, d);
  c.src(1, t);
  c.src(2, t);
  c.src(3, d);
}

void decode_madc(InstCtx& c) {
  c.parse_mods(kModType | kModHiLo | kModCc);
  DataType t = c.need_types(1);
  if (!is_int32_64(t)) bad_type(c, t);
  if (c.mods.mul == MulMode::None) c.fail("madc needs .lo or .hi");
  c.inst.type = t;
  c.inst.mul = c.mods.mul;
  c.inst.cc = c.mods.cc;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t);
  c.src(2, t);
  c.src(3, t);
}

void decode_mul24(InstCtx& c) {
  const bool mad = c.mnemonic == "mad24";
  c.parse_mods(kModType | kModHiLo | (mad ? kModSat : 0));
  DataType t = c.need_types(1);
  if (t != DataType::U32 && t != DataType::S32) bad_type(c, t);
  if (c.mods.mul == MulMode::None) c.fail(std::string(c.mnemonic) + " needs .lo or .hi");
  if (c.mods.sat && !(c.mods.mul == MulMode::Hi && t == DataType::S32))
    c.fail(".sat is only allowed on mad24.hi.s32");
  c.inst.type = t;
  c.inst.mul = c.mods.mul;
  c.inst.sat = c.mods.sat;
  if (mad) {
    c.need_operands(4);
    c.dst(0, t);
    c.src(1, t);
    c.src(2, t);
    c.src(3, t);
  } else {
    three_operands(c, t, t, t);
  }
}

void decode_sad(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (!is_int16_64(t)) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t);
  c.src(2, t);
  c.src(3, t);
}

void decode_div(InstCtx& c) {
  c.parse_mods(kModType | kModApprox | kModFull | kModRndF | kModFtz);
  DataType t = c.need_types(1);
  c.inst.type = t;
  if (is_int16_64(t)) {
    if (c.mods.seen & ~kModType) c.fail("integer div takes no modifiers");
  } else if (t == DataType::F32) {
    int kinds = (c.mods.approx ? 1 : 0) + (c.mods.full ? 1 : 0) + (c.mods.rnd != Rounding::None ? 1 : 0);
    if (kinds != 1) c.fail("div.f32 needs exactly one of .approx, .full or a rounding modifier");
    c.inst.approx = c.mods.approx;
    c.inst.full = c.mods.full;
    c.inst.rounding = c.mods.rnd;
    c.inst.ftz = c.mods.ftz;
  } else if (t == DataType::F64) {
    if (c.mods.approx || c.mods.full || c.mods.ftz) c.fail("div.f64 supports only a rounding modifier");
    if (c.mods.rnd == Rounding::None) c.fail("div.f64 needs a rounding modifier");
    c.inst.rounding = c.mods.rnd;
  } else {
    bad_type(c, t);
  }
  three_operands(c, t, t, t);
}

void decode_rem(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (!is_int16_64(t)) bad_type(c, t);
  c.inst.type = t;
  three_operands(c, t, t, t);
}

void decode_abs_neg(InstCtx& c) {
  c.parse_mods(kModType | kModFtz);
  DataType t = c.need_types(1);
  c.inst.type = t;
  if (t == DataType::S16 || t == DataType::S32 || t == DataType::S64) {
    if (c.mods.ftz) c.fail(".ftz not allowed on integer types");
  } else if (is_float(t)) {
    if (c.mods.ftz && t != DataType::F32 && t != DataType::F16 && t != DataType::F16x2)
      c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
    c.inst.ftz = c.mods.ftz;
  } else {
    bad_type(c, t);
  }
  c.need_operands(2);
  c.dst(0, t);
  c.src(1, t);
}

void decode_min_max(InstCtx& c) {
  c.parse_mods(kModType | kModFtz | kModNaN);
  DataType t = c.need_types(1);
  c.inst.type = t;
  if (is_int16_64(t)) {
    if (c.mods.ftz || c.mods.nan) c.fail(".ftz/.NaN not allowed on integer types");
  } else if (is_float(t)) {
    if (c.mods.ftz && t != DataType::F32 && t != DataType::F16 && t != DataType::F16x2)
      c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
    if (c.mods.nan && t == DataType::F64) c.fail(".NaN is not allowed on .f64");
    c.inst.ftz = c.mods.ftz;
    // .NaN: result is NaN if either input is NaN (recorded as CmpOp::Nan).
    if (c.mods.nan) c.inst.cmp = CmpOp::Nan;
  } else {
    bad_type(c, t);
  }
  three_operands(c, t, t, t);
}

}  // namespace simtlm::frontend::ptx
