// Initiator side of the TLM-2.0 AT base protocol for one socket, shared by
// every memory-side module and by the testbench traffic generators.
//
// send_request() issues BEGIN_REQ; until END_REQ (explicit, implied by an
// early BEGIN_RESP, or returned as TLM_UPDATED/TLM_COMPLETED) request_ready()
// is false and the owner must not send another request on this socket.
// Listener::on_request_accepted() reports a deferred END_REQ.
//
// Responses (BEGIN_RESP) are offered to Listener::on_response(): returning
// true ends the response (END_RESP) at once, false holds it (the target
// cannot send another response meanwhile) until the owner calls
// accept_response(). Holding is how a module applies back-pressure to the
// responses it receives.
//
// An untimed BEGIN_RESP (zero annotated delay, what every simtlm module
// sends) is offered inside the nb_transport call and, when taken, ended on
// the return path (TLM_COMPLETED): no PEQ round trip, same simulation time.
// Timed phases go through a peq_with_cb_and_phase; a deferred END_REQ (it
// comes from inside the target's accept_request(), and the owner's reaction,
// sending the next request, must not re-enter it) runs in the next delta
// cycle through DeferredCalls.
//
// The port is the socket's backward interface itself (no
// simple_initiator_socket callback layer in between: one indirect call less
// per phase); DMI invalidations are ignored (DMI is never used).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

namespace simtlm::models {

class DeferredCalls;

class AtInitiatorPort final : private tlm::tlm_bw_transport_if<> {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    // END_REQ for the request in flight arrived (the socket is free again).
    virtual void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) {
      (void)port;
      (void)trans;
    }
    // A response arrived (at the current simulation time). Return true to
    // take it now, false to hold it until accept_response(). The payload stays
    // valid during the call even if the owner releases it.
    virtual bool on_response(unsigned port, tlm::tlm_generic_payload& trans) = 0;
  };

  using socket_type = tlm::tlm_initiator_socket<32>;

 private:
  // Read on every phase: kept first, in the cache line of the vtable
  // pointer (the socket and the PEQ are large objects).
  Listener& listener_;
  DeferredCalls* deferred_ = nullptr;  // this simulation's queue of zero-delay phases
  tlm::tlm_generic_payload* req_in_flight_ = nullptr;  // BEGIN_REQ sent, END_REQ pending
  tlm::tlm_generic_payload* held_ = nullptr;           // BEGIN_RESP refused by the listener
  unsigned index_;

 public:
  // Must be constructed while the owning module is being elaborated.
  AtInitiatorPort(const std::string& socket_name, Listener& listener, unsigned index = 0);
  AtInitiatorPort(const AtInitiatorPort&) = delete;
  AtInitiatorPort& operator=(const AtInitiatorPort&) = delete;

  socket_type socket;

  unsigned index() const { return index_; }

  bool request_ready() const { return req_in_flight_ == nullptr; }
  // Sends BEGIN_REQ now (requires request_ready()).
  void send_request(tlm::tlm_generic_payload& trans);

  tlm::tlm_generic_payload* held_response() const { return held_; }
  // Ends the held response now (END_RESP). Read held_response() first: the
  // payload may return to its pool here.
  void accept_response();

 private:
  // tlm_bw_transport_if.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  void peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);
  // Delivers `phase` to peq_callback() after `delay` (zero: next delta).
  void schedule(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay);
  void request_accepted(tlm::tlm_generic_payload& trans);
  // Offers a response to the listener: true = taken (end it), false = held.
  bool offer_response(tlm::tlm_generic_payload& trans);
  // Sends END_RESP (unless the target completed the transaction itself).
  void end_response(tlm::tlm_generic_payload& trans);
  void protocol_error(const char* what) const;

  tlm_utils::peq_with_cb_and_phase<AtInitiatorPort> peq_;
  // Transactions the target completed with TLM_COMPLETED: their response is
  // delivered through the PEQ but needs no END_RESP.
  std::vector<tlm::tlm_generic_payload*> completed_;
};

}  // namespace simtlm::models
