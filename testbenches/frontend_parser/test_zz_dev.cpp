#include <gtest/gtest.h>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <iostream>
#include "frontend/ir/printer.h"
#include "frontend/ptx/parser.h"
#include "simtlm/error.h"
TEST(Dev, Dump) {
  const char* f = std::getenv("PTX_DUMP");
  if (!f) GTEST_SKIP();
  std::ifstream in(f); std::stringstream ss; ss << in.rdbuf();
  try {
    auto m = simtlm::frontend::parse_ptx(ss.str(), f);
    if (std::getenv("PTX_PRINT")) std::cout << simtlm::ir::print_module(*m);
    else std::cout << "OK " << m->functions.size() << " functions\n";
  } catch (const simtlm::Error& e) { std::cout << "ERROR " << e.what() << "\n"; }
}
