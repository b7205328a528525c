// Internal plumbing shared by the ALU families (alu_*.cpp): the lane loop, the
// generic kernel shapes, integer type traits and the per-family selectors that
// select_alu() dispatches to. Not part of the public interface (functional/alu.h).
//
// Every kernel is `Shape<Op>::run`: a loop over the set bits of AluArgs::mask
// that calls the inlined `Op::apply` on the lanes' raw 64-bit register values.
// Modifiers (type, .sat, .ftz, rounding, ...) are template parameters of Op, so
// the per-lane code contains no switch on opcode or modifier.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "frontend/ir/instruction.h"
#include "functional/alu.h"

namespace simtlm::functional::alu_detail {

using ir::DataType;
using ir::Instruction;
using ir::Opcode;

// Calls f(lane) for every set bit of `mask`, lowest lane first. A mask of
// contiguous lanes starting at lane 0 (a converged warp) takes a dense loop
// without bit scanning, which the compiler can unroll or vectorise.
template <class F>
inline void for_each_lane(uint64_t mask, F&& f) {
  if ((mask & (mask + 1)) == 0) {
    const unsigned n = mask == ~0ull ? 64u : static_cast<unsigned>(__builtin_ctzll(~mask));
    for (unsigned lane = 0; lane < n; ++lane) f(lane);
    return;
  }
  while (mask != 0) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(mask));
    f(lane);
    mask &= mask - 1;
  }
}

// ---- kernel shapes -------------------------------------------------------
// d = Op::apply(a)
template <class Op>
struct Unary {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s0 = a.src[0];
    for_each_lane(a.mask, [&](unsigned i) { d[i] = Op::apply(s0[i]); });
  }
};

// d = Op::apply(a, b)
template <class Op>
struct Binary {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s0 = a.src[0];
    const uint64_t* s1 = a.src[1];
    for_each_lane(a.mask, [&](unsigned i) { d[i] = Op::apply(s0[i], s1[i]); });
  }
};

// d = Op::apply(a, b, c)
template <class Op>
struct Ternary {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s0 = a.src[0];
    const uint64_t* s1 = a.src[1];
    const uint64_t* s2 = a.src[2];
    for_each_lane(a.mask, [&](unsigned i) { d[i] = Op::apply(s0[i], s1[i], s2[i]); });
  }
};

// d = Op::apply(a, b, c, e)
template <class Op>
struct Quaternary {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    if (d == nullptr) return;
    const uint64_t* s0 = a.src[0];
    const uint64_t* s1 = a.src[1];
    const uint64_t* s2 = a.src[2];
    const uint64_t* s3 = a.src[3];
    for_each_lane(a.mask,
                  [&](unsigned i) { d[i] = Op::apply(s0[i], s1[i], s2[i], s3[i]); });
  }
};

// ---- integer traits ------------------------------------------------------
template <class T>
struct Int {
  static_assert(std::is_integral_v<T>, "integer type expected");
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  static constexpr unsigned kBits = sizeof(T) * 8;
  static constexpr bool kSigned = std::is_signed_v<T>;
  static constexpr uint64_t kMask = kBits == 64 ? ~0ull : ((1ull << kBits) - 1);
  // The register's low kBits as T.
  static T get(uint64_t raw) { return static_cast<T>(static_cast<U>(raw)); }
  // A T written back zero-extended to 64 bits (register convention).
  static uint64_t put(T v) { return static_cast<uint64_t>(static_cast<U>(v)); }
};

// Maps an integer/bit-size PTX type to a C++ type and calls
// F::template make<T>(); bit-size types map to unsigned. Returns nullptr for
// other types.
template <class F>
AluKernel dispatch_int(DataType t, F f) {
  switch (t) {
    case DataType::U8: case DataType::B8: return f.template make<uint8_t>();
    case DataType::S8: return f.template make<int8_t>();
    case DataType::U16: case DataType::B16: return f.template make<uint16_t>();
    case DataType::S16: return f.template make<int16_t>();
    case DataType::U32: case DataType::B32: return f.template make<uint32_t>();
    case DataType::S32: return f.template make<int32_t>();
    case DataType::U64: case DataType::B64: return f.template make<uint64_t>();
    case DataType::S64: return f.template make<int64_t>();
    default: return nullptr;
  }
}

template <template <class> class Shape, template <class> class Op>
struct IntMaker {
  template <class T>
  AluKernel make() const {
    return &Shape<Op<T>>::run;
  }
};
// Shape<Op<T>>::run for the C++ type T of integer/bit-size type t (nullptr for
// other types).
template <template <class> class Shape, template <class> class Op>
AluKernel int_kernel(DataType t) {
  return dispatch_int(t, IntMaker<Shape, Op>{});
}

// Width in bits of an integer/bit-size type (0 for others).
inline unsigned int_bits(DataType t) {
  switch (t) {
    case DataType::U8: case DataType::S8: case DataType::B8: return 8;
    case DataType::U16: case DataType::S16: case DataType::B16: return 16;
    case DataType::U32: case DataType::S32: case DataType::B32: return 32;
    case DataType::U64: case DataType::S64: case DataType::B64: return 64;
    default: return 0;
  }
}

// The PTX integer arithmetic types .u16/.s16/.u32/.s32/.u64/.s64.
inline bool is_arith_int(DataType t) {
  switch (t) {
    case DataType::U16: case DataType::S16: case DataType::U32: case DataType::S32:
    case DataType::U64: case DataType::S64: return true;
    default: return false;
  }
}
inline bool is_signed_int(DataType t) {
  return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}

// ---- selection helpers (alu.cpp) -----------------------------------------
// Throws simtlm::Error(Ptx) "line L: unsupported instruction form '<text>'".
[[noreturn]] void unsupported(const Instruction& inst);

// True when the mnemonic of inst.text carries the modifier `.mod` (e.g.
// has_modifier(inst, "relu") for fma.rn.relu.f16). Used at selection time only,
// for modifiers the IR has no field for (.relu, .satfinite, .xorsign, .abs; also
// .NaN and .shiftamt, which the parser records as cmp == Nan / shift_left).
bool has_modifier(const Instruction& inst, std::string_view mod);

// ---- family selectors (one per alu_*.cpp) -------------------------------
// Each returns the kernel for inst, nullptr when the opcode is not its own, and
// throws through unsupported() for a bad type/modifier combination.
AluKernel select_int_arith(const Instruction& inst);  // alu_int.cpp
AluKernel select_carry(const Instruction& inst);      // alu_carry.cpp
AluKernel select_bits(const Instruction& inst);       // alu_bits.cpp
AluKernel select_logic(const Instruction& inst);      // alu_logic.cpp
AluKernel select_compare(const Instruction& inst);    // alu_compare.cpp
AluKernel select_float(const Instruction& inst);      // alu_float.cpp
AluKernel select_special(const Instruction& inst);    // alu_special.cpp
AluKernel select_half(const Instruction& inst);       // alu_half.cpp
AluKernel select_convert(const Instruction& inst);    // alu_convert.cpp

}  // namespace simtlm::functional::alu_detail
