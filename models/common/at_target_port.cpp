#include "models/common/at_target_port.h"

#include "models/common/deferred_calls.h"

namespace simtlm::models {

AtTargetPort::AtTargetPort(const std::string& socket_name, Listener& listener, unsigned index)
    : listener_(listener),
      index_(index),
      socket(socket_name.c_str()),
      peq_((socket_name + "_peq").c_str(), this, &AtTargetPort::peq_callback) {
  deferred_ = &DeferredCalls::instance();  // after the socket and the PEQ, as before
  socket.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
}

void AtTargetPort::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  protocol_error("b_transport on an AT-only target");
}

bool AtTargetPort::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();
  return false;
}

unsigned int AtTargetPort::transport_dbg(tlm::tlm_generic_payload&) { return 0; }

void AtTargetPort::protocol_error(const char* what) const {
  const std::string msg = std::string(socket.name()) + ": AT base protocol violation: " + what;
  SC_REPORT_ERROR("simtlm/at_target_port", msg.c_str());
}

tlm::tlm_sync_enum AtTargetPort::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (req_open_ != nullptr) {
      protocol_error("BEGIN_REQ before END_REQ of the previous request");
      return tlm::TLM_ACCEPTED;
    }
    if (trans.has_mm()) {
      trans.acquire();
    }
    req_open_ = &trans;
    if (delay != sc_core::SC_ZERO_TIME) {
      schedule(trans, phase, delay);
      return tlm::TLM_ACCEPTED;
    }
    // Untimed BEGIN_REQ: decide now and answer END_REQ on the return path
    // (no PEQ round trip; the time is the same).
    if (listener_.on_request(index_, trans)) {
      req_open_ = nullptr;
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    held_ = &trans;
    ++requests_held_;
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    if (&trans != resp_in_flight_) {
      protocol_error("END_RESP for a transaction without an open response");
      return tlm::TLM_COMPLETED;
    }
    // Deferred even when untimed: the owner's on_response_done() may send
    // the next response, which must not happen inside the initiator's
    // accept_response() call.
    schedule(trans, phase, delay);
    return tlm::TLM_COMPLETED;
  }
  protocol_error("unexpected phase on the forward path");
  return tlm::TLM_COMPLETED;
}

void AtTargetPort::peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    if (listener_.on_request(index_, trans)) {
      send_end_req(trans);
    } else {
      held_ = &trans;
      ++requests_held_;
    }
  } else if (phase == tlm::END_RESP) {
    response_finished(trans, true);
  }
}

void AtTargetPort::schedule(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay) {
  deliver_phase<AtTargetPort, &AtTargetPort::peq_callback>(this, *deferred_, peq_, trans, phase, delay);
}

void AtTargetPort::send_end_req(tlm::tlm_generic_payload& trans) {
  req_open_ = nullptr;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->nb_transport_bw(trans, phase, delay);
}

tlm::tlm_generic_payload& AtTargetPort::accept_request() {
  sc_assert(held_ != nullptr);
  tlm::tlm_generic_payload& trans = *held_;
  held_ = nullptr;
  send_end_req(trans);
  return trans;
}

void AtTargetPort::send_response(tlm::tlm_generic_payload& trans) {
  if (resp_in_flight_ != nullptr) {
    protocol_error("BEGIN_RESP before END_RESP of the previous response (owner bug)");
    return;
  }
  if (trans.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  resp_in_flight_ = &trans;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = socket->nb_transport_bw(trans, phase, delay);
  if (status == tlm::TLM_ACCEPTED) {
    return;  // END_RESP will come on the forward path
  }
  if (status == tlm::TLM_UPDATED && phase != tlm::END_RESP) {
    protocol_error("initiator answered BEGIN_RESP with a phase other than END_RESP");
  }
  if (delay == sc_core::SC_ZERO_TIME) {
    response_finished(trans, false);
  } else {
    schedule(trans, tlm::END_RESP, delay);
  }
}

void AtTargetPort::response_finished(tlm::tlm_generic_payload& trans, bool notify_listener) {
  resp_in_flight_ = nullptr;
  if (notify_listener) {
    listener_.on_response_done(index_, trans);
  }
  if (trans.has_mm()) {
    trans.release();
  }
}

}  // namespace simtlm::models
