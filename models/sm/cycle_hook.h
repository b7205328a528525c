// A mechanism part that acts on its own once per SM cycle, beside the
// issue path: FineReg's CTA switching watches for CTAs whose warps all
// stalled, moves registers between its register files and suspends and
// resumes CTAs. An allocator provides one through CtaAllocator::bind_sm,
// which the SM calls once at construction with the parts such a hook may
// read and the services it may use; the SM then calls on_cycle() at the end
// of every tick (after issue and CTA completion) and wakes for
// next_cycle(). Without a hook the SM's tick is unchanged.
#pragma once

#include <cstdint>

namespace simtlm::models {

class CtaTable;
class WarpTable;
class SmServices;

class SmCycleHook {
 public:
  virtual ~SmCycleHook() = default;
  virtual void on_cycle(uint64_t cycle) = 0;
  // The next cycle the hook must run at even if nothing else happens
  // (a timer); ~0 for none.
  virtual uint64_t next_cycle() const { return ~0ull; }
  // A global-memory access the hook asked for (SmServices::mechanism_access)
  // completed at `cycle` (called before on_cycle of that cycle).
  virtual void on_access_done(uint32_t /*ticket*/, uint64_t /*cycle*/) {}
};

// What the SM lends a hook: its CTA table (CTA states and functional CTAs),
// its warp table (per-warp timing state, read only) and its services
// (suspend/resume a CTA, tell the platform about freed room).
struct SmInternals {
  CtaTable& ctas;
  const WarpTable& warps;
  SmServices& services;
};

}  // namespace simtlm::models
