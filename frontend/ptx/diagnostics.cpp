#include "frontend/ptx/diagnostics.h"

#include "simtlm/error.h"

namespace simtlm::frontend::ptx {

[[noreturn]] void throw_ptx_error(const std::string& file, uint32_t line, uint32_t column,
                                  const std::string& what, std::string_view near) {
  // Keep the quoted context short and on one line.
  std::string shown;
  for (char c : near) {
    if (shown.size() >= 60) {
      shown += "...";
      break;
    }
    shown += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  std::string msg = file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": error: " + what;
  if (near.empty())
    msg += " near end of file";
  else
    msg += " near '" + shown + "'";
  throw Error(ErrorKind::Ptx, msg);
}

}  // namespace simtlm::frontend::ptx
