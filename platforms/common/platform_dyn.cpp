// Dynamic Warp Execution on the platform (see platform_dyn.h): every
// gpu.sm.regfile.sharing_dyn.window core cycles of a launch the controller
// compares each SM's stalls in the window with SM 0's and moves the SMs'
// probabilities; the per-SM gates apply them at issue.
#include <string>

#include "platforms/common/platform_dyn.h"
#include "simtlm/error.h"

namespace simtlm::platforms {

namespace {

// The thesis's pipeline stall cycles (models/regfile/dyn_warp_execution.h).
uint64_t stalls_of(models::Sm& sm) {
  const models::SmStats& s = sm.stats();
  return s.slot_pipeline + s.slot_memory;
}

}  // namespace

void Platform::build_dyn_warp_execution() {
  if (!cfg_.boolean("gpu.sm.regfile.sharing_dyn.enabled")) return;
  dyn_ = std::make_unique<DynWarp>(num_sms(), cfg_.f64("gpu.sm.regfile.sharing_dyn.step"),
                                   cfg_.u64("gpu.sm.regfile.sharing_dyn.window"));
  for (auto& sm : sms_) {
    auto* registers = dynamic_cast<models::regfile::SharingAllocator*>(&sm->register_allocator());
    if (registers == nullptr) {
      throw Error(ErrorKind::Config, "gpu.sm.regfile.sharing_dyn.enabled needs gpu.sm.regfile.alloc_policy = sharing (" +
                                         std::string(sm->name()) + " has '" + sm->register_allocator().name() + "')");
    }
    dyn_->gates.push_back(std::make_unique<models::regfile::DynWarpGate>(dyn_->controller, sm->id(), *registers));
    sm->add_issue_gate(*dyn_->gates.back());
  }
}

void Platform::begin_dyn_launch() {
  dyn_->controller.reset();
  for (auto& gate : dyn_->gates) gate->reset_credit();
  dyn_->window_start.clear();
  for (auto& sm : sms_) dyn_->window_start.push_back(stalls_of(*sm));
  dyn_->window_start_instructions = warp_instructions_now();
  dyn_ev_.notify(core_clock_.period() * static_cast<double>(dyn_->window));
}

void Platform::dyn_method() {
  if (!running_ || error_) return;
  std::vector<uint64_t> stalls;
  for (unsigned i = 0; i < num_sms(); ++i) {
    const uint64_t now = stalls_of(*sms_[i]);
    stalls.push_back(now - dyn_->window_start[i]);
    dyn_->window_start[i] = now;
  }
  dyn_->controller.end_window(stalls);
  // A window in which no SM issued anything, with the watchdog off, is not
  // followed by another: nothing would change, and a launch that cannot move
  // must still end by starvation as without the mechanism.
  const uint64_t instructions = warp_instructions_now();
  const bool moved = instructions != dyn_->window_start_instructions;
  dyn_->window_start_instructions = instructions;
  if (moved || limits_.watchdog_cycles != 0) dyn_ev_.notify(core_clock_.period() * static_cast<double>(dyn_->window));
}

}  // namespace simtlm::platforms
