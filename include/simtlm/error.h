// Error types thrown across the public API. Each carries a kind that the CLI
// maps to an exit status (usage/config/input/PTX/launch errors -> 2, device
// faults during a launch -> 3) and a message that already names the file,
// line, key, kernel, thread or address involved.
#pragma once

#include <stdexcept>
#include <string>

namespace simtlm {

enum class ErrorKind {
  Usage,    // bad command line
  Config,   // bad configuration key/value
  Input,    // bad input file, launch spec, missing file
  Ptx,      // malformed/unsupported PTX (message has file:line:column)
  Launch,   // bad launch: unknown kernel, wrong arguments, limits exceeded
  Fault,    // device fault during execution (OOB/misaligned access, trap)
  Deadlock, // no forward progress (barrier mismatch, watchdog)
  Internal, // a bug in simtlm
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace simtlm
