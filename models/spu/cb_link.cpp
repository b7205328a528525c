#include "models/spu/cb_link.h"

#include <algorithm>
#include <string>

#include "simtlm/error.h"

namespace simtlm::models::spu {

CbLink::CbLink(const sc_core::sc_module_name& name, const CbParams& params)
    : ClockedModule(name, params.clock_period),
      p_(params),
      producer_("producer", static_cast<AtTargetPort::Listener&>(*this), kProducer),
      consumer_("consumer", static_cast<AtTargetPort::Listener&>(*this), kConsumer) {}

bool CbLink::on_request(unsigned side, tlm::tlm_generic_payload& trans) {
  Side& s = sides_[side];
  const uint64_t start = std::max(clock().registration_cycle_now(), s.port_free);
  s.port_free = start + 1;
  (trans.is_write() ? writes_ : reads_) += 1;
  s.responses.emplace_back(&trans, start + p_.latency);
  wake_at(s.responses.front().second);
  return true;
}

void CbLink::on_response_done(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

uint64_t CbLink::tick(uint64_t c) {
  uint64_t next = kSleep;
  for (unsigned side : {kProducer, kConsumer}) {
    Side& s = sides_[side];
    AtTargetPort& out = port(side);
    if (!s.responses.empty() && s.responses.front().second <= c && out.response_ready()) {
      tlm::tlm_generic_payload* t = s.responses.front().first;
      s.responses.pop_front();
      out.send_response(*t);
    }
    // Sleep while a response waits for END_RESP (on_response_done wakes us).
    if (!s.responses.empty() && out.response_ready()) next = std::min(next, std::max(s.responses.front().second, c + 1));
  }
  return next;
}

void CbLink::register_stats(const stats::Group& g) {
  g.counter("writes", &writes_, "transactions", "producer stores into the link's CB (one per 128-byte bank row a warp writes)");
  g.counter("reads", &reads_, "transactions", "consumer loads from the link's CB (one per 128-byte bank row a warp reads)");
  g.formula("accesses", "@writes + @reads", "transactions", "CB accesses of the link (CB_ACC)");
}

CbNoLink::CbNoLink(const sc_core::sc_module_name& name, unsigned ports) : sc_core::sc_module(name) {
  for (unsigned i = 0; i < ports; ++i) {
    ports_.push_back(std::make_unique<AtTargetPort>("port_" + std::to_string(i),
                                                    static_cast<AtTargetPort::Listener&>(*this), i));
  }
}

bool CbNoLink::on_request(unsigned port, tlm::tlm_generic_payload&) {
  throw Error(ErrorKind::Internal, std::string(name()) + ": a communication-buffer access on unconnected port " +
                                       std::to_string(port) + " (an interface unit has no link there)");
}

}  // namespace simtlm::models::spu
