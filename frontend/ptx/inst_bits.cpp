// Bit manipulation, logic and shifts: popc, clz, bfind, brev, bfe, bfi,
// prmt, dp4a, dp2a, and, or, xor, not, cnot, lop3, shl, shr, shf.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

[[noreturn]] void bad_type(InstCtx& c, DataType t) {
  c.fail(std::string(c.mnemonic) + " does not support type ." + std::string(type_name(t)));
}

bool is_int32_64(DataType t) {
  return t == DataType::U32 || t == DataType::U64 || t == DataType::S32 || t == DataType::S64;
}

// An immediate-or-register source whose type the ISA fixes to .u32/.b32.
constexpr uint32_t kRegImm = kSlotReg | kSlotImm;

}  // namespace

void decode_bitcount(InstCtx& c) {
  const std::string_view m = c.mnemonic;
  c.parse_mods(kModType | (m == "bfind" ? kModShiftAmt : 0));
  DataType t = c.need_types(1);
  if (m == "bfind") {
    if (!is_int32_64(t)) bad_type(c, t);
  } else if (t != DataType::B32 && t != DataType::B64) {
    bad_type(c, t);
  }
  c.inst.type = t;
  // bfind.shiftamt returns the left-shift amount that normalises the value
  // instead of the bit position: recorded as shift_left = true (parser.h).
  c.inst.shift_left = c.mods.shiftamt;
  c.need_operands(2);
  c.dst(0, m == "brev" ? t : DataType::U32);
  c.src(1, t, kRegImm);
}

void decode_bfe(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (!is_int32_64(t)) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, DataType::U32, kRegImm);
  c.src(3, DataType::U32, kRegImm);
}

void decode_bfi(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::B32 && t != DataType::B64) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(5);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, t, kRegImm);
  c.src(3, DataType::U32, kRegImm);
  c.src(4, DataType::U32, kRegImm);
}

void decode_prmt(InstCtx& c) {
  c.parse_mods(kModType | kModPrmt);
  DataType t = c.need_types(1);
  if (t != DataType::B32) bad_type(c, t);
  c.inst.type = t;
  c.inst.prmt_mode = c.mods.prmt;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, t, kRegImm);
  c.src(3, DataType::B32, kRegImm);
}

void decode_dp(InstCtx& c) {
  const bool dp2a = c.mnemonic == "dp2a";
  c.parse_mods(kModType | (dp2a ? kModHiLo : 0));
  if (c.mods.ntypes != 2) c.fail(std::string(c.mnemonic) + " needs two types (.atype.btype)");
  DataType a = c.mods.types[0], b = c.mods.types[1];
  auto ok = [](DataType t) { return t == DataType::U32 || t == DataType::S32; };
  if (!ok(a) || !ok(b)) c.fail(std::string(c.mnemonic) + " types must be .u32 or .s32");
  if (dp2a && c.mods.mul == MulMode::None) c.fail("dp2a needs .lo or .hi");
  c.inst.type = a;
  c.inst.type2 = b;
  c.inst.mul = c.mods.mul;
  DataType d = (a == DataType::S32 || b == DataType::S32) ? DataType::S32 : DataType::U32;
  c.need_operands(4);
  c.dst(0, d);
  c.src(1, a, kRegImm);
  c.src(2, b, kRegImm);
  c.src(3, d, kRegImm);
}

void decode_logic(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::Pred && t != DataType::B16 && t != DataType::B32 && t != DataType::B64)
    bad_type(c, t);
  c.inst.type = t;
  c.need_operands(3);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, t, kRegImm);
}

void decode_not(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  bool ok = t == DataType::B16 || t == DataType::B32 || t == DataType::B64 ||
            (c.mnemonic == "not" && t == DataType::Pred);
  if (!ok) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(2);
  c.dst(0, t);
  c.src(1, t, kRegImm);
}

void decode_lop3(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  if (t != DataType::B32) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(5);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, t, kRegImm);
  c.src(3, t, kRegImm);
  c.src(4, DataType::B32, kSlotImm);
  uint64_t lut = c.inst.ops.back().imm;
  if (lut > 0xFF) c.fail_at(c.raw[4], "lop3 lookup table must be in 0..255");
  c.inst.lop3_lut = static_cast<uint8_t>(lut);
}

void decode_shift(InstCtx& c) {
  c.parse_mods(kModType);
  DataType t = c.need_types(1);
  bool ok = t == DataType::B16 || t == DataType::B32 || t == DataType::B64;
  if (c.mnemonic == "shr")
    ok = ok || t == DataType::U16 || t == DataType::U32 || t == DataType::U64 ||
         t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
  if (!ok) bad_type(c, t);
  c.inst.type = t;
  c.need_operands(3);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, DataType::U32, kRegImm);
}

void decode_shf(InstCtx& c) {
  c.parse_mods(kModType | kModShfDir | kModShfMode);
  DataType t = c.need_types(1);
  if (t != DataType::B32) bad_type(c, t);
  if (c.mods.shf_left < 0) c.fail("shf needs a direction (.l or .r)");
  if (c.mods.shf_clamp < 0) c.fail("shf needs a mode (.wrap or .clamp)");
  c.inst.type = t;
  c.inst.shift_left = c.mods.shf_left == 1;
  c.inst.shift_clamp = c.mods.shf_clamp == 1;
  c.need_operands(4);
  c.dst(0, t);
  c.src(1, t, kRegImm);
  c.src(2, t, kRegImm);
  c.src(3, DataType::U32, kRegImm);
}

}  // namespace simtlm::frontend::ptx
