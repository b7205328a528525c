// The functional state of a Stencil Processing Unit launch (Rajasree, seed
// note 003 §1.2-§1.6; docs/spu.md): the units (the launch's CTAs on a grid of
// SMs, and the interface units around it), the directed links between
// neighbours with their pair of communication buffers (CBs), and the
// bar.blocksync rendezvous that swaps them.
//
// Geometry of a gx x gy launch (one pass): SM (x, y) holds CTA (x, y); the
// north IUs sit at (x, -1), the south IUs at (x, gy), the west IUs at (-1, y)
// and the east IUs at (gx, y). Data moves west->east and north->south only:
// link v(x, y) joins (x, y-1) to (x, y) for 0 <= y <= gy, link h(x, y) joins
// (x-1, y) to (x, y) for 0 <= x <= gx; 2*gx*gy + gx + gy links, 2p(p+1) on a
// full p x p grid as the note derives.
//
// Ping-pong (note §1.3, Fig 2.3): a link holds two buffers; its producer
// stores into buf[wsel] and its consumer loads from buf[wsel ^ 1]; a swap
// flips wsel, so what the producer wrote before the rendezvous is what the
// consumer reads after it. Buffers keep their contents across swaps.
//
// Rendezvous (note §1.6). bar.blocksync is CTA-wide: a unit arrives when every
// unfinished warp of its CTA waits at the same bar.blocksync (warps arrive
// with all their live threads, as for bar.sync). Global: complete when every
// unfinished unit (SMs and IUs) has arrived; then every link swaps. Directed:
// .south/.east by the producer and .north/.west by the consumer of one link;
// complete when both ends have arrived; then that link swaps (slack of one
// face). A unit that has finished no longer takes part in global barriers;
// a directed rendezvous whose partner finished never completes (deadlock,
// reported with the waiting units and their partners).
//
// Multi-pass launches (note §1.7; functional/spu/spu_launch.cpp) build one
// Fabric per pass, of the pass's w x h CTAs. An IU that acts as a virtual IU
// (Unit::viu) runs the runtime's spill/restore code (Alg. 2) instead of the
// kernel: it has no CTA, the launch driver makes it arrive (arrive()), and
// it withdraws (finishes) when its partner SM finishes (reglast, note §7.15).
// It waits at the global barrier and its link's rendezvous at once
// (arrive_virtual), so it follows the kernel's synchronisation scheme.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtlm::functional {
class Cta;
class LaunchContext;
}  // namespace simtlm::functional

namespace simtlm::functional::spu {

// In the thesis's order, which is also spu.sreg's `iudir` encoding.
enum class Dir : uint8_t { North = 0, West = 1, South = 2, East = 3 };
const char* dir_name(Dir dir);  // "north"
inline bool is_incoming(Dir d) { return d == Dir::North || d == Dir::West; }

enum class SyncKind : uint8_t { None, Global, North, West, South, East };
const char* sync_name(SyncKind kind);  // "bar.blocksync", "bar.blocksync.north"
inline Dir sync_dir(SyncKind k) { return static_cast<Dir>(static_cast<uint8_t>(k) - 2); }

class Fabric;

struct Unit {
  Fabric* fabric = nullptr;
  bool is_iu = false;
  Dir iu_dir = Dir::North;          // IU: its side of the grid
  uint32_t lane = 0;                // IU: its column (north/south) or row (west/east)
  int32_t x = 0, y = 0;             // position (see the file comment)
  int32_t link[4] = {-1, -1, -1, -1};  // by Dir: north/west incoming, south/east outgoing
  uint32_t pass_x = 0, pass_y = 0;  // the pass the unit runs (single-pass launches: 0)
  uint32_t npass_x = 1, npass_y = 1;  // passes of the launch along x and y
  bool viu = false;                 // IU acting as a virtual IU: runtime code, no CTA
  bool dma = false;                 // a DMA IU (spu.iu.kind = dma): an FSM, no CTA
  bool viu_at_global = false;       // VIU: also counted at the pending global barrier
  bool partner_done = false;        // VIU: its partner's CTA exited ($reglast)
  int32_t host_sm = -1;             // IU on an SM of the grid (x or y = p is outside: -1)
  std::string name;                 // "SM (1,2)", "IU west 1"
  Cta* cta = nullptr;
  SyncKind warp_kind = SyncKind::None;  // bar.blocksync the unit's warps are arriving at
  uint32_t warp_line = 0;               // its PTX line (first warp to arrive)
  SyncKind waiting = SyncKind::None;    // the unit as a whole waits at this rendezvous
  bool finished = false;
};

struct Link {
  int32_t producer = -1, consumer = -1;  // unit indices
  std::vector<uint8_t> data;             // both buffers, cb_bytes each
  uint8_t wsel = 0;                      // the producer's buffer
  bool producer_waiting = false, consumer_waiting = false;
  uint64_t swaps = 0;
};

class Fabric {
 public:
  // Units: the gx x gy SMs (x fastest), then the IUs north (by x), west (by
  // y), south (by x), east (by y).
  Fabric(uint32_t gx, uint32_t gy, uint32_t cb_bytes);
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  std::vector<Unit>& units() { return units_; }
  const std::vector<Unit>& units() const { return units_; }
  const std::vector<Link>& links() const { return links_; }
  uint32_t cb_bytes() const { return cb_bytes_; }
  uint32_t grid_x() const { return gx_; }
  uint32_t grid_y() const { return gy_; }
  uint32_t unfinished() const { return unfinished_; }

  // The CB `unit` accesses in `dir`: the consumer buffer of its incoming
  // north/west link, the producer buffer of its outgoing south/east link;
  // nullptr when it has no link there.
  uint8_t* buffer(const Unit& unit, Dir dir);

  // Once every unfinished warp of `unit` waits at its bar.blocksync, the unit
  // arrives at the rendezvous. Returns true when that completed it (units
  // were released).
  bool poll(Unit& unit);
  // A virtual IU (no warps) arrives at whichever synchronisation its
  // partner uses next: its link's directed rendezvous and the global barrier
  // both count it, and the first to complete releases it (the other forgets
  // it). So VIUs follow the kernel's scheme, even one chosen at run time.
  // True when that completed a rendezvous.
  bool arrive_virtual(Unit& unit);
  // A unit without warps that follows one scheme (a DMA IU) arrives at `kind`.
  // True when that completed a rendezvous or the global barrier.
  bool arrive_engine(Unit& unit, SyncKind kind) { return arrive(unit, kind); }
  // The unit's CTA has finished. Returns true when a global barrier completed.
  bool finish(Unit& unit);

  // One line per unfinished unit: what it waits for (deadlock reports).
  std::string describe_waiting(const LaunchContext& ctx) const;

 private:
  void add_unit(bool is_iu, Dir dir, uint32_t lane, int32_t x, int32_t y);
  int32_t unit_at(int32_t x, int32_t y) const;  // -1: no unit there
  void add_link(int32_t producer, int32_t consumer, Dir out, Dir in);
  bool arrive(Unit& unit, SyncKind kind);
  bool try_global();
  void release(Unit& unit);
  void withdraw_virtual_partners(const Unit& unit);

  uint32_t gx_, gy_, cb_bytes_;
  std::vector<Unit> units_;
  std::vector<Link> links_;
  uint32_t unfinished_ = 0;
  uint32_t at_global_ = 0;
};

}  // namespace simtlm::functional::spu
