// Runs the front-end pipeline of frontend/load.cpp on PTX text, step by step
// so tests can also look at intermediate states.
#pragma once

#include <memory>
#include <string>

#include "frontend/analysis/analyze.h"
#include "frontend/ir/module.h"
#include "frontend/passes/inline_calls.h"
#include "frontend/passes/layout_memory.h"
#include "frontend/ptx/parser.h"

namespace simtlm::testing_ir {

inline std::unique_ptr<ir::Module> load(const std::string& ptx, const std::string& file = "test.ptx") {
  auto m = frontend::parse_ptx(ptx, file);
  frontend::passes::inline_calls(*m);
  frontend::passes::layout_memory(*m);
  frontend::analysis::analyze(*m);
  return m;
}

inline const ir::Function& fn(const ir::Module& m, const std::string& name) {
  return m.functions.at(m.function_index.at(name));
}

inline uint32_t var(const ir::Module& m, const std::string& name) {
  for (uint32_t v = 0; v < m.vars.size(); ++v)
    if (m.vars[v].name == name) return v;
  return 0xFFFFFFFFu;
}

// Index of the first instruction of `f` whose text contains `needle`.
inline uint32_t find_inst(const ir::Function& f, const std::string& needle, uint32_t from = 0) {
  for (uint32_t i = from; i < f.insts.size(); ++i)
    if (f.insts[i].text.find(needle) != std::string::npos) return i;
  return 0xFFFFFFFFu;
}

inline const char* kHeader = ".version 8.0\n.target sm_75\n.address_size 64\n";

}  // namespace simtlm::testing_ir
