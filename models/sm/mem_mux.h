// Zero-latency N:1 merge of AT initiators onto one socket, used inside the SM
// to join the L1D's downstream port and the LD/ST unit's L1-bypass port
// (atomics, uncached global loads) into the SM's single memory socket.
//
//   target_socket(i)  <- L1D initiator socket (0), LD/ST bypass port (1)
//   initiator_socket  -> interconnect
//
// A request is forwarded in the delta cycle it arrives when the downstream
// socket is free; otherwise its END_REQ is held (back-pressure) and held
// requests go down in arrival order as END_REQs come back. The input port is
// pushed on the MemExtension route stack and popped to return the response;
// a response whose upstream port is still busy is held (END_RESP delayed).
#pragma once

#include <memory>
#include <vector>

#include <systemc>

#include "models/common/at_initiator_port.h"
#include "models/common/at_target_port.h"
#include "models/common/fifo.h"

namespace simtlm::models {

class MemMux : public sc_core::sc_module, private AtTargetPort::Listener, private AtInitiatorPort::Listener {
 public:
  MemMux(const sc_core::sc_module_name& name, unsigned inputs);

  AtTargetPort::socket_type& target_socket(unsigned i) { return up_.at(i)->socket; }
  AtInitiatorPort::socket_type& initiator_socket() { return down_->socket; }

  uint64_t requests_forwarded() const { return forwarded_; }
  uint64_t requests_held() const { return held_requests_; }

 private:
  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;
  void forward(unsigned in, tlm::tlm_generic_payload& trans);

  std::vector<std::unique_ptr<AtTargetPort>> up_;
  std::unique_ptr<AtInitiatorPort> down_;
  Fifo<unsigned> waiting_;   // inputs whose request is held, in arrival order
  int held_response_port_ = -1;    // upstream port of the response held downstream
  uint64_t forwarded_ = 0;
  uint64_t held_requests_ = 0;
};

}  // namespace simtlm::models
