// `simtlm` entry point. libsystemc provides main() and calls sc_main; the CLI
// itself lives in cli.cpp so tests can drive it in-process.
#include <cstdlib>
#include <systemc>

#include "apps/cli.h"
#include "apps/huge_page_heap.h"

namespace {
// The SystemC banner would precede every message on stderr; a command-line
// tool prints only what the user asked for. Runs before libsystemc's main().
const bool banner_disabled = [] {
  return ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}();
}  // namespace

int sc_main(int argc, char* argv[]) {
  (void)banner_disabled;
  simtlm::cli::reexec_with_huge_page_heap(argc, argv);
  return simtlm::cli::run_cli(argc, argv);
}
