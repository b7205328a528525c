// Warp-scheduling policies. One Policy object serves all schedulers of an SM
// (so SM-wide policies such as static warp limiting can see every warp); each
// cycle the SM asks it, per scheduler, for that scheduler's warps in priority
// order, and issues the first one that is ready. A policy can also veto
// instruction classes per warp (e.g. CCWS blocks the loads of throttled
// warps). It learns about the SM only through the events below: schedulers
// never reach into SM internals.
//
// Warps are identified by their SM-wide warp slot. A warp belongs to
// scheduler (slot mod schedulers). Its age is its launch order on the SM
// (smaller = older; warps of one CTA get consecutive ages in warp order).
//
// Policies (gpu.sm.scheduler.policy):
//   lrr        loose round-robin: warps in slot order, starting after the
//              warp that issued last.
//   gto        greedy-then-oldest: the warp that issued last first, then the
//              others oldest first.
//   swl        static warp limiting (Rogers §3.2.2): only the warp_limit
//              oldest warps of the SM are offered (plus, while one of them
//              waits at a barrier, the rest of its CTA), in GTO order.
//   ccws       cache-conscious warp scheduling (Rogers §3.2.3): GTO order;
//              loads through the L1D of warps with low lost-locality
//              scores are vetoed (models/sched/ccws.h).
//   daws       divergence-aware warp scheduling (Rogers §4.2): GTO order;
//              loads through the L1D of warps whose predicted loop
//              footprints, summed oldest first, pass 0.6 x the L1D's lines
//              are vetoed (models/sched/daws.h).
//   two_level  Narasiman's two-level scheduler: per scheduler an active set of
//              at most active_set_size warps (filled in age order at launch);
//              only active warps are offered. An active warp that stalls on a
//              long-latency result (global/local load, atomic) or waits at a
//              barrier is demoted to the tail of the pending queue and the
//              pending warp chosen by the outer policy (lrr: head of the queue;
//              gto: oldest) takes its place. Inside the active set the inner
//              policy (lrr or gto) orders the warps.
// The issue orders these definitions imply are worked out in docs/sm-model.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "functional/warp.h"
#include "models/cache/cache.h"
#include "models/common/factory_registry.h"
#include "simtlm/stats.h"

namespace simtlm::ir {
struct Function;
}

namespace simtlm::models::sched {

// Why a warp offered by the policy could not issue.
enum class StallKind : uint8_t {
  Fetch,        // instruction buffer empty (fetch/icache/branch redirect)
  Barrier,      // waiting at a barrier
  Scoreboard,   // operand/destination written by a short-latency instruction in flight
  LongLatency,  // operand/destination waiting for a memory response (load/atomic)
  Pipeline,     // execution unit or operand collector busy
  Memory,       // LD/ST unit busy or back-pressured by the memory system
  Throttled,    // vetoed by the policy or blocked by an allocator (sharing lock)
  WakeUp,       // an operand register is waking from a low-power state (GREENER, Sleep-Reg)
};
const char* to_string(StallKind kind);

enum class BarrierEvent : uint8_t { Arrive, Release };

struct WarpInfo {
  uint32_t slot = 0;        // SM-wide warp slot
  uint32_t scheduler = 0;   // slot mod schedulers
  uint64_t age = 0;         // launch order on the SM (smaller = older)
  uint32_t cta_slot = 0;
  uint64_t cta_id = 0;      // linear CTA id in its launch
  uint32_t warp_in_cta = 0;
};

// The class of a CTA's warps under resource sharing (Jatala §2.5): warps of
// the CTA of a pair that holds (or may take) the shared resource, warps of
// unpaired CTAs, and warps of the CTA that waits for its partner. A sharing
// allocator answers it (Allocator::sharing_classifier); OWF orders by it.
enum class SharingClass : uint8_t { Owner = 0, Unshared = 1, NonOwner = 2 };
const char* to_string(SharingClass c);

class SharingClassifier {
 public:
  virtual ~SharingClassifier() = default;
  virtual SharingClass sharing_class(uint32_t cta_slot) const = 0;
  // True when the CTA in `holder` holds a lock of this kind of sharing on a
  // pair it forms with the CTA in `partner` (register and scratchpad sharing
  // both on: a CTA does not take a lock of one kind against a partner that
  // holds one of the other kind on the same pair).
  virtual bool holds_lock_against(uint32_t holder, uint32_t partner) const = 0;
};

// What the SM knows of a warp without examining it: two_level asks about
// the pending warps it may promote, which are not offered for issue and so
// report no stalls.
class WarpWaitProbe {
 public:
  virtual ~WarpWaitProbe() = default;
  // True while the warp waits at a barrier, or waited for a memory result
  // when last examined and none of its writebacks has landed since.
  virtual bool waits(uint32_t slot) const = 0;
};

struct PolicyParams {
  std::string name = "gto";        // lrr | gto | two_level
  uint32_t schedulers = 1;
  uint32_t max_warps = 48;         // warp slots of the SM
  uint32_t active_set_size = 8;    // two_level
  std::string inner_policy = "lrr";  // two_level: lrr | gto
  std::string outer_policy = "lrr";  // two_level: lrr | gto
  uint32_t warp_limit = 0;         // swl: warps actively scheduled per SM
  // ccws (models/sched/ccws.h): lost-locality scoring and victim tags.
  double k_throttle = 8.0;
  uint32_t base_score = 100;
  uint32_t vta_entries_per_warp = 16;
  uint32_t vta_ways = 8;
  uint32_t line_bytes = 128;       // L1D line size (victim tags hold line addresses)
  uint64_t l1d_lines = 0;          // L1D sets x ways (storage of the owner-warp tags)
  uint32_t warp_size = 32;
  // daws (models/sched/daws.h); the victim tags are ccws's.
  std::string daws_mode = "detected";  // detected | profiled
  double daws_assoc_factor = 0.6;
  bool daws_lane_aware = true;
  std::string daws_profile;            // profiled: the profile file
  uint32_t daws_ilrd_entries = 64;
  uint32_t daws_ilrd_ways = 8;
};

// One issued instruction in detail (Policy::on_issue_detail).
struct IssueDetail {
  uint64_t cycle = 0;
  uint32_t slot = 0;
  const functional::ExecRecord* rec = nullptr;  // pc, lane masks, addresses, next pc
  const ir::Function* kernel = nullptr;         // the kernel the warp runs (its kept analyses)
  bool l1d_load = false;                        // a load whose lanes may go through the L1D
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual const char* name() const = 0;

