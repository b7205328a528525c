// Zero-delay deferral of TLM phase callbacks, shared by all AT ports.
//
// A port must not run its owner's reaction to an END_REQ or END_RESP inside
// the nb_transport call that carried it (the reaction may send the next
// transaction back into the caller). A peq_with_cb_and_phase with zero delay
// delivers such a phase in the next delta cycle, but it costs a kernel event,
// a trigger and a method-process activation per port and notification, which
// was about 4 % of a memory-bound run. DeferredCalls keeps the same timing
// (a call deferred in delta d runs in delta d + 1, in the order deferred) with
// one queue and one method process for the whole simulation: the kernel sees
// one event per delta that has deferrals.
//
// Used only for zero-delay phases; timed phases stay on the ports' PEQs
// (deliver_phase() below picks one or the other).
#pragma once

#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

namespace simtlm::models {

class DeferredCalls {
 public:
  using Callback = void (*)(void* owner, tlm::tlm_generic_payload& trans, tlm::tlm_phase phase);

  // The queue of the current simulation, created on first use (its method
  // process is spawned then, at elaboration or during the run). A map
  // lookup: callers on a hot path keep the reference (ports take it when
  // they are constructed).
  static DeferredCalls& instance();

  // Runs callback(owner, trans, phase) in the next delta cycle.
  void defer(Callback callback, void* owner, tlm::tlm_generic_payload& trans, tlm::tlm_phase phase) {
    if (queue_.empty()) wake_.notify(sc_core::SC_ZERO_TIME);
    queue_.push_back({callback, owner, &trans, phase});
  }

 private:
  struct Call {
    Callback callback;
    void* owner;
    tlm::tlm_generic_payload* trans;
    tlm::tlm_phase phase;
  };

  DeferredCalls();
  // The method process: runs the calls deferred in the previous delta; calls
  // deferred meanwhile go to a fresh queue and the next delta.
  void run();

  sc_core::sc_event wake_;
  std::vector<Call> queue_;
  std::vector<Call> running_;
};

// How an AT port delivers a phase to its own `Callback` after `delay`: a zero
// delay runs it in the next delta cycle through `deferred` (the port's
// DeferredCalls::instance()), a timed phase goes through the port's PEQ
// (which calls the same callback).
template <typename Port, void (Port::*Callback)(tlm::tlm_generic_payload&, const tlm::tlm_phase&)>
void deliver_phase(Port* port, DeferredCalls& deferred, tlm_utils::peq_with_cb_and_phase<Port>& peq,
                   tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay) {
  if (delay == sc_core::SC_ZERO_TIME) {
    deferred.defer(
        [](void* owner, tlm::tlm_generic_payload& t, tlm::tlm_phase p) { (static_cast<Port*>(owner)->*Callback)(t, p); },
        port, trans, phase);
  } else {
    peq.notify(trans, phase, delay);
  }
}

}  // namespace simtlm::models
