// Life events of an SM's warps and CTAs, published to any number of
// subscribers (allocators, power accounting, statistics, traces, tests).
// A subscriber overrides the calls it cares about; the SM pays for an event
// kind only while someone is subscribed (it tests one flag per site).
//
// Warp events, in the order a warp sees them:
//   on_warp_launch     the warp's CTA became active on the SM (slot assigned)
//   on_warp_issue      an instruction issued (after its functional execution)
//   on_operand_read    its source operands were read from the register banks
//   on_writeback       a result was written back (ALU writeback, or the last
//                      piece of a memory instruction with a destination)
//   on_warp_barrier    the warp arrived at a barrier / was released from it
//   on_warp_finish     the warp executed its exit (its operations may still be
//                      in flight; the CTA completes when they are done)
// CTA events:
//   on_cta_admit       resources reserved (Sm::launch_cta)
//   on_cta_activate    its warps became resident (the next clock edge)
//   on_cta_suspend     its warps stopped being offered to the schedulers
//   on_cta_resume      they are offered again
//   on_cta_exit        every warp finished and every operation returned
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "functional/warp.h"
#include "models/sched/policy.h"

namespace simtlm::models {

struct InstTiming;

// One issued instruction.
struct IssueRecord {
  uint64_t cycle = 0;
  uint32_t scheduler = 0;
  uint32_t warp_slot = 0;
  uint64_t cta_id = 0;
  uint32_t warp_in_cta = 0;
  uint32_t pc = 0;
  functional::ExecClass cls = functional::ExecClass::Nop;
  // The functional record (lane masks, per-lane addresses of a memory
  // instruction); valid during the call only.
  const functional::ExecRecord* exec = nullptr;
};

struct WarpEvent {
  uint64_t cycle = 0;
  uint32_t warp_slot = 0;
  uint32_t cta_slot = 0;
  uint64_t cta_id = 0;
  uint32_t warp_in_cta = 0;
};

// Registers of one instruction touched at the register file.
struct RegisterAccess {
  uint64_t cycle = 0;             // cycle of the access (reads: issue; writes: writeback)
  uint32_t warp_slot = 0;
  const InstTiming* inst = nullptr;  // register lists (src / dst) of the instruction
};

struct CtaEvent {
  uint64_t cycle = 0;
  uint32_t cta_slot = 0;
  uint64_t cta_id = 0;
  uint32_t warps = 0;
};

class SmObserver {
 public:
  virtual ~SmObserver() = default;
  virtual void on_warp_launch(const WarpEvent& e) { (void)e; }
  virtual void on_warp_issue(const IssueRecord& r) { (void)r; }
  virtual void on_operand_read(const RegisterAccess& a) { (void)a; }
  virtual void on_writeback(const RegisterAccess& a) { (void)a; }
  virtual void on_warp_barrier(const WarpEvent& e, sched::BarrierEvent kind) { (void)e, (void)kind; }
  virtual void on_warp_finish(const WarpEvent& e) { (void)e; }
  virtual void on_cta_admit(const CtaEvent& e) { (void)e; }
  virtual void on_cta_activate(const CtaEvent& e) { (void)e; }
  virtual void on_cta_suspend(const CtaEvent& e) { (void)e; }
  virtual void on_cta_resume(const CtaEvent& e) { (void)e; }
  virtual void on_cta_exit(const CtaEvent& e) { (void)e; }
};

// The subscriber list. Subscribers are not owned and must outlive the SM or
// unsubscribe first. Publishing is in subscription order.
class SmEventBus {
 public:
  void subscribe(SmObserver& o) { subs_.push_back(&o); }
  void unsubscribe(SmObserver& o) { subs_.erase(std::remove(subs_.begin(), subs_.end(), &o), subs_.end()); }
  bool empty() const { return subs_.empty(); }

  template <typename Call>
  void publish(Call&& call) const {
    for (SmObserver* o : subs_) call(*o);
  }

 private:
  std::vector<SmObserver*> subs_;
};

}  // namespace simtlm::models
