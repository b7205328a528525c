// What one SM's DAWS knows about one kernel (Rogers §4.2, seed note 002
// §7.3-7.4): its loops (models/sched/daws_loops.h) and, per loop, the
// footprint per thread, either read from a profile (profiled DAWS) or
// learned online (detected DAWS):
//   sampling warp table (E)   one sampling warp per loop: the first warp
//                             entering it with more than two active lanes
//                             (a replacement after the sampler left: two
//                             or more; seed note §16 item 9 keeps both
//                             rules of the thesis);
//   HasLocality counter       +1 per L1D access of the sampler's loads that
//                             found intra-warp locality (a hit on a line
//                             the warp allocated, or a victim-tag hit),
//                             -1 otherwise; the loop is predicted only while
//                             it is positive;
//   divergence detector (G)   per load pc, with more than two lanes
//                             active: +1 when the load touched more than
//                             two lines, -1 otherwise; diverged while > 1;
//   repetition groups (F)     loads the ILRD saw touch the same line in one
//                             iteration share a group (union of pcs).
// Counters saturate at -8 and +7 (4 bits; the thesis leaves the width open).
// Classification entries are created for the sampled loads only, one per pc.
// The counters are per access, not per load instruction: the L1D's events
// carry the warp but not the instruction (a divergent load is 32 votes).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/sched/daws_footprint.h"
#include "models/sched/daws_loops.h"
#include "models/sched/daws_profile.h"

namespace simtlm::models::sched {

class RepetitionDetector;

class DawsKernel {
 public:
  static constexpr int32_t kCounterMin = -8;
  static constexpr int32_t kCounterMax = 7;

  DawsKernel(std::string name, uint32_t instructions, DawsLoopTable loops);
  // Profiled DAWS: the kernel's loops from `profile` (read from `path`).
  // Error(Input) naming the file and the kernel when the profile does not
  // have it, has it with another instruction count, or names a loop the
  // kernel does not begin at that pc.
  void apply_profile(const DawsProfile& profile, const std::string& path);

  const std::string& name() const { return name_; }
  const DawsLoopTable& loops() const { return loops_; }
  bool profiled() const { return profiled_; }

  // Footprint per thread of `loop` (empty: no prediction for it).
  DawsLoopFootprint footprint(uint32_t loop);

  // ---- detected DAWS ----------------------------------------------------
  // Warp `slot` issued the first instruction of `loop` with `lanes` active.
  // Returns true when it became the loop's sampler.
  bool loop_begin(uint32_t loop, uint32_t slot, uint32_t lanes, RepetitionDetector& ilrd);
  // The sampler of `loop` left it (or finished).
  void sampler_left(uint32_t loop, uint32_t slot);
  int32_t sampler(uint32_t loop) const { return sampler_[loop]; }
  // A load at `pc` of the sampler of `loop` with `lanes` executing lanes
  // touching `lines` (line numbers, distinct).
  void sampled_load(uint32_t loop, uint32_t pc, uint32_t slot, uint32_t lanes, const std::vector<uint64_t>& lines,
                    RepetitionDetector& ilrd);
  // One L1D access of a sampled load of `loop`: intra-warp locality or not.
  void feedback(uint32_t loop, bool intra_warp_locality);
  int32_t locality(uint32_t loop) const { return locality_[loop]; }
  // The classification of load `pc` (nullptr: not sampled).
  struct Load {
    uint32_t loop = 0;
    int32_t divergence = 0;
    uint32_t rep = 0;  // union-find parent pc
  };
  const Load* load(uint32_t pc) const;
  uint32_t rep_of(uint32_t pc);
  // The learned footprints of the loops with locality (a profile's kernel).
  DawsProfile::Kernel learned();

 private:
  static void bump(int32_t& counter, bool up);
  std::string name_;
  uint32_t instructions_;
  DawsLoopTable loops_;
  bool profiled_ = false;
  std::vector<DawsLoopFootprint> profile_;  // per loop (profiled)
  std::vector<int32_t> locality_;           // per loop: HasLocality
  std::vector<int32_t> sampler_;            // per loop: sampling warp slot, -1 = none
  std::vector<uint8_t> sampled_before_;
  std::vector<uint8_t> summary_stale_;
  std::vector<DawsLoopFootprint> summary_;  // per loop, from the classified loads
  std::map<uint32_t, Load> loads_;          // pc -> classification
};

}  // namespace simtlm::models::sched
