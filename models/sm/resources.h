// What the SM's resource allocators see of a CTA, and what the SM asks them
// at issue. Shared by models/regfile, models/smem and the Sm itself so that
// register/scratchpad sharing and FineReg can plug in behind the allocator
// interfaces without touching the SM.
#pragma once

#include <cstdint>

#include "frontend/ir/instruction.h"

namespace simtlm::functional {
class LaunchContext;
class Warp;
}

namespace simtlm::models {

struct InstTiming;

// Resource footprint of one CTA of a launch.
struct CtaShape {
  uint32_t threads = 0;          // threads of the CTA
  uint32_t warps = 0;            // ceil(threads / warp_size)
  uint32_t warp_size = 32;
  uint32_t regs_per_thread = 0;  // 32-bit registers per thread (front-end estimate)
  uint64_t shared_bytes = 0;     // static + dynamic shared memory
  uint64_t local_bytes = 0;      // per-thread local memory

  // Threads rounded up to whole warps (what the SM reserves).
  uint32_t padded_threads() const { return warps * warp_size; }

  bool operator==(const CtaShape& o) const {
    return threads == o.threads && warps == o.warps && warp_size == o.warp_size &&
           regs_per_thread == o.regs_per_thread && shared_bytes == o.shared_bytes && local_bytes == o.local_bytes;
  }

  // Shape of the CTAs of a launch.
  static CtaShape of(const functional::LaunchContext& ctx);
};

// Answer of an allocator's issue-time check.
enum class IssueCheck : uint8_t {
  Ok,       // the instruction may issue
  Blocked,  // a resource it needs is held by another CTA (sharing locks)
};

// The instruction a warp is about to issue, as the allocators see it.
struct IssueQuery {
  uint32_t warp_slot = 0;    // SM-wide warp slot
  uint32_t cta_slot = 0;     // SM-wide CTA slot
  uint64_t cta_id = 0;       // linear CTA id in its launch
  uint32_t warp_in_cta = 0;  // warp index inside the CTA
  uint32_t pc = 0;
  const ir::Instruction* inst = nullptr;  // nullptr for the implicit final exit
  const InstTiming* timing = nullptr;     // its registers (physical numbers) and memory path
  // The warp and its launch, to compute what the instruction would access
  // (functional/shared_access.h) before it executes.
  const functional::Warp* warp = nullptr;
  const functional::LaunchContext* ctx = nullptr;
};

}  // namespace simtlm::models
