#include "models/sm/mem_mux.h"

#include <string>

#include "models/common/mem_extension.h"

namespace simtlm::models {

MemMux::MemMux(const sc_core::sc_module_name& name, unsigned inputs) : sc_core::sc_module(name) {
  for (unsigned i = 0; i < inputs; ++i) {
    up_.push_back(std::make_unique<AtTargetPort>("target_socket_" + std::to_string(i),
                                                 static_cast<AtTargetPort::Listener&>(*this), i));
  }
  down_ = std::make_unique<AtInitiatorPort>("initiator_socket", static_cast<AtInitiatorPort::Listener&>(*this));
}

void MemMux::forward(unsigned in, tlm::tlm_generic_payload& trans) {
  mem_ext(trans, name()).route_push(static_cast<uint16_t>(in));
  ++forwarded_;
  down_->send_request(trans);
}

bool MemMux::on_request(unsigned port, tlm::tlm_generic_payload& trans) {
  if (waiting_.empty() && down_->request_ready()) {
    forward(port, trans);
    return true;
  }
  ++held_requests_;
  waiting_.push_back(port);
  return false;
}

void MemMux::on_request_accepted(unsigned, tlm::tlm_generic_payload&) {
  // A forwarded request may be accepted on the return path (no deferred
  // END_REQ follows), so keep going while the socket stays free.
  while (!waiting_.empty() && down_->request_ready()) {
    const unsigned in = waiting_.front();
    waiting_.pop_front();
    tlm::tlm_generic_payload& t = up_[in]->accept_request();
    forward(in, t);
  }
}

bool MemMux::on_response(unsigned, tlm::tlm_generic_payload& trans) {
  const unsigned in = mem_ext(trans, name()).route_pop();
  if (up_.at(in)->response_ready()) {
    up_[in]->send_response(trans);
    return true;
  }
  held_response_port_ = static_cast<int>(in);
  return false;
}

void MemMux::on_response_done(unsigned port, tlm::tlm_generic_payload&) {
  if (held_response_port_ != static_cast<int>(port) || down_->held_response() == nullptr) return;
  tlm::tlm_generic_payload& t = *down_->held_response();
  held_response_port_ = -1;
  up_[port]->send_response(t);
  down_->accept_response();
}

}  // namespace simtlm::models
