// The `simtlm` command-line program: `simtlm run`, `simtlm list`, `simtlm ptx`.
// run_cli is the whole program; apps/main.cpp only forwards sc_main's
// arguments, so tests can also drive it in-process with their own streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace simtlm::cli {

// Exit status of the program (documented in README.md "Exit codes").
enum ExitCode : int {
  kExitOk = 0,        // success; for `run`: the result check passed
  kExitMismatch = 1,  // the result check failed (FAIL)
  kExitUsage = 2,     // usage, configuration, input, PTX or launch error
  kExitFault = 3,     // device fault or deadlock during a launch
  kExitInternal = 4,  // a bug in simtlm (unexpected exception)
};

int run_cli(int argc, char* argv[]);
// `args` excludes the program name. Prints results to `out`, messages to `err`.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace simtlm::cli
