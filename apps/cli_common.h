// Helpers shared by the subcommands: output streams, exit-code mapping,
// strict parsing of option values and backend names.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "apps/cli.h"
#include "simtlm/device.h"
#include "simtlm/error.h"

namespace simtlm::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
  bool progress = false;  // stderr is a terminal: a transient progress line is welcome
};

int exit_code_for(ErrorKind kind);
// "usage error", "device fault", ... (prefix of the one-line error report).
const char* error_label(ErrorKind kind);

[[noreturn]] void usage_error(const std::string& message);

// Decimal (or 0x-hex) unsigned integer in [min, max]; Error(Usage) naming `what` otherwise.
uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min,
                    uint64_t max);

Backend parse_backend(const std::string& text);
const char* backend_name(Backend backend);

const char* version();

// Subcommands: `args` are the words after the command name.
int cmd_run(const std::vector<std::string>& args, Io& io);
int cmd_list(const std::vector<std::string>& args, Io& io);
int cmd_ptx(const std::vector<std::string>& args, Io& io);
int cmd_config(const std::vector<std::string>& args, Io& io);
int cmd_sweep(const std::vector<std::string>& args, Io& io);
int cmd_occupancy(const std::vector<std::string>& args, Io& io);
int cmd_l1d_replay(const std::vector<std::string>& args, Io& io);

// Transient "simtlm: <what> ..." line on stderr when it is a terminal.
class Progress {
 public:
  Progress(Io& io, const std::string& what);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  Io& io_;
};

}  // namespace simtlm::cli