  // A warp starts (CTA launch) / leaves (it finished).
  virtual void warp_added(const WarpInfo& warp) = 0;
  virtual void warp_removed(uint32_t slot) = 0;

  // Warps of `scheduler` in priority order for `cycle` (only warps the policy
  // wants offered). The list is the policy's own buffer, valid until the next
  // order() call; event calls made while the SM walks it must not change it
  // (keep the working state apart and rebuild the list in order()).
  virtual const std::vector<uint32_t>& order(unsigned scheduler, uint64_t cycle) = 0;

  // False vetoes instruction class `cls` for warp `slot` this cycle.
  virtual bool allows(uint32_t slot, functional::ExecClass cls) const {
    (void)slot;
    (void)cls;
    return true;
  }

  // Asked in addition to allows() for a load whose lanes may go through
  // the L1D (global, local or generic space, not ld.cg): CCWS throttles
  // only these. Same vetoes_issue() rule as allows().
  virtual bool allows_l1d_load(uint32_t slot) const {
    (void)slot;
    return true;
  }

  // True when allows() can ever return false (a policy that overrides
  // allows must also override this). When false the SM skips the call and
  // may park warps stalled on memory (models/sm/sm.h).
  virtual bool vetoes_issue() const { return false; }
  // True when order() depends only on state changed by the event calls
  // (warp_added/removed, on_issue, on_barrier, on_cta_launch/exit), never on
  // the cycle or on cache events. The SM then skips re-scanning a scheduler
  // whose warps are all parked (models/sm/sm.h, ScanMemo). The default is the
  // safe answer for a policy that does not say.
  virtual bool order_changes_only_on_events() const { return false; }
  // Events.
  virtual void on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) {
    (void)slot, (void)scheduler, (void)cls, (void)cycle;
  }
  // The issued instruction in detail, after on_issue, only to policies
  // whose wants_issue_details() is true (asked once at construction).
  virtual bool wants_issue_details() const { return false; }
  virtual void on_issue_detail(const IssueDetail& detail) { (void)detail; }
  // An offered warp could not issue (reported for every warp the SM examined,
  // only to policies whose wants_stall_events() is true: it is a hot path).
  virtual bool wants_stall_events() const { return false; }
  virtual void on_stall(uint32_t slot, StallKind kind, uint64_t cycle) { (void)slot, (void)kind, (void)cycle; }
  // A number that changes whenever a stall event changed the policy's order
  // (e.g. two_level swapped a stalled warp for a pending one). After a scan
  // that issued nothing, a change makes the SM scan again in the next cycle:
  // otherwise an SM whose examined warps were all parked would sleep while
  // the warps the policy now offers are ready.
  virtual uint64_t stall_order_version() const { return 0; }
  virtual void on_barrier(uint32_t slot, BarrierEvent event, uint64_t cycle) { (void)slot, (void)event, (void)cycle; }
  // L1D events of accesses made by this SM (hit/miss/merge/fill/evict), only
  // to policies whose wants_cache_events() is true (the SM does not observe
  // its L1D otherwise: every access would build an event for nobody).
  virtual bool wants_cache_events() const { return false; }
  virtual void on_cache_event(const CacheEvent& event) { (void)event; }
  virtual void on_cta_launch(uint32_t cta_slot, uint64_t cta_id, uint64_t cycle) {
    (void)cta_slot, (void)cta_id, (void)cycle;
  }
  virtual void on_cta_exit(uint32_t cta_slot, uint64_t cta_id, uint64_t cycle) {
    (void)cta_slot, (void)cta_id, (void)cycle;
  }

  // Adds the policy's own counters under the SM's group.
  virtual void register_stats(const stats::Group& group) { (void)group; }

  // The SM hands the sharing allocator's classification of CTAs to the
  // policy at construction (nullptr: no sharing allocator configured; every
  // warp is then unshared). Only OWF uses it.
  virtual void set_sharing_classifier(const SharingClassifier* classifier) { (void)classifier; }
  // The SM hands its warp-wait probe at construction. Only two_level uses it.
  virtual void set_wait_probe(const WarpWaitProbe* probe) { (void)probe; }

  // One line of policy state for stall reports ("" when nothing to say).
  virtual std::string describe(unsigned scheduler) const {
    (void)scheduler;
    return "";
  }
};

// Policies by the name that selects them (gpu.sm.scheduler.policy); lrr, gto
// and two_level are built in. A mechanism adds its policy here
// (policies().add(name, factory)).
using PolicyRegistry = FactoryRegistry<Policy, PolicyParams>;
PolicyRegistry& policies();

// The policy named by params.name. Throws Error(Config) naming the key when
// it is unknown or not implemented yet.
std::unique_ptr<Policy> make_policy(const PolicyParams& params);

}  // namespace simtlm::models::sched
