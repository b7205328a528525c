#include "frontend/ptx/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace simtlm::frontend::ptx {

std::string demangle(const std::string& name) {
  if (name.compare(0, 2, "_Z") != 0) return "";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : std::string();
}

std::string short_kernel_name(const std::string& name) {
  const std::string full = demangle(name);
  if (full.empty()) return name;
  // The parameter list is the last top-level "(...)" group: walk back from
  // the end over balanced parentheses (parameter types may hold some, e.g.
  // function pointers).
  if (full.empty() || full.back() != ')') return full;
  int depth = 0;
  for (size_t i = full.size(); i-- > 0;) {
    if (full[i] == ')') ++depth;
    if (full[i] == '(' && --depth == 0) return i == 0 ? full : full.substr(0, i);
  }
  return full;
}

}  // namespace simtlm::frontend::ptx
