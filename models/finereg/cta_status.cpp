#include "models/finereg/cta_status.h"

#include <string>

#include "simtlm/error.h"

namespace simtlm::models::finereg {

const char* to_string(CtaSwitchState s) {
  switch (s) {
    case CtaSwitchState::Free: return "FREE(0,0)";
    case CtaSwitchState::Active: return "ACTIVE(2,2)";
    case CtaSwitchState::PendAcrf: return "PEND_ACRF(1,2)";
    case CtaSwitchState::PendPcrf: return "PEND_PCRF(1,1)";
  }
  return "?";
}

CtaStatusMonitor::CtaStatusMonitor(uint32_t slots)
    : ctx_(slots, Where::None), reg_(slots, Where::None), pending_since_(slots, 0) {}

CtaSwitchState CtaStatusMonitor::state(uint32_t slot) const {
  const Where c = ctx_.at(slot);
  const Where r = reg_.at(slot);
  if (c == Where::None && r == Where::None) return CtaSwitchState::Free;
  if (c == Where::InPlace && r == Where::InPlace) return CtaSwitchState::Active;
  if (c == Where::Stored && r == Where::InPlace) return CtaSwitchState::PendAcrf;
  if (c == Where::Stored && r == Where::Stored) return CtaSwitchState::PendPcrf;
  throw Error(ErrorKind::Internal, "FineReg CTA status monitor: slot " + std::to_string(slot) + " is in (" +
                                       std::to_string(int(c)) + "," + std::to_string(int(r)) +
                                       (c == Where::InPlace && r == Where::Stored
                                            ? "), the illegal state: context in the pipeline, registers in the PCRF"
                                            : "), which no transition produces"));
}

void CtaStatusMonitor::expect(uint32_t slot, CtaSwitchState want, const char* transition) const {
  const CtaSwitchState s = state(slot);
  if (s != want) {
    throw Error(ErrorKind::Internal, std::string("FineReg CTA status monitor: ") + transition + " of slot " +
                                         std::to_string(slot) + " in " + to_string(s) + " (needs " +
                                         to_string(want) + ")");
  }
}

void CtaStatusMonitor::set(uint32_t slot, Where ctx, Where reg) {
  ctx_[slot] = ctx;
  reg_[slot] = reg;
  (void)state(slot);  // asserts the result is a legal encoding, never (2,1)
}

void CtaStatusMonitor::launch(uint32_t slot) {
  expect(slot, CtaSwitchState::Free, "launch");
  set(slot, Where::InPlace, Where::InPlace);
}

void CtaStatusMonitor::launch_pending(uint32_t slot) {
  expect(slot, CtaSwitchState::Free, "launch_pending");
  set(slot, Where::Stored, Where::InPlace);
  pending_since_[slot] = order_++;
}

void CtaStatusMonitor::context_out(uint32_t slot) {
  expect(slot, CtaSwitchState::Active, "context_out");
  set(slot, Where::Stored, Where::InPlace);
  pending_since_[slot] = order_++;
}

void CtaStatusMonitor::regs_out(uint32_t slot) {
  expect(slot, CtaSwitchState::PendAcrf, "regs_out");
  set(slot, Where::Stored, Where::Stored);
}

void CtaStatusMonitor::regs_in(uint32_t slot) {
  expect(slot, CtaSwitchState::PendPcrf, "regs_in");
  set(slot, Where::Stored, Where::InPlace);
}

void CtaStatusMonitor::context_in(uint32_t slot) {
  expect(slot, CtaSwitchState::PendAcrf, "context_in");
  set(slot, Where::InPlace, Where::InPlace);
}

void CtaStatusMonitor::finish(uint32_t slot) {
  expect(slot, CtaSwitchState::Active, "finish");
  set(slot, Where::None, Where::None);
}

uint32_t CtaStatusMonitor::select_ready(const std::function<bool(uint32_t)>& ready) const {
  uint32_t best = kNoCta;
  int best_class = 2;
  for (uint32_t s = 0; s < slots(); ++s) {
    const CtaSwitchState st = state(s);
    const int cls = st == CtaSwitchState::PendAcrf ? 0 : st == CtaSwitchState::PendPcrf ? 1 : 2;
    if (cls == 2 || !ready(s)) continue;
    if (cls < best_class || (cls == best_class && pending_since_[s] < pending_since_[best])) {
      best = s;
      best_class = cls;
    }
  }
  return best;
}

uint32_t CtaStatusMonitor::count(CtaSwitchState st) const {
  uint32_t n = 0;
  for (uint32_t s = 0; s < slots(); ++s) n += state(s) == st;
  return n;
}

}  // namespace simtlm::models::finereg
