// Literal parsing and conversion to operand-typed bit patterns.
#include "frontend/ptx/literals.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace simtlm::frontend::ptx {

using ir::DataType;

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint64_t double_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
float bits_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
double bits_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

uint16_t float_to_half_bits(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t man = x & 0x7FFFFFu;
  if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);  // underflow -> zero
    man |= 0x800000u;
    unsigned shift = static_cast<unsigned>(14 - e);
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;  // may carry into exponent
  return static_cast<uint16_t>(half);
}

uint16_t float_to_bf16_bits(float f) {
  uint32_t x = float_bits(f);
  if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
    return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  uint32_t lsb = (x >> 16) & 1u;
  x += 0x7FFFu + lsb;
  return static_cast<uint16_t>(x >> 16);
}

bool parse_literal(std::string_view text, bool is_float_token, Literal& out, std::string& err) {
  out = Literal{};
  if (is_float_token) {
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
      out.form = Literal::Form::HexF32;
    } else if (text.size() >= 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
      out.form = Literal::Form::HexF64;
    } else {
      out.form = Literal::Form::DecimalFloat;
      out.text = text;
      return true;
    }
    uint64_t v = 0;
    auto r = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      err = "malformed floating-point literal";
      return false;
    }
    out.bits = v;
    return true;
  }
  out.form = Literal::Form::Int;
  if (!text.empty() && text.back() == 'U') text.remove_suffix(1);
  int base = 10;
  size_t skip = 0;
  if (text.size() > 1 && text[0] == '0') {
    if (text[1] == 'x' || text[1] == 'X') {
      base = 16;
      skip = 2;
    } else if (text[1] == 'b' || text[1] == 'B') {
      base = 2;
      skip = 2;
    } else {
      base = 8;
      skip = 1;
    }
  }
  uint64_t v = 0;
  auto r = std::from_chars(text.data() + skip, text.data() + text.size(), v, base);
  if (r.ec == std::errc::result_out_of_range) {
    err = "integer literal does not fit in 64 bits";
    return false;
  }
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
    err = "malformed integer literal";
    return false;
  }
  out.bits = v;
  return true;
}

namespace {

bool decimal_to_double(const Literal& lit, double& d, std::string& err) {
  auto r = std::from_chars(lit.text.data(), lit.text.data() + lit.text.size(), d);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) {
    err = "malformed floating-point literal";
    return false;
  }
  if (r.ec == std::errc::result_out_of_range) d = HUGE_VAL;
  if (lit.negative) d = -d;
  return true;
}

bool decimal_to_float(const Literal& lit, float& f, std::string& err) {
  auto r = std::from_chars(lit.text.data(), lit.text.data() + lit.text.size(), f);
  if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) {
    err = "malformed floating-point literal";
    return false;
  }
  if (r.ec == std::errc::result_out_of_range) {
    double d = 0;
    if (!decimal_to_double(lit, d, err)) return false;
    f = static_cast<float>(lit.negative ? -d : d);  // inf or denormal/zero
  }
  if (lit.negative) f = -f;
  return true;
}

// The literal's value as f32 (exact for 0f, rounded for the others).
bool literal_as_float(const Literal& lit, float& f, std::string& err) {
  switch (lit.form) {
    case Literal::Form::HexF32:
      f = bits_float(static_cast<uint32_t>(lit.bits));
      if (lit.negative) f = -f;
      return true;
    case Literal::Form::HexF64: {
      double d = bits_double(lit.bits);
      f = static_cast<float>(lit.negative ? -d : d);
      return true;
    }
    case Literal::Form::DecimalFloat:
      return decimal_to_float(lit, f, err);
    case Literal::Form::Int:
      f = lit.negative ? -static_cast<float>(lit.bits) : static_cast<float>(lit.bits);
      return true;
  }
  return false;
}

