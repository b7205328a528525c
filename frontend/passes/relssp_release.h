// How early the relssp placement gives the shared scratchpad region back:
// the static instruction count that can still run after a relssp, against the
// whole kernel's, both on the longest path with loops weighted by their trip
// counts (analysis/static_cost.h; 1024 when not a constant, the seed's bound).
// The seed's Set-1 / Set-2 split of the scratchpad-limited kernels (region
// "released before the end" / "used until the end", note 000 §4.4) is a
// statement about this fraction; `simtlm ptx --relssp` prints it per kernel
// and docs/studies/relssp.md classifies our kernels by it.
#pragma once

#include <cstdint>
#include <optional>

#include "frontend/ir/module.h"

namespace simtlm::frontend::passes {

struct RelsspRelease {
  uint64_t after = 0;  // most instructions on a path from just after a relssp to the exit
  uint64_t total = 0;  // most instructions on a path from the entry to the exit
  double fraction() const { return total == 0 ? 0.0 : static_cast<double>(after) / static_cast<double>(total); }
};

// For an analysed kernel whose relssp placement ran (annotation
// "relssp.inserted"); nullopt when it holds no inserted relssp.
std::optional<RelsspRelease> relssp_release(const ir::Function& fn, uint64_t unknown_iterations = 1024);

}  // namespace simtlm::frontend::passes
