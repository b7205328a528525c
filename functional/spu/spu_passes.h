// Multi-pass SPU launches (Rajasree, seed note 003 §1.7; docs/spu.md,
// "Passes"), shared by both backends: the pass plan, the roles and pass
// registers of a pass's units, the global-memory slots of spilled faces and
// the runtime's virtual IU code (Alg. 2). The functional backend
// (spu_launch.cpp) runs a VIU's data move and its next synchronisation in one
// step; the timing backend (platforms/spu/spu_sync.cpp) times the move in
// between (models/spu/tile_mover.h).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "functional/spu/spu_fabric.h"

namespace simtlm::functional {
class GlobalMemory;
}

namespace simtlm::functional::spu {

// Pass (px, py) holds the CTAs X in [px p, px p + w), Y in [py p, py p + h),
// CTA (X, Y) on SM (X mod p, Y mod p); passes run row-wise (x fastest).
struct PassPlan {
  uint32_t p = 0, gx = 0, gy = 0, npx = 1, npy = 1;
  static PassPlan of(uint32_t p, uint32_t gx, uint32_t gy);
  uint32_t passes() const { return npx * npy; }
  uint32_t width(uint32_t px) const;   // w of pass column px
  uint32_t height(uint32_t py) const;  // h of pass row py
  // The CTAs of every pass, pass after pass in row-wise order, each pass's
  // in its fabric's unit order (row by row): the timing backend's dispatch order.
  std::vector<uint64_t> cta_order() const;
};

// Pass registers, roles (note §1.7's table, invariant 13), the lane in the
// whole grid (spu.sreg iuid), the unit's name and the SM that hosts an edge
// IU of a partial pass (§1.4: "some of the SMs will take up the role of IUs").
void place_unit(Unit& u, const PassPlan& plan, uint32_t px, uint32_t py, uint32_t w, uint32_t h);

// The CTA a unit of pass (px, py) runs: its own, or for an IU the grid CTA
// next to it (%ctaid).
uint64_t unit_cta(const Unit& u, const PassPlan& plan, uint32_t px, uint32_t py);

// The physical interface unit an IU of a pass sits on (a VIU always does:
// VIUs exist only on the sides of full passes): k = x north, p + y west,
// 2p + x south, 3p + y east (platforms/spu/spu_platform.h's numbering).
size_t physical_iu(const Unit& u, uint32_t p);

// The spills of one boundary lane by one producer pass, in order, and the
// spill-progress scoreboard of invariant 12 (note §1.7 [I], §7.12): restore n
// of the consumer pass may read slot n once `completed` > n (the spill's
// transfer has ended); `closed` once the producing VIU has ended (no more
// spills will come).
struct SpillChannel {
  std::vector<uint64_t> slots;  // global address of each spilled face
  uint64_t completed = 0;       // spills whose data is in global memory
  bool closed = false;          // the producer's spilling VIU has ended
};

// Global-memory slots of the spilled faces (note §1.7, "a pre-allocated
// region in the global memory"): one allocation of spu.cb_bytes per spill,
// in order, per channel = (vertical?, lane of the whole grid, index of the
// producer pass along the boundary's axis). Pass by pass, the producer pass
// has finished (every channel complete and closed) before its consumer
// starts; with overlapped passes the consumer's restores wait on the
// channel's scoreboard. Released with the launch.
class SpillSlots {
 public:
  explicit SpillSlots(GlobalMemory& memory) : memory_(memory) {}
  SpillSlots(const SpillSlots&) = delete;
  SpillSlots& operator=(const SpillSlots&) = delete;
  ~SpillSlots();
  SpillChannel& channel(bool vertical, uint32_t lane, uint32_t producer_pass) {
    return channels_[std::make_tuple(vertical, lane, producer_pass)];
  }
  GlobalMemory& memory() { return memory_; }

 private:
  GlobalMemory& memory_;
  std::map<std::tuple<bool, uint32_t, uint32_t>, SpillChannel> channels_;
};

// A virtual IU: the runtime's code of Alg. 2. It synchronises as its partner
// does (Fabric::arrive_virtual: global or directed, Alg. 2's two forms). A
// spilling VIU (east/south) waits at its sync and, each time it completes,
// stores the whole CB it received into the next slot; a restoring VIU
// (west/north) loads the next slot into its CB and then waits at its sync,
// until the producer pass's spills are used up. Both end when their partner
// SM's CTA exits (Fabric::finish). Every word moved is one off-chip access
// (element granularity: spu.cb_bytes / 4 per spill or restore).
struct VirtualIu {
  Unit* unit = nullptr;
  SpillChannel* channel = nullptr;  // spilling: where it spills; restoring: where it restores from
  uint32_t producer_pass = 0;  // the channel's producer pass along the boundary's axis (messages)
  size_t next = 0;         // restoring: the slot to load next
  bool started = false;    // it has arrived at least once
  bool blocked = false;    // restoring: waits for spill `next` to complete (scoreboard)
  uint64_t spills = 0;     // statistics: faces spilled
  uint64_t restores = 0;   // faces restored
  uint64_t last_addr = 0;  // global address of the last face moved
};

// The VIU of IU unit `u` (u.viu) in pass (px, py), with its slot channel.
VirtualIu make_virtual_iu(Unit& u, uint32_t px, uint32_t py, SpillSlots& spills);

// The VIU is released (or starts): moves its face between the CB and global
// memory (the data, at once) and returns the bytes moved (0: none), or ends
// it (Fabric::finish) when its work is done. Nothing to do (0) when it waits
// or has finished. A restore whose spill has not completed (channel's
// `completed` <= next, more to come) waits: it sets `blocked` and returns 0,
// to be called again when the channel progresses; with `scoreboard` false
// (spu.spill_scoreboard) it is Error(Fault) naming both VIUs' lane and passes
// instead (the order violation a machine without the scoreboard would make).
uint32_t viu_move(VirtualIu& v, Fabric& fabric, SpillSlots& spills, bool scoreboard = true);
// The spill started by the last viu_move has its data in global memory
// (the functional backend: at once; the timing backend: when its transfer ends).
inline void viu_spill_done(VirtualIu& v) { ++v.channel->completed; }
// After the move: the VIU arrives at its next synchronisation, or ends when
// its partner has exited meanwhile ($reglast). True when that completed a
// rendezvous or a barrier.
bool viu_sync(VirtualIu& v, Fabric& fabric);
// Whether the face moved by the last viu_move was a spill (to global memory).
inline bool viu_spills(const VirtualIu& v) { return !is_incoming(v.unit->iu_dir); }

}  // namespace simtlm::functional::spu
