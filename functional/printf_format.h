// Device printf: formatting one vprintf call the way CUDA's host side does.
//
// nvcc compiles `printf(fmt, ...)` to `vprintf(fmt, args)`: `fmt` is the
// generic address of the NUL-terminated format string (a .global $str array),
// `args` the generic address of a per-thread buffer (0 when there are no
// arguments) holding the arguments after C's default promotions, each at the
// next multiple of its own size: int-sized values (%d %i %u %o %x %X %c, also
// with h/hh, and `*` widths/precisions) take 4 bytes, l/ll integers, doubles
// (every floating conversion: floats are promoted), %s strings and %p
// pointers 8 bytes.
//
// Supported: flags `- + space # 0`, width and precision (digits or `*`),
// lengths h hh l ll, conversions d i u o x X c s p e E f F g G a A and %%.
// Anything else (%n, %ls, %lc, L/j/z/t lengths, a dangling '%') is a
// PrintfError naming the conversion. %s of a null pointer prints "(null)".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace simtlm::functional {

// Device memory as the calling thread sees it (generic addresses).
class PrintfMemory {
 public:
  virtual ~PrintfMemory() = default;
  // The byte at generic address `a`; false when no memory holds it.
  virtual bool byte(uint64_t a, uint8_t& out) const = 0;
};

// A format the model cannot print (`fault` false), or a string or argument
// that is not in device memory (`fault` true): the message names the problem
// (the caller adds kernel and thread).
struct PrintfError : std::runtime_error {
  explicit PrintfError(const std::string& what, bool is_fault = false) : std::runtime_error(what), fault(is_fault) {}
  bool fault;
};

struct PrintfCall {
  std::string text;    // the formatted output
  int32_t result = 0;  // printf's return value: the number of arguments read (CUDA)
};

// Formats one call. A null `fmt` gives result -1 and no text (as CUDA).
PrintfCall format_device_printf(uint64_t fmt, uint64_t args, const PrintfMemory& memory);

// `text` quoted for messages: printable ASCII as is, the rest as \n, \t, \xNN.
std::string printf_quoted(const std::string& text);

// Longest format string or %s argument read (bytes): a longer one (or one
// without a NUL inside device memory) is a PrintfError.
inline constexpr uint64_t kPrintfMaxString = 1u << 20;

}  // namespace simtlm::functional
