// The warp ganging unit's gang table (seed 002 §6.2.2-6.2.5, notes §10.3-10.5):
// which 4-wide warps run in lock-step as gangs, and which run alone on their
// slice. Plain data, no SystemC: the VWS SM's mixed mode (models/vws/ganging_unit.h)
// drives it; tests drive it directly.
//
// Warps are named by (original gang, slice): the SM's warp slot is
// original_gang * slices + slice (SmParams::warp_slot_group = slices), so
// the warps of an original gang (one 32-thread group of a CTA) are one per
// slice. The table is set-associative: one set per original gang, `ways`
// entries per set (slices / 2: a gang has at least 2 members, so an original
// gang never splits into more). Warps only ever gang with warps of their own
// original gang, never migrate, and a warp is at every moment in exactly one
// gang of at least 2 warps, independent (per-slice control), or finished.
//
//   form        at CTA launch: each original gang's present warps (one gang
//               when 2 or more, else an independent warp)
//   split_by_pc control-flow divergence: members grouped by PC; groups of 2
//               or more become gangs, single warps independent (always)
//   split_by_ready  memory-latency divergence: impatient (everybody
//               independent) or group (warps ready in the same cycle stay)
//   reform_one  opportunistic reformation: one original gang per call
//               (round-robin), at most two units (gangs or warps) at one PC
//               merged
//   retire      a warp finished
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simtlm::models::vws {

using SliceMask = uint32_t;  // bit s = slice s
constexpr uint32_t kNoGang = ~0u;

struct GangEntry {
  SliceMask mask = 0;        // GangMask: member slices (>= 2 bits when valid)
  uint32_t pc = 0;           // the members' common PC
  bool valid_entry = false;  // the way holds a gang
  bool ibuffer_valid = false;  // Valid: decoded instruction in every member's I-buffer
  SliceMask ready_mask = 0;  // ReadyMask: members whose scoreboard says ready
};

// Causes of a split (statistics by cause).
enum class SplitCause : uint8_t { ControlFlow, MemoryImpatient, MemoryGroup };
constexpr unsigned kSplitCauses = 3;

class GangTable {
 public:
  // `original_gangs` sets of slices / 2 ways; slices in 2..32.
  GangTable(uint32_t original_gangs, uint32_t slices);

  uint32_t slices() const { return slices_; }
  uint32_t ways() const { return ways_; }
  uint32_t sets() const { return sets_; }
  // Gang id = set * ways + way.
  uint32_t gang_id(uint32_t set, uint32_t way) const { return set * ways_ + way; }
  uint32_t set_of(uint32_t gang) const { return gang / ways_; }
  const GangEntry& gang(uint32_t id) const { return entries_.at(id); }
  GangEntry& gang(uint32_t id) { return entries_.at(id); }

  // Original gang `set` starts with the warps of `present` slices at `pc`.
  // The set must be empty (no gang, no live warp). Returns the gang id, or
  // kNoGang when fewer than 2 warps are present (the one warp is independent).
  uint32_t form(uint32_t set, SliceMask present, uint32_t pc);

  // The gang a warp belongs to (kNoGang: independent or finished).
  uint32_t gang_of(uint32_t set, uint32_t slice) const { return member_of_[set * slices_ + slice]; }
  // Live warps of the set that are not in a gang (the Independent Warp Mask).
  SliceMask independent(uint32_t set) const { return independent_[set]; }
  // Live warps of the set (ganged or independent).
  SliceMask live(uint32_t set) const { return live_[set]; }
  // Units of the set: its gangs plus its independent warps.
  uint32_t units(uint32_t set) const;
  // Gangs in use in the whole table.
  uint32_t gangs_in_use() const { return in_use_; }

  // Control-flow divergence: `pc_of(slice)` is each member's PC after the
  // branch. Members sharing a PC with another stay (or become) a gang; the
  // others become independent. Returns the number of units the gang became
  // (1 = no split).
  uint32_t split_by_pc(uint32_t gang, const std::function<uint32_t(uint32_t slice)>& pc_of);
  // Memory-latency divergence: the members in `now_ready` set their ready bit
  // in this cycle while others did not. Impatient: every member becomes
  // independent. Group: the members ready now leave as one unit (a gang if 2
  // or more), the rest stay a gang (if 2 or more). Returns whether it split.
  bool split_by_ready(uint32_t gang, SliceMask now_ready, bool impatient);

  // Opportunistic reformation of the next original gang in round-robin order
  // among those with 2 or more units: the first two units (a gang by its
  // lowest slice, an independent warp by its slice) with the same PC
  // (`pc_of(set, slice)` of any of its warps; `mergeable(slice)` false excludes
  // an independent warp that is mid-instruction) are merged into one gang.
  // Returns the gang that grew or was made, or kNoGang.
  uint32_t reform_one(const std::function<uint32_t(uint32_t set, uint32_t slice)>& pc_of,
                      const std::function<bool(uint32_t set, uint32_t slice)>& mergeable);

  // The warp finished: it leaves its gang (a gang left with one warp
  // dissolves: that warp becomes independent) or the independent mask.
  void retire(uint32_t set, uint32_t slice);

  uint64_t splits(SplitCause c) const { return splits_[static_cast<unsigned>(c)]; }
  uint64_t reformations() const { return reformations_; }
  // The same counters, for the statistics registry.
  const uint64_t* split_counter(SplitCause c) const { return &splits_[static_cast<unsigned>(c)]; }
  const uint64_t* reformation_counter() const { return &reformations_; }

  // Checks the partition invariant of the whole table (notes §15.5): every
  // live warp in exactly one valid gang of >= 2 members of its own set, or
  // independent; masks of a set's gangs disjoint; at most `ways` gangs per
  // set. Returns "" or what is wrong.
  std::string check() const;

 private:
  uint32_t free_way(uint32_t set) const;
  uint32_t make_gang(uint32_t set, SliceMask mask, uint32_t pc);
  void drop_gang(uint32_t gang);
  void set_members(uint32_t gang, SliceMask mask);

  uint32_t sets_;
  uint32_t slices_;
  uint32_t ways_;
  std::vector<GangEntry> entries_;   // sets * ways
  std::vector<uint32_t> member_of_;  // sets * slices: gang id or kNoGang
  std::vector<SliceMask> independent_;
  std::vector<SliceMask> live_;
  uint32_t in_use_ = 0;
  uint32_t reform_rr_ = 0;
  uint64_t splits_[kSplitCauses] = {0, 0, 0};
  uint64_t reformations_ = 0;
};

}  // namespace simtlm::models::vws
