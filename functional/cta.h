// A cooperative thread array of the functional engine: its warps, shared
// memory, per-thread local memory and the 16 named barriers. Barrier
// semantics are described in warp.h's decision block.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "functional/launch.h"
#include "functional/warp.h"

namespace simtlm::functional {

class LaunchContext;
namespace spu {
struct Unit;
}

class Cta {
 public:
  static constexpr unsigned kNumBarriers = 16;
  // Barrier id of a warp that waits for something outside its CTA (the SPU's
  // bar.blocksync, functional/spu/): whoever owns that wait clears it.
  static constexpr unsigned kExternalBarrier = kNumBarriers;

  // Builds CTA `linear_id` (x fastest) of the launch: warps with zeroed
  // registers at pc 0, zeroed shared and local memory.
  Cta(const LaunchContext& ctx, uint64_t linear_id);

  uint64_t linear_id() const { return linear_id_; }
  const Dim3u& id() const { return id_; }
  Dim3u thread_id(uint32_t linear_thread) const;

  std::vector<Warp>& warps() { return warps_; }
  const std::vector<Warp>& warps() const { return warps_; }
  Warp& warp(size_t i) { return warps_[i]; }
  size_t num_warps() const { return warps_.size(); }

  uint8_t* shared() { return shared_.data(); }
  uint64_t shared_size() const { return shared_.size(); }
  // Local frame of thread `linear_thread` (local_size() bytes).
  uint8_t* local(uint32_t linear_thread) { return local_.data() + size_t(linear_thread) * local_bytes_; }
  uint64_t local_size() const { return local_bytes_; }

  // SM the CTA runs on (%smid); 0 in the functional backend.
  uint32_t sm_id() const { return sm_id_; }
  void set_sm_id(uint32_t sm) { sm_id_ = sm; }

  // SPU launches (functional/spu/): the unit this CTA runs on, and its name
  // in fault and deadlock reports ("IU west 1"); null / empty otherwise.
  spu::Unit* spu_unit() const { return spu_unit_; }
  void set_spu_unit(spu::Unit* unit, std::string role) {
    spu_unit_ = unit;
    role_ = std::move(role);
  }
  const std::string& role() const { return role_; }

  uint32_t live_threads() const { return live_threads_; }
  bool finished() const { return live_threads_ == 0; }

  // Deterministic clock: warp instructions executed by this CTA so far.
  uint64_t clock() const { return clock_; }
  void tick() { ++clock_; }
  // The timing model points this at the core-cycle counter of the SM the CTA
  // runs on: %clock, %clock64 and %globaltimer then read it (it takes
  // precedence over LaunchContext::cycle_counter() and clock()).
  void set_cycle_counter(const uint64_t* cycles) { cycles_ = cycles; }
  const uint64_t* cycle_counter() const { return cycles_; }

  // --- barriers -----------------------------------------------------------
  // Warp `warp` arrives at barrier `id` expecting `count` threads (0 = all
  // live threads of the CTA); the arrival counts all live threads of the warp,
  // `lanes` are the executing lanes (bar.red inputs and result lanes). With `wait` the warp blocks until the
  // barrier completes (it must already have advanced past the instruction).
  // bar.red: red_op 1 = popc, 2 = and, 3 = or over `pred` (lane array, read
  // for `lanes`), result written to register lane array `red_dst` (reg * W) of
  // each arrived lane on completion. Returns true when the barrier completed.
  // Throws Error(Ptx) for an id outside 0..15 or an inconsistent count/op.
  bool arrive(Warp& warp, const LaunchContext& ctx, unsigned id, uint32_t count, uint64_t lanes,
              bool wait, uint8_t red_op, const uint64_t* pred, int32_t red_dst);
  // Threads exited: the live count drops, barriers waiting for all live
  // threads may complete. Returns true when one did.
  bool threads_exited(uint64_t lanes);

  // Warps waiting at barriers, one line each (for deadlock reports).
  std::string describe_waiting(const LaunchContext& ctx) const;

 private:
  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0;  // 0 = all live threads
    uint8_t red_op = 0;
    uint32_t red_popc = 0;
    bool red_all = true;
    bool red_any = false;
    bool has_waiters = false;
  };
  bool try_release(unsigned id);

  uint64_t linear_id_;
  Dim3u id_;
  Dim3u block_;
  std::vector<Warp> warps_;
  std::vector<uint8_t> shared_;
  std::vector<uint8_t> local_;
  uint64_t local_bytes_;
  uint32_t live_threads_ = 0;
  uint32_t sm_id_ = 0;
  uint64_t clock_ = 0;
  const uint64_t* cycles_ = nullptr;
  spu::Unit* spu_unit_ = nullptr;
  std::string role_;
  Barrier barriers_[kNumBarriers];
};

}  // namespace simtlm::functional
