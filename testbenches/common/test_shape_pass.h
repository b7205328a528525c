// A test pass that exercises every piece of the front-end pass pipeline:
// options, per-instruction annotations, the kept analyses and the launch
// shape. Not a mechanism: it only attaches two columns to every kernel.
//
//   test_shape.enabled=true     off by default
//   test_shape.scale=N          "test_shape.shape"[pc] = threads per CTA * N + pc   (uint64_t)
//   test_shape.live=false       skip "test_shape.live_regs"[pc] = physical registers live into pc
//
// It needs the launch shape, so the runtime runs it per kernel variant.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/analysis/analyze.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::testing_passes {

inline constexpr const char* kTestShapePass = "test_shape";

// How many times the pass ran (one per variant made).
inline unsigned& test_shape_runs() {
  static unsigned runs = 0;
  return runs;
}

inline frontend::PassInfo test_shape_pass() {
  frontend::PassInfo p;
  p.name = kTestShapePass;
  p.description = "test: annotates each instruction with the launch's block size and its live registers";
  p.after = {"analyze"};
  p.option_keys = {"scale", "live"};
  p.enabled_by_default = false;
  p.needs_launch_shape = true;
  p.run = [](frontend::PassContext& c) {
    ++test_shape_runs();
    const uint64_t scale = c.params.u64("scale", 1);
    const bool live = c.params.flag("live", true);
    for (ir::Function& fn : c.module.functions) {
      if (fn.insts.empty()) continue;
      const size_t n = fn.insts.size();
      std::vector<uint64_t> shape(n);
      for (size_t pc = 0; pc < n; ++pc) shape[pc] = uint64_t(c.launch->threads()) * scale + pc;
      fn.annotations.attach("test_shape.shape", std::move(shape), n);
      if (!live) continue;
      const auto& a = *fn.analysis.analyses;
      std::vector<std::vector<uint32_t>> regs(n);
      for (uint32_t pc = 0; pc < n; ++pc)
        regs[pc] = frontend::analysis::live_physical_regs(fn, a.registers, a.liveness.live_in(pc));
      fn.annotations.attach("test_shape.live_regs", std::move(regs), n);
    }
  };
  return p;
}

// Adds the pass to the global registry once per process.
inline void register_test_shape_pass() {
  frontend::PassRegistry& r = frontend::PassRegistry::global();
  if (!r.find(kTestShapePass)) r.add(test_shape_pass());
}

}  // namespace simtlm::testing_passes
