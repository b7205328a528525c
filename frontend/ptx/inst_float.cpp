// Floating-point-only instructions: fma, rcp, sqrt, rsqrt, ex2, lg2, sin,
// cos, tanh, copysign, testp.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

[[noreturn]] void bad_type(InstCtx& c, DataType t) {
  c.fail(std::string(c.mnemonic) + " does not support type ." + std::string(type_name(t)));
}

void unary(InstCtx& c, DataType t) {
  c.need_operands(2);
  c.dst(0, t);
  c.src(1, t);
}

}  // namespace

void decode_fma(InstCtx& c) {
  c.parse_mods(kModType | kModRndF | kModFtz | kModSat);
  DataType t = c.need_types(1);
  if (!is_float(t)) bad_type(c, t);
  if (c.mods.rnd == Rounding::None) c.fail("fma needs a rounding modifier");
  bool half = t == DataType::F16 || t == DataType::F16x2;
  bool bf = t == DataType::BF16 || t == DataType::BF16x2;
  if ((half || bf) && c.mods.rnd != Rounding::Rn) c.fail("half-precision fma supports only .rn");
  if (c.mods.ftz && t != DataType::F32 && !half) c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
  if (c.mods.sat && t != DataType::F32 && !half) c.fail(".sat is not allowed on ." + std::string(type_name(t)));
  c.inst.type = t;
  c.inst.rounding = c.mods.rnd;
  c.inst.ftz = c.mods.ftz;
  c.inst.sat = c.mods.sat;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t);
  c.src(2, t);
  c.src(3, t);
}

void decode_rcp_sqrt(InstCtx& c) {
  c.parse_mods(kModType | kModApprox | kModRndF | kModFtz);
  DataType t = c.need_types(1);
  const bool rsqrt = c.mnemonic == "rsqrt";
  if (t != DataType::F32 && t != DataType::F64) bad_type(c, t);
  const bool approx = c.mods.approx;
  const bool rnd = c.mods.rnd != Rounding::None;
  if (rsqrt) {
    if (!approx || rnd) c.fail("rsqrt needs .approx and takes no rounding modifier");
  } else if (approx == rnd) {
    c.fail(std::string(c.mnemonic) + " needs exactly one of .approx or a rounding modifier");
  }
  if (t == DataType::F64 && approx && !rsqrt && c.mnemonic == "sqrt")
    c.fail("sqrt.approx supports only .f32");
  if (t == DataType::F64 && approx && c.mnemonic == "rcp" && !c.mods.ftz)
    c.fail("rcp.approx.f64 needs .ftz");
  if (t == DataType::F64 && c.mods.ftz && !approx) c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
  c.inst.type = t;
  c.inst.approx = approx;
  c.inst.rounding = c.mods.rnd;
  c.inst.ftz = c.mods.ftz;
  unary(c, t);
}

void decode_approx_unary(InstCtx& c) {
  c.parse_mods(kModType | kModApprox | kModFtz);
  DataType t = c.need_types(1);
  if (!c.mods.approx) c.fail(std::string(c.mnemonic) + " needs .approx");
  const std::string_view m = c.mnemonic;
  bool ok = t == DataType::F32;
  if (m == "ex2" || m == "tanh")
    ok = ok || t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 || t == DataType::BF16x2;
  if (!ok) bad_type(c, t);
  if (c.mods.ftz && t != DataType::F32 && !(m == "ex2" && (t == DataType::BF16 || t == DataType::BF16x2)))
    c.fail(".ftz is not allowed on ." + std::string(type_name(t)));
  if (m == "tanh" && c.mods.ftz) c.fail("tanh takes no .ftz");
  c.inst.type = t;
  c.inst.approx = true;
  c.inst.ftz = c.mods.ftz;
  unary(c, t);
}

void decode_copysign(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::F32 && t != DataType::F64) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(3);
  c.dst(0, t);
  c.src(1, t);
  c.src(2, t);
}

void decode_testp(InstCtx& c) {
  c.parse_mods(kModType | kModTestp);
  DataType t = c.need_types(1);
  if (t != DataType::F32 && t != DataType::F64) bad_type(c, t);
  if (c.mods.testp == TestProp::None) c.fail("testp needs a property (.finite, .infinite, ...)");
  c.inst.type = t;
  c.inst.testp = c.mods.testp;
  c.need_operands(2);
  c.dst(0, DataType::Pred);
  c.src(1, t);
}

}  // namespace simtlm::frontend::ptx
