// Device printf formatting (see printf_format.h). Each conversion is checked
// and its argument read here; the host C library then formats that one value
// with the same flags, width and precision, so the output matches what CUDA's
// host-side formatting (the C library's printf) prints.
#include "functional/printf_format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace simtlm::functional {

namespace {

const char* const kSupported = "%d %i %u %o %x %X %c %s %p %e %E %f %F %g %G %a %A %%";

std::string read_string(uint64_t addr, uint64_t limit, const PrintfMemory& memory, const char* what) {
  std::string s;
  for (uint64_t i = 0; i < limit; ++i) {
    uint8_t c = 0;
    if (!memory.byte(addr + i, c)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s at 0x%llx runs out of device memory after %llu bytes without a NUL",
                    what, static_cast<unsigned long long>(addr), static_cast<unsigned long long>(i));
      throw PrintfError(buf, true);
    }
    if (c == 0) return s;
    s += static_cast<char>(c);
  }
  if (limit < kPrintfMaxString) return s;  // a precision stopped the read
  throw PrintfError(std::string(what) + " is longer than " + std::to_string(kPrintfMaxString) + " bytes");
}

// snprintf of one conversion into `out`. The specification is built from the
// checked format, so it is never attacker-chosen beyond what printf allows.
template <typename T>
void append(std::string& out, const std::string& spec, T value) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (n <= 0) return;
  std::vector<char> buf(static_cast<size_t>(n) + 1);
  std::snprintf(buf.data(), buf.size(), spec.c_str(), value);
#pragma GCC diagnostic pop
  out.append(buf.data(), static_cast<size_t>(n));
}

class Formatter {
 public:
  Formatter(const std::string& format, uint64_t args, const PrintfMemory& memory)
      : format_(format), args_(args), memory_(memory) {}

  PrintfCall run() {
    PrintfCall call;
    for (i_ = 0; i_ < format_.size(); ++i_) {
      const char c = format_[i_];
      if (c != '%') {
        call.text += c;
        continue;
      }
      conversion(call.text);
    }
    call.result = static_cast<int32_t>(count_);
    return call;
  }

 private:
  [[noreturn]] void unsupported(size_t start, const std::string& why) const {
    const size_t end = i_ < format_.size() ? i_ + 1 : format_.size();
    throw PrintfError("printf format " + printf_quoted(format_) + ": conversion '" +
                      format_.substr(start, end - start) + "' " + why + " (device printf supports " + kSupported +
                      " with flags, width, precision and the lengths h hh l ll)");
  }

  // The next argument of `size` bytes (4 or 8), aligned to its size.
  uint64_t argument(unsigned size) {
    if (args_ == 0) {
      throw PrintfError("printf format " + printf_quoted(format_) +
                        " has conversions but the call passed no arguments");
    }
    offset_ = (offset_ + size - 1) / size * size;
    uint64_t value = 0;
    for (unsigned b = 0; b < size; ++b) {
      uint8_t byte = 0;
      if (!memory_.byte(args_ + offset_ + b, byte)) {
        throw PrintfError("printf format " + printf_quoted(format_) + ": argument " + std::to_string(count_ + 1) +
                          " is not readable device memory",
                          true);
      }
      value |= uint64_t(byte) << (8 * b);
    }
    offset_ += size;
    ++count_;
    return value;
  }

  // `*` width or precision: an int argument.
  int32_t star() { return static_cast<int32_t>(static_cast<uint32_t>(argument(4))); }

  bool at(const char* set) const { return i_ < format_.size() && std::strchr(set, format_[i_]) != nullptr; }

  void conversion(std::string& out) {
    const size_t start = i_++;
    if (i_ < format_.size() && format_[i_] == '%') {
      out += '%';
      return;
    }
    std::string spec = "%";
    while (at("-+ #0")) spec += format_[i_++];
    if (at("*")) {
      ++i_;
      spec += std::to_string(star());  // a negative width is the '-' flag, as in C
    } else {
      while (at("0123456789")) spec += format_[i_++];
    }
    int64_t precision = -1;
    if (at(".")) {
      ++i_;
      if (at("*")) {
        ++i_;
        precision = star();
      } else {
        precision = 0;
        while (at("0123456789")) precision = std::min<int64_t>(precision * 10 + (format_[i_++] - '0'), 1 << 20);
      }
      if (precision >= 0) spec += "." + std::to_string(precision);
    }
    std::string length;
    while (at("hl") && length.size() < 2) length += format_[i_++];
    if (length == "lh" || length == "hl") unsupported(start, "has an invalid length");
    if (i_ >= format_.size()) unsupported(start, "is incomplete (the format ends inside it)");
    const char conv = format_[i_];
    switch (conv) {
      case 'd':
      case 'i': {
        const bool wide = length == "l" || length == "ll";
        const uint64_t raw = argument(wide ? 8 : 4);
        int64_t v = wide ? static_cast<int64_t>(raw) : static_cast<int32_t>(static_cast<uint32_t>(raw));
        if (length == "h") v = static_cast<int16_t>(v);
        if (length == "hh") v = static_cast<int8_t>(v);
        append(out, spec + "lld", static_cast<long long>(v));
        return;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        const bool wide = length == "l" || length == "ll";
        uint64_t v = argument(wide ? 8 : 4);
        if (length == "h") v = static_cast<uint16_t>(v);
        if (length == "hh") v = static_cast<uint8_t>(v);
        append(out, spec + "ll" + conv, static_cast<unsigned long long>(v));
        return;
      }
      case 'c':
        if (!length.empty()) unsupported(start, "is not supported (wide characters)");
        append(out, spec + "c", static_cast<int>(static_cast<int32_t>(static_cast<uint32_t>(argument(4)))));
        return;
      case 's': {
        if (!length.empty()) unsupported(start, "is not supported (wide strings)");
        const uint64_t p = argument(8);
        const uint64_t limit = precision >= 0 ? static_cast<uint64_t>(precision) : kPrintfMaxString;
        const std::string s = p == 0 ? std::string("(null)") : read_string(p, limit, memory_, "%s argument");
        append(out, spec + "s", s.c_str());
        return;
      }
      case 'p':
        if (!length.empty()) unsupported(start, "has a length modifier");
        append(out, spec + "p", reinterpret_cast<const void*>(static_cast<uintptr_t>(argument(8))));
        return;
      case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
        if (!length.empty() && length != "l") unsupported(start, "has a length modifier a double cannot take");
        const uint64_t raw = argument(8);
        double d = 0;
        std::memcpy(&d, &raw, sizeof d);
        append(out, spec + conv, d);
        return;
      }
      case 'n':
        unsupported(start, "is not supported (device printf cannot write through %n)");
      default:
        unsupported(start, "is not supported");
    }
  }

  const std::string& format_;
  uint64_t args_;
  const PrintfMemory& memory_;
  size_t i_ = 0;
  uint64_t offset_ = 0;  // next byte of the argument buffer
  uint32_t count_ = 0;   // arguments read
};

}  // namespace

PrintfCall format_device_printf(uint64_t fmt, uint64_t args, const PrintfMemory& memory) {
  if (fmt == 0) return PrintfCall{"", -1};
  const std::string format = read_string(fmt, kPrintfMaxString, memory, "printf format string");
  return Formatter(format, args, memory).run();
}

std::string printf_quoted(const std::string& text) {
  std::string q = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') q += "\\n";
    else if (c == '\t') q += "\\t";
    else if (c == '"' || c == '\\') q += std::string("\\") + ch;
    else if (c >= 0x20 && c < 0x7F) q += ch;
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      q += buf;
    }
  }
  return q + "\"";
}

}  // namespace simtlm::functional
