// Command dispatch and the one place where errors become messages and exit
// codes: every failure below surfaces as simtlm::Error (or a Boost option
// error, which is a usage error) and is reported here in one line.
#include "apps/cli.h"

#include <unistd.h>

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <new>

#include "apps/cli_common.h"

namespace simtlm::cli {

namespace {

const char* kTopUsage =
    "usage: simtlm <command> [options]\n"
    "\n"
    "simtlm runs CUDA kernels (PTX) on a SystemC/TLM-2.0 model of a GPU.\n"
    "\n"
    "Commands:\n"
    "  run [WORKLOAD]   run a built-in workload and check its result (default: sgemm)\n"
    "  list             list the built-in workloads and configurations\n"
    "  ptx FILE.ptx     analyse a PTX file, or run one of its kernels (--kernel, --launch)\n"
    "  config describe  list every configuration key (--markdown: the reference page)\n"
    "  sweep SPEC.json  run a study: workloads x configurations, locally or on Slurm\n"
    "  occupancy        resident CTAs per SM of a CTA shape, with and without sharing\n"
    "  l1d-replay TRACE replay an L1D trace (run --trace l1d) under LRU and Belady's optimum\n"
    "\n"
    "Options:\n"
    "  -h, --help       show this help; `simtlm <command> --help` shows a command's options\n"
    "  --version        print the version\n"
    "\n"
    "Exit status: 0 success (PASS), 1 result mismatch (FAIL), 2 usage, configuration,\n"
    "input, PTX or launch error, 3 device fault or deadlock, 4 internal error.\n";

int dispatch(const std::vector<std::string>& args, Io& io) {
  if (args.empty()) {
    io.err << kTopUsage;
    return kExitUsage;
  }
  const std::string& command = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "-h" || command == "--help" || command == "help") {
    io.out << kTopUsage;
    return kExitOk;
  }
  if (command == "--version") {
    io.out << "simtlm " << version() << "\n";
    return kExitOk;
  }
  if (command == "run") return cmd_run(rest, io);
  if (command == "list") return cmd_list(rest, io);
  if (command == "ptx") return cmd_ptx(rest, io);
  if (command == "config") return cmd_config(rest, io);
  if (command == "sweep") return cmd_sweep(rest, io);
  if (command == "occupancy") return cmd_occupancy(rest, io);
  if (command == "l1d-replay") return cmd_l1d_replay(rest, io);
  if (!command.empty() && command[0] == '-')
    usage_error("unknown option '" + command + "' (expected a command first: run, list, ptx, config, sweep, occupancy, l1d-replay)");
  usage_error("unknown command '" + command + "' (expected run, list, ptx, config, sweep, occupancy or l1d-replay)");
}

void report(Io& io, ErrorKind kind, const std::string& message, const std::string& command) {
  io.err << "simtlm: ";
  // PTX diagnostics already read "file:line:column: error: ...".
  if (kind != ErrorKind::Ptx || message.find(": error: ") == std::string::npos)
    io.err << error_label(kind) << ": ";
  io.err << message << "\n";
  if (kind == ErrorKind::Usage)
    io.err << "simtlm: see 'simtlm " << (command.empty() ? "" : command + " ") << "--help'\n";
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Io io{out, err};
  io.progress = &err == &std::cerr && ::isatty(STDERR_FILENO);
  std::string command;
  if (!args.empty() && (args[0] == "run" || args[0] == "list" || args[0] == "ptx" || args[0] == "config" ||
                        args[0] == "sweep" || args[0] == "occupancy" || args[0] == "l1d-replay"))
    command = args[0];
  try {
    return dispatch(args, io);
  } catch (const Error& e) {
    report(io, e.kind(), e.what(), command);
    return exit_code_for(e.kind());
  } catch (const boost::program_options::error& e) {
    report(io, ErrorKind::Usage, e.what(), command);
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    report(io, ErrorKind::Internal, "out of host memory", command);
    return kExitInternal;
  } catch (const std::exception& e) {
    report(io, ErrorKind::Internal, e.what(), command);
    return kExitInternal;
  }
}

int run_cli(int argc, char* argv[]) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  int code = run_cli(args, std::cout, std::cerr);
  std::cout.flush();
  return code;
}

}  // namespace simtlm::cli