bool literal_as_double(const Literal& lit, double& d, std::string& err) {
  switch (lit.form) {
    case Literal::Form::HexF32:
      d = static_cast<double>(bits_float(static_cast<uint32_t>(lit.bits)));
      if (lit.negative) d = -d;
      return true;
    case Literal::Form::HexF64:
      d = bits_double(lit.bits);
      if (lit.negative) d = -d;
      return true;
    case Literal::Form::DecimalFloat:
      return decimal_to_double(lit, d, err);
    case Literal::Form::Int:
      d = lit.negative ? -static_cast<double>(lit.bits) : static_cast<double>(lit.bits);
      return true;
  }
  return false;
}

bool int_fits(const Literal& lit, unsigned bits) {
  if (bits >= 64) return true;
  // Accept anything representable as a signed or unsigned value of that width.
  if (lit.negative) return lit.bits <= (uint64_t{1} << (bits - 1));
  return lit.bits <= ((uint64_t{1} << bits) - 1);
}

}  // namespace

bool literal_to_bits(const Literal& lit, DataType t, uint64_t& out, std::string& err) {
  switch (t) {
    case DataType::F32: {
      float f = 0;
      if (!literal_as_float(lit, f, err)) return false;
      out = float_bits(f);
      return true;
    }
    case DataType::F64: {
      double d = 0;
      if (!literal_as_double(lit, d, err)) return false;
      out = double_bits(d);
      return true;
    }
    case DataType::F16:
    case DataType::BF16: {
      if (!lit.is_float()) {
        if (!int_fits(lit, 16)) {
          err = "immediate out of range for a 16-bit operand";
          return false;
        }
        out = lit.int_bits() & 0xFFFFu;  // raw half bits
        return true;
      }
      float f = 0;
      if (!literal_as_float(lit, f, err)) return false;
      out = t == DataType::F16 ? float_to_half_bits(f) : float_to_bf16_bits(f);
      return true;
    }
    case DataType::F16x2:
    case DataType::BF16x2:
      if (lit.is_float()) {
        err = "floating-point immediate not allowed in a packed half operand";
        return false;
      }
      if (!int_fits(lit, 32)) {
        err = "immediate out of range for a 32-bit operand";
        return false;
      }
      out = lit.int_bits() & 0xFFFFFFFFu;
      return true;
    case DataType::B16:
    case DataType::B32:
    case DataType::B64:
      if (lit.is_float()) {
        // Bit-typed positions keep the IEEE pattern of the literal at that width.
        if (t == DataType::B16) {
          float f = 0;
          if (!literal_as_float(lit, f, err)) return false;
          out = float_to_half_bits(f);
        } else if (t == DataType::B32) {
          float f = 0;
          if (!literal_as_float(lit, f, err)) return false;
          out = float_bits(f);
        } else {
          double d = 0;
          if (!literal_as_double(lit, d, err)) return false;
          out = double_bits(d);
        }
        return true;
      }
      [[fallthrough]];
    case DataType::B8:
    case DataType::U8: case DataType::U16: case DataType::U32: case DataType::U64:
    case DataType::S8: case DataType::S16: case DataType::S32: case DataType::S64: {
      if (lit.is_float()) {
        err = "floating-point immediate in an integer operand";
        return false;
      }
      unsigned bits = ir::type_size(t) * 8;
      if (!int_fits(lit, bits)) {
        err = "immediate out of range for ." + std::string(ir::type_name(t));
        return false;
      }
      out = lit.int_bits();
      return true;
    }
    case DataType::Pred:
      // nvcc -G emits `mov.pred %p3, -1;`: any non-zero integer is true.
      if (lit.is_float()) {
        err = "floating-point immediate in a predicate operand";
        return false;
      }
      out = lit.bits != 0 ? 1 : 0;
      return true;
    case DataType::B128:
      err = "immediate not allowed in a 128-bit operand";
      return false;
    case DataType::None:
      if (lit.is_float()) {
        err = "floating-point immediate where an integer is expected";
        return false;
      }
      out = lit.int_bits();
      return true;
  }
  err = "unsupported immediate";
  return false;
}

}  // namespace simtlm::frontend::ptx
