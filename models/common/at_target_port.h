// Target side of the TLM-2.0 AT base protocol (BEGIN_REQ/END_REQ/BEGIN_RESP/
// END_RESP) for one socket, shared by every memory-side module.
//
// Requests: the owner's Listener::on_request() decides at the request's
// annotated time (an untimed BEGIN_REQ inside the nb_transport call, a timed
// one from a peq_with_cb_and_phase). Accepting sends END_REQ at once (on the
// return path for an untimed request); refusing holds the request (the
// initiator may not send another until END_REQ), and the owner calls
// accept_request() when it has room. Holding is how every queue applies
// back-pressure; nothing is dropped. END_RESP is always deferred (the
// owner's reaction must not re-enter the initiator's call): timed through
// a peq_with_cb_and_phase, untimed to the next delta cycle (DeferredCalls).
//
// Responses: send_response() issues BEGIN_RESP; until the initiator ends the
// response (TLM_COMPLETED, TLM_UPDATED/END_RESP or a later END_RESP),
// response_ready() is false and the owner keeps further responses queued.
// Listener::on_response_done() reports a deferred END_RESP.
//
// Payloads with a memory manager are acquired while the port holds them.
//
// The port is the socket's forward interface itself (no simple_target_socket
// callback layer in between: one indirect call less per phase). Blocking,
// debug and DMI calls are not part of the AT model: b_transport is a
// protocol error, transport_dbg transfers nothing, DMI is never granted.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

namespace simtlm::models {

class DeferredCalls;

class AtTargetPort final : private tlm::tlm_fw_transport_if<> {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    // A request reached the target (at the current simulation time). Return
    // true to accept it now (END_REQ is sent), false to hold it.
    virtual bool on_request(unsigned port, tlm::tlm_generic_payload& trans) = 0;
    // A response that was waiting for END_RESP has been ended: the port is
    // free for the next BEGIN_RESP.
    virtual void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) {
      (void)port;
      (void)trans;
    }
  };

  using socket_type = tlm::tlm_target_socket<32>;

 private:
  // Read on every phase: kept first, in the cache line of the vtable
  // pointer (the socket and the PEQ are large objects).
  Listener& listener_;
  DeferredCalls* deferred_ = nullptr;  // this simulation's queue of zero-delay phases
  tlm::tlm_generic_payload* req_open_ = nullptr;        // BEGIN_REQ seen, END_REQ not sent
  tlm::tlm_generic_payload* held_ = nullptr;            // refused by the listener
  tlm::tlm_generic_payload* resp_in_flight_ = nullptr;  // BEGIN_RESP sent, END_RESP pending
  unsigned index_;

 public:
  // Must be constructed while the owning module is being elaborated.
  AtTargetPort(const std::string& socket_name, Listener& listener, unsigned index = 0);
  AtTargetPort(const AtTargetPort&) = delete;
  AtTargetPort& operator=(const AtTargetPort&) = delete;

  socket_type socket;

  unsigned index() const { return index_; }

  // Held request (refused by on_request), or nullptr.
  tlm::tlm_generic_payload* held_request() const { return held_; }
  // Sends END_REQ for the held request now and returns it.
  tlm::tlm_generic_payload& accept_request();

  // No BEGIN_RESP is waiting for its END_RESP.
  bool response_ready() const { return resp_in_flight_ == nullptr; }
  // Sends BEGIN_RESP now (requires response_ready()). Sets TLM_OK_RESPONSE
  // if the status is still INCOMPLETE.
  void send_response(tlm::tlm_generic_payload& trans);

  uint64_t requests_held() const { return requests_held_; }  // times END_REQ was delayed

 private:
  // tlm_fw_transport_if.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;

  void peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
  // Delivers `phase` to peq_callback() after `delay` (zero: next delta).
  void schedule(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay);
  void send_end_req(tlm::tlm_generic_payload& trans);
  void response_finished(tlm::tlm_generic_payload& trans, bool notify_listener);
  void protocol_error(const char* what) const;

  tlm_utils::peq_with_cb_and_phase<AtTargetPort> peq_;
  uint64_t requests_held_ = 0;
};

}  // namespace simtlm::models
