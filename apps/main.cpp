// `simtlm` entry point. libsystemc provides main() and calls sc_main; the CLI
// itself lives in cli.cpp so tests can drive it in-process.
#include <systemc>

#include "apps/cli.h"

int sc_main(int argc, char* argv[]) { return simtlm::cli::run_cli(argc, argv); }
