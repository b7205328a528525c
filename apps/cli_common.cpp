#include "apps/cli_common.h"

#include <cerrno>
#include <cstdlib>
#include <ostream>

namespace simtlm::cli {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
    case ErrorKind::Config:
    case ErrorKind::Input:
    case ErrorKind::Ptx:
    case ErrorKind::Launch:
      return 2;
    case ErrorKind::Fault:
    case ErrorKind::Deadlock:
      return 3;
    case ErrorKind::Internal:
      break;
  }
  return 4;
}

const char* error_label(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return "usage error";
    case ErrorKind::Config: return "configuration error";
    case ErrorKind::Input: return "input error";
    case ErrorKind::Ptx: return "PTX error";
    case ErrorKind::Launch: return "launch error";
    case ErrorKind::Fault: return "device fault";
    case ErrorKind::Deadlock: return "deadlock";
    case ErrorKind::Internal: break;
  }
  return "internal error";
}

void usage_error(const std::string& message) { throw Error(ErrorKind::Usage, message); }

uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min,
                    uint64_t max) {
  // strtoull accepts a leading '-' (and wraps); insist on digits only.
  bool ok = !text.empty() && text[0] != '-' && text[0] != '+' && text[0] != ' ';
  uint64_t value = 0;
  if (ok) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    ok = errno == 0 && end && *end == '\0';
    value = v;
  }
  if (!ok || value < min || value > max)
    usage_error(what + " must be an integer in " + std::to_string(min) + ".." +
                std::to_string(max) + ", got '" + text + "'");
  return value;
}

Backend parse_backend(const std::string& text) {
  if (text == "functional") return Backend::Functional;
  if (text == "timing") return Backend::Timing;
  usage_error("unknown backend '" + text + "' (expected functional or timing)");
}

const char* backend_name(Backend backend) {
  return backend == Backend::Timing ? "timing" : "functional";
}

const char* version() { return SIMTLM_VERSION; }

Progress::Progress(Io& io, const std::string& what) : io_(io) {
  if (io_.progress) io_.err << "simtlm: " << what << " ..." << std::flush;
}

Progress::~Progress() {
  // Erase the line so that it never mixes with the messages that follow.
  if (io_.progress) io_.err << "\r\033[K" << std::flush;
}

}  // namespace simtlm::cli
