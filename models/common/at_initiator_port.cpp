#include "models/common/at_initiator_port.h"

#include <algorithm>

#include "models/common/deferred_calls.h"

namespace simtlm::models {

AtInitiatorPort::AtInitiatorPort(const std::string& socket_name, Listener& listener, unsigned index)
    : listener_(listener),
      index_(index),
      socket(socket_name.c_str()),
      peq_((socket_name + "_peq").c_str(), this, &AtInitiatorPort::peq_callback) {
  deferred_ = &DeferredCalls::instance();  // after the socket and the PEQ, as before
  socket.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
}

void AtInitiatorPort::protocol_error(const char* what) const {
  const std::string msg = std::string(socket.name()) + ": AT base protocol violation: " + what;
  SC_REPORT_ERROR("simtlm/at_initiator_port", msg.c_str());
}

void AtInitiatorPort::send_request(tlm::tlm_generic_payload& trans) {
  if (req_in_flight_ != nullptr) {
    protocol_error("BEGIN_REQ before END_REQ of the previous request (owner bug)");
    return;
  }
  req_in_flight_ = &trans;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = socket->nb_transport_fw(trans, phase, delay);
  if (status == tlm::TLM_ACCEPTED) {
    return;
  }
  if (status == tlm::TLM_COMPLETED) {
    // The target finished the whole transaction: the response is seen at the
    // annotated time and needs no END_RESP.
    req_in_flight_ = nullptr;
    completed_.push_back(&trans);
    schedule(trans, tlm::BEGIN_RESP, delay);
    return;
  }
  if (phase == tlm::END_REQ) {
    if (delay == sc_core::SC_ZERO_TIME) {
      req_in_flight_ = nullptr;
    } else {
      schedule(trans, tlm::END_REQ, delay);
    }
  } else if (phase == tlm::BEGIN_RESP) {
    req_in_flight_ = nullptr;  // BEGIN_RESP implies END_REQ
    schedule(trans, tlm::BEGIN_RESP, delay);
  } else {
    protocol_error("target answered BEGIN_REQ with an unexpected phase");
  }
}

tlm::tlm_sync_enum AtInitiatorPort::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) {
    if (&trans != req_in_flight_) {
      protocol_error("END_REQ for a transaction without an open request");
    }
    // Deferred even when untimed: the owner's on_request_accepted() may send
    // the next request, which must not reach the target inside its own
    // accept_request() call.
    schedule(trans, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (delay != sc_core::SC_ZERO_TIME) {
      schedule(trans, phase, delay);
      return tlm::TLM_ACCEPTED;
    }
    // Untimed BEGIN_RESP: offer it now; a taken response ends on the return
    // path (END_RESP), a held one with accept_response().
    if (!offer_response(trans)) return tlm::TLM_ACCEPTED;
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  protocol_error("unexpected phase on the backward path");
  return tlm::TLM_ACCEPTED;
}

void AtInitiatorPort::schedule(tlm::tlm_generic_payload& trans, tlm::tlm_phase phase, const sc_core::sc_time& delay) {
  deliver_phase<AtInitiatorPort, &AtInitiatorPort::peq_callback>(this, *deferred_, peq_, trans, phase, delay);
}

void AtInitiatorPort::request_accepted(tlm::tlm_generic_payload& trans) {
  req_in_flight_ = nullptr;
  listener_.on_request_accepted(index_, trans);
}

void AtInitiatorPort::peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
  if (phase == tlm::END_REQ) {
    if (req_in_flight_ == &trans) {
      request_accepted(trans);
    }
    return;
  }
  if (phase != tlm::BEGIN_RESP) {
    return;
  }
  if (offer_response(trans)) {
    end_response(trans);
  }
}

bool AtInitiatorPort::offer_response(tlm::tlm_generic_payload& trans) {
  if (req_in_flight_ == &trans) {
    request_accepted(trans);  // an early BEGIN_RESP implies END_REQ
  }
  if (held_ != nullptr) {
    protocol_error("BEGIN_RESP before END_RESP of the previous response");
    return false;
  }
  if (trans.has_mm()) {
    trans.acquire();  // keeps the payload alive during the call even if the owner releases it
  }
  if (listener_.on_response(index_, trans)) {
    if (trans.has_mm()) {
      trans.release();
    }
    return true;
  }
  held_ = &trans;  // keeps its reference until END_RESP
  return false;
}

void AtInitiatorPort::accept_response() {
  sc_assert(held_ != nullptr);
  tlm::tlm_generic_payload& trans = *held_;
  held_ = nullptr;
  end_response(trans);
  if (trans.has_mm()) {
    trans.release();  // the reference taken when it was held
  }
}

void AtInitiatorPort::end_response(tlm::tlm_generic_payload& trans) {
  const auto it = std::find(completed_.begin(), completed_.end(), &trans);
  if (it != completed_.end()) {
    completed_.erase(it);
  } else {
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(trans, phase, delay);
  }
}

}  // namespace simtlm::models
