// Helpers for the ALU kernel tests: an ir::Instruction builder and runners that
// call the kernel chosen by select_alu on small lane arrays.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "frontend/ir/instruction.h"
#include "functional/alu.h"

namespace simtlm::alu_test {

using ir::BoolOp;
using ir::CmpOp;
using ir::DataType;
using ir::MulMode;
using ir::Opcode;
using ir::Rounding;

// Builder for the instruction fields select_alu looks at.
struct I {
  ir::Instruction inst;
  I(Opcode op, DataType t, std::string text = "") {
    inst.op = op;
    inst.type = t;
    inst.text = text.empty() ? "inst" : std::move(text);
    inst.loc.line = 1;
  }
  I& t2(DataType t) { inst.type2 = t; return *this; }
  I& rnd(Rounding r) { inst.rounding = r; return *this; }
  I& ftz() { inst.ftz = true; return *this; }
  I& sat() { inst.sat = true; return *this; }
  I& approx() { inst.approx = true; return *this; }
  I& full() { inst.full = true; return *this; }
  I& cc() { inst.cc = true; return *this; }
  I& mul(MulMode m) { inst.mul = m; return *this; }
  I& cmp(CmpOp c) { inst.cmp = c; return *this; }
  I& boolop(BoolOp b) { inst.boolop = b; return *this; }
  I& testp(ir::TestProp p) { inst.testp = p; return *this; }
  I& prmt(uint8_t m) { inst.prmt_mode = m; return *this; }
  I& lut(uint8_t l) { inst.lop3_lut = l; return *this; }
  I& shf(bool left, bool clamp) { inst.shift_left = left; inst.shift_clamp = clamp; return *this; }
  I& line(uint32_t l) { inst.loc.line = l; return *this; }
};

// Runs inst on lane 0 with the given sources; returns dst[0] of lane 0.
inline uint64_t run(const ir::Instruction& inst, std::vector<uint64_t> srcs,
                    uint64_t* carry = nullptr, uint64_t* dst1 = nullptr) {
  functional::AluKernel k = functional::select_alu(inst);
  uint64_t d0 = 0xDEADBEEFDEADBEEFull;
  functional::AluArgs a;
  a.inst = &inst;
  a.dst[0] = &d0;
  a.dst[1] = dst1;
  for (size_t i = 0; i < srcs.size() && i < 4; ++i) a.src[i] = &srcs[i];
  a.carry = carry;
  a.mask = 1;
  a.width = 1;
  k(a);
  return d0;
}
inline uint64_t run(const I& b, std::vector<uint64_t> srcs, uint64_t* carry = nullptr,
                    uint64_t* dst1 = nullptr) {
  return run(b.inst, std::move(srcs), carry, dst1);
}

// Bit patterns.
inline uint64_t f32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float as_f32(uint64_t r) {
  const uint32_t u = static_cast<uint32_t>(r);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t f64(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double as_f64(uint64_t r) {
  double d;
  std::memcpy(&d, &r, 8);
  return d;
}

}  // namespace simtlm::alu_test
