// Numeric literals of PTX and their conversion to the raw bit pattern of the
// operand position they appear in (see the operand conventions in parser.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frontend/ir/types.h"

namespace simtlm::frontend::ptx {

struct Literal {
  enum class Form : uint8_t { Int, HexF32, HexF64, DecimalFloat };
  Form form = Form::Int;
  bool negative = false;   // a unary minus was applied
  uint64_t bits = 0;       // Int: magnitude; HexF32/HexF64: the raw IEEE bits
  std::string_view text;   // DecimalFloat: the literal text (without sign)

  bool is_float() const { return form != Form::Int; }
  // Integer value as a 64-bit two's-complement pattern (sign applied).
  uint64_t int_bits() const { return negative ? ~bits + 1 : bits; }
};

// Parses an Int or Float token text. Returns false (with `err` set) on
// overflow of a 64-bit integer.
bool parse_literal(std::string_view text, bool is_float_token, Literal& out, std::string& err);

// Converts `lit` to the raw bits of a value of type `t` (for integer/bit
// types: sign-/zero-extended to 64 bits; floats: IEEE bits of that width,
// zero-extended). Returns false with `err` set if the literal cannot be used
// in that position (float literal in an integer position, out-of-range
// integer, ...).
bool literal_to_bits(const Literal& lit, ir::DataType t, uint64_t& out, std::string& err);

// IEEE conversions used by the literal code (exposed for tests/printer).
uint16_t float_to_half_bits(float f);
uint16_t float_to_bf16_bits(float f);
uint32_t float_bits(float f);
uint64_t double_bits(double d);
float bits_float(uint32_t b);
double bits_double(uint64_t b);

}  // namespace simtlm::frontend::ptx
