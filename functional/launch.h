// Entry points of the functional backend used by the runtime: the device's
// global memory and "run this kernel to completion". The timing backend reuses
// the same warp/CTA state and per-instruction execution (functional/warp.h,
// functional/cta.h) but decides itself when each warp issues.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "functional/memory.h"
#include "functional/printf_buffer.h"

namespace simtlm::functional {

// Generic-address windows (decision recorded in docs/architecture.md): a
// generic address in [kSharedWindowBase, +kWindowSize) is shared memory of the
// executing CTA, in [kLocalWindowBase, +kWindowSize) local memory of the
// executing thread, anything else is global. Global allocations start at
// kGlobalBase and never reach the windows.
inline constexpr uint64_t kGlobalBase = 0x0000'0001'0000'0000ull;
inline constexpr uint64_t kSharedWindowBase = 0x0000'7F00'0000'0000ull;
inline constexpr uint64_t kLocalWindowBase = 0x0000'7E00'0000'0000ull;
inline constexpr uint64_t kWindowSize = 0x0000'0001'0000'0000ull;

struct Dim3u {
  uint32_t x = 1, y = 1, z = 1;
};

// Everything a launch needs besides the module.
struct LaunchRequest {
  const ir::Module* module = nullptr;
  const ir::Function* kernel = nullptr;
  Dim3u grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;   // kernel parameter buffer laid out per the .param offsets
  unsigned warp_size = 32;       // 1..64
  uint32_t num_sms = 15;         // value of %nsmid
  uint32_t grid_id = 1;          // value of %gridid
  // Device addresses of module-scope .global/.const variables (index = Module::vars index;
  // 0 for variables in other spaces). Filled by the runtime when it loads the module.
  const std::vector<uint64_t>* var_addresses = nullptr;
  // Where the kernel's printf calls go (formatted when they execute, written
  // out by the runtime after the launch); nullptr: formatted and discarded.
  PrintfBuffer* printf_buffer = nullptr;
  // sim.max_instructions: the launch stops with Error(Launch) once this many
  // warp instructions have run (0 = unlimited). Bounds a livelocking kernel
  // (`L: bra L;`, a spin on a flag nobody sets), which nothing else stops here.
  uint64_t max_warp_instructions = 0;
  // sim.platform = spu (functional/spu/, docs/spu.md): a kernel that uses SPU
  // instructions runs on a spu_grid_size x spu_grid_size grid of SMs with
  // interface units and spu_cb_bytes communication buffers, all its CTAs
  // together. 0: not an SPU (such a kernel is an error).
  uint32_t spu_grid_size = 0;
  uint32_t spu_cb_bytes = 0;
};

struct LaunchCounters {
  uint64_t ctas = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  // Global-memory accesses at element granularity (one per executing lane
  // and vector element of a global or generic-to-global load, store, atomic
  // or reduction; SPU launches add the virtual IUs' spilled and restored
  // words): the SPU study's off-chip I/O measure (Rajasree note §4.2).
  uint64_t offchip_accesses = 0;
  // SPU launches (docs/spu.md, "Passes"): passes run, and the faces each
  // physical interface unit spilled / restored as a virtual IU (indexed as
  // the platform's iu[k]: north by column, west, south, east by row; empty
  // for other launches).
  uint32_t spu_passes = 0;
  std::vector<uint64_t> viu_spills, viu_restores;
};

// Runs every CTA of the launch to completion. Throws simtlm::Error(Fault) on an
// out-of-bounds/misaligned access (naming kernel, PTX line, CTA, thread,
// address; nothing is written past the fault) and Error(Deadlock) when the
// live warps of a CTA can make no progress (e.g. barrier never reached).
// `on_cta_done`, when set, is called after every CTA with the counts so far
// and the launch's CTA count (progress display; it cannot change the run).
using CtaDoneCallback = std::function<void(const LaunchCounters& so_far, uint64_t total_ctas)>;
LaunchCounters run_launch(const LaunchRequest& request, GlobalMemory& memory,
                          const CtaDoneCallback& on_cta_done = {});

}  // namespace simtlm::functional
