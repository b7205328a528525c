// The registers per thread that CTA admission uses, decided when a module is
// loaded: gpu.sm.register_count_source = ptxas takes a known toolchain count
// (DeviceOptions::known_register_counts) where there is one and falls back to
// our allocator's estimate otherwise; = allocator always takes the estimate.
// The decision is written into each kernel's FunctionAnalysis
// (regs_per_thread, regs_source, regs_source_detail), which is where the SM's
// admission reads it, and reported in every LaunchStats.
#pragma once

#include "frontend/ir/module.h"
#include "simtlm/config.h"
#include "simtlm/device.h"

namespace simtlm::runtime {

// Decides the count of every kernel of `module`. A toolchain count above
// gpu.sm.max_registers_per_thread is capped at it (a compiler for the
// configured GPU spills rather than exceed its limit), and the detail says so.
// Whatever the source, a count above the limit is capped
// (gpu.sm.register_limit_policy = cap) or left as it is for
// check_register_limit to refuse at launch (= reject).
void choose_register_counts(ir::Module& module, const Config& config, const RegisterCountLookup& known);

// Error(Launch) naming the kernel, its count and source and both keys when the
// count chosen above exceeds gpu.sm.max_registers_per_thread (only possible
// with gpu.sm.register_limit_policy = reject).
void check_register_limit(const ir::Function& kernel, const Config& config);

}  // namespace simtlm::runtime
