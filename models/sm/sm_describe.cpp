// Sm::describe_stall(): what every resident warp waits on, for the platform's
// watchdog and deadlock reports.
#include <sstream>

#include "models/sm/sm.h"

namespace simtlm::models {

namespace {

std::string inst_text(const functional::LaunchContext& ctx, uint32_t pc) {
  const functional::DecodedInst& d = ctx.decoded(pc);
  if (d.inst == nullptr) return "pc " + std::to_string(pc) + " (end of kernel)";
  return "pc " + std::to_string(pc) + " line " + std::to_string(d.inst->loc.line) + " `" + d.inst->text + "`";
}

std::string reg_name(const functional::LaunchContext& ctx, uint32_t r) {
  const auto& regs = ctx.kernel().regs;
  return r < regs.size() ? regs[r].name : "r" + std::to_string(r);
}

}  // namespace

std::string Sm::describe_warp(uint32_t slot) const {
  const WarpState& w = warps_[slot];
  const CtaState& cs = ctas_[w.cta_slot];
  auto reg_set = WarpTable::reg_set;
  const functional::LaunchContext& ctx = *cs.ctx;
  std::ostringstream os;
  const functional::Dim3u id = cs.cta->id();
  os << "  warp slot " << slot << " (CTA " << cs.linear_id << " (" << id.x << "," << id.y << "," << id.z
     << "), warp " << w.warp_in_cta << ", scheduler " << w.scheduler << "): ";
  if (w.finished) {
    os << "finished, " << w.outstanding << " operation(s) in flight";
    return os.str();
  }
  if (cs.suspended) {
    os << "suspended with its CTA, " << w.outstanding << " operation(s) in flight";
    return os.str();
  }
  const functional::Warp& fw = *w.warp;
  if (fw.waiting()) {
    os << "waiting at barrier " << fw.barrier_id() << " (" << inst_text(ctx, fw.barrier_pc()) << ")";
    return os.str();
  }
  if (w.ib_count == 0 || w.ib_pc != fw.pc()) {
    if (w.fetch_inflight) {
      os << "fetch: instructions of " << inst_text(ctx, fw.pc()) << " arrive at cycle " << w.fetch_ready;
    } else {
      os << "fetch: waiting to fetch " << inst_text(ctx, fw.pc());
    }
    return os.str();
  }
  const InstTiming& info = cs.timing->at(w.ib_pc);
  os << "next " << inst_text(ctx, w.ib_pc) << ": ";
  auto pending = [&](uint32_t r) { return reg_set(w.pending, r); };
  for (unsigned i = 0; i < info.num_src + info.num_dst; ++i) {
    const uint32_t r = i < info.num_src ? info.src[i] : info.dst[i - info.num_src];
    if (!pending(r)) continue;
    os << "scoreboard: waits for register " << reg_name(ctx, r)
       << (reg_set(w.pending_long, r) ? " (memory load/atomic in flight, MSHR/memory)" : " (ALU result in flight)");
    return os.str();
  }
  switch (w.last_stall) {
    case sched::StallKind::Pipeline: os << "pipeline: " << to_string(info.unit) << " unit or collector busy"; break;
    case sched::StallKind::Memory:
      os << "memory: LD/ST unit busy, " << ldst_.backlog_size() << " transaction(s) waiting to be sent";
      break;
    case sched::StallKind::Throttled: os << "throttled by an issue gate (scheduling policy or resource lock)"; break;
    case sched::StallKind::WakeUp: os << "waiting for operand registers to wake up (register power states)"; break;
    default:
      os << "ready to issue (not chosen by the scheduler";
      if (warps_.parked(slot) != kIssued) os << "; parked as " << int(warps_.parked(slot));
      os << ")";
      break;
  }
  return os.str();
}

std::string Sm::describe_stall() const {
  std::ostringstream os;
  os << name() << " (SM " << p_.id << ") at cycle " << now_cycle_ << ": " << ctas_.resident_ctas()
     << " resident CTA(s), " << ctas_.resident_warps() << " unfinished warp(s), " << ldst_.backlog_size()
     << " LD/ST transaction(s) not sent, " << ldst_.in_flight() << " memory instruction(s) in flight";
  if (faulted_) os << ", stopped by a device fault";
  const std::string head = ldst_.describe();
  if (!head.empty()) os << "\n  " << head;
  if (const Cache* l1 = ldst_.l1d()) os << "\n  " << l1->describe_state();
  for (uint32_t i = 0; i < ctas_.size(); ++i) {
    const CtaState& cs = ctas_[i];
    if (cs.status != CtaState::Status::Active) continue;
    for (uint32_t ws : cs.warp_slots) os << "\n" << describe_warp(ws);
  }
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    const std::string d = policy_->describe(s);
    if (!d.empty()) os << "\n  scheduler " << s << ": " << d;
  }
  return os.str();
}

}  // namespace simtlm::models
