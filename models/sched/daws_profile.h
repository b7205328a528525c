// Profiled-DAWS footprints stored with the kernel (Rogers §4.2.1, seed note
// 002 §7.3 (C)): the thesis fills its static load classification table at
// kernel launch from the profile of earlier runs on other inputs. Here a run
// under detected DAWS with gpu.sm.scheduler.daws.profile_out = FILE writes
// what its classifiers learned, and a run with mode = profiled and
// gpu.sm.scheduler.daws.profile = FILE reads it. A kernel is identified by
// its name and checked by its instruction count; a loop by the pc of its
// first instruction. For every loop found to have intra-warp locality the
// file keeps the loop's footprint per thread: its diverged and converged
// repetition groups (models/sched/daws_footprint.h). Text, one record a line:
//
//   # comment
//   kernel <name> instructions <count>
//   loop <begin pc> diverged <groups> converged <groups>
//
// (loop lines belong to the kernel line above them). Several SMs' tables are
// merged by the larger group count per loop (the worst case, as the
// thesis' prediction is).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "models/sched/daws_footprint.h"

namespace simtlm::models::sched {

struct DawsProfile {
  struct Kernel {
    uint32_t instructions = 0;
    std::map<uint32_t, DawsLoopFootprint> loops;  // begin pc -> footprint per thread
  };
  std::map<std::string, Kernel> kernels;

  // Error(Config) naming the file (and line) when it cannot be read or a
  // line is malformed.
  static DawsProfile read(const std::string& path);
  static DawsProfile parse(const std::string& text, const std::string& path);
  std::string text() const;
  // Error(Input) naming the file when it cannot be written.
  void write(const std::string& path) const;
  void merge(const DawsProfile& other);
};

}  // namespace simtlm::models::sched
