#include "models/noc/crossbar.h"

#include <algorithm>
#include <limits>
#include <string>

#include "simtlm/error.h"

namespace simtlm::models {

namespace {
const XbarParams& checked(const XbarParams& request, const XbarParams& reply, const char* name) {
  const std::string who = std::string("crossbar '") + name + "'";
  request.validate(who + " request network");
  reply.validate(who + " reply network");
  if (reply.ports_in != request.ports_out || reply.ports_out != request.ports_in) {
    throw Error(ErrorKind::Config, who + ": reply network ports must mirror the request network ports");
  }
  if (reply.clock_period != request.clock_period) {
    throw Error(ErrorKind::Config, who + ": request and reply networks must share one clock_period");
  }
  return request;
}
}  // namespace

Crossbar::Crossbar(const sc_core::sc_module_name& name, const XbarParams& request, const XbarParams& reply,
                   AddressMap map)
    : ClockedModule(name, checked(request, reply, name).clock_period),
      req_(request, stats_.request),
      rep_(reply, stats_.reply),
      map_(std::move(map)) {
  if (!map_) {
    throw Error(ErrorKind::Config, std::string("crossbar '") + basename() + "': no address map");
  }
  for (unsigned i = 0; i < request.ports_in; ++i) {
    AtTargetPort::Listener& listener = *this;
    up_.push_back(std::make_unique<AtTargetPort>("target_socket_" + std::to_string(i), listener, i));
  }
  for (unsigned j = 0; j < request.ports_out; ++j) {
    AtInitiatorPort::Listener& listener = *this;
    down_.push_back(std::make_unique<AtInitiatorPort>("initiator_socket_" + std::to_string(j), listener, j));
  }
  held_request_flits_.assign(request.ports_in, 0);
  held_reply_flits_.assign(request.ports_out, 0);
  held_requests_.assign((request.ports_in + 63) / 64, 0);
  held_replies_.assign((request.ports_out + 63) / 64, 0);
}

Crossbar::Crossbar(const sc_core::sc_module_name& name, const XbarParams& request, AddressMap map)
    : Crossbar(name, request, request.reversed(), std::move(map)) {}

CrossbarStats& Crossbar::stats() {
  cycles_through_now(stats_.busy_cycles, stats_.idle_cycles);
  return stats_;
}

// ---------------------------------------------------------------- admission

bool Crossbar::admit_request(unsigned in, tlm::tlm_generic_payload& trans, uint32_t flits, uint64_t ready) {
  if (!req_.can_accept(in, flits)) {
    return false;
  }
  const unsigned dst = map_(trans.get_address());
  if (dst >= down_.size()) {
    SC_REPORT_ERROR("simtlm/crossbar",
                    (std::string(name()) + ": address map returned port " + std::to_string(dst) +
                     " but there are only " + std::to_string(down_.size()))
                        .c_str());
    return false;
  }
  mem_ext(trans, name()).route_push(static_cast<uint16_t>(in));
  req_.accept(in, {&trans, static_cast<uint16_t>(in), static_cast<uint16_t>(dst), flits, ready});
  wake_at(ready);
  return true;
}

bool Crossbar::admit_reply(unsigned in, tlm::tlm_generic_payload& trans, uint32_t flits, uint64_t ready) {
  if (!rep_.can_accept(in, flits)) {
    return false;
  }
  MemExtension& ext = mem_ext(trans, name());
  const unsigned dst = ext.route_pop();
  rep_.accept(in, {&trans, static_cast<uint16_t>(in), static_cast<uint16_t>(dst), flits, ready});
  wake_at(ready);
  return true;
}

bool Crossbar::on_request(unsigned port, tlm::tlm_generic_payload& trans) {
  const uint32_t flits = req_.params().flits_for(request_data_bytes(trans));
  if (admit_request(port, trans, flits, clock().registration_cycle_now())) {
    return true;
  }
  ++stats_.request.input_stalls;
  held_requests_[port / 64] |= uint64_t(1) << (port % 64);
  held_request_flits_[port] = flits;
  return false;
}

bool Crossbar::on_response(unsigned port, tlm::tlm_generic_payload& trans) {
  const uint32_t flits = rep_.params().flits_for(response_data_bytes(trans));
  if (admit_reply(port, trans, flits, clock().registration_cycle_now())) {
    return true;
  }
  ++stats_.reply.input_stalls;
  held_replies_[port / 64] |= uint64_t(1) << (port % 64);
  held_reply_flits_[port] = flits;
  return false;
}

void Crossbar::on_response_done(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

void Crossbar::on_request_accepted(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

// ---------------------------------------------------------------- clock

template <class Admit>
void Crossbar::retry_held(std::vector<uint64_t>& held, const XbarSwitch& sw, const std::vector<uint32_t>& flits,
                          Admit&& admit) {
  for (size_t w = 0; w < held.size(); ++w) {
    for (uint64_t bits = held[w]; bits != 0; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      if (sw.can_accept(port, flits[port]) && admit(port)) held[w] &= ~(uint64_t(1) << (port % 64));
    }
  }
}

uint64_t Crossbar::tick(uint64_t c) {
  // Packets at the output ports leave first (one per port per cycle), so the
  // buffer space they free can be granted in the same cycle. (The per-port
  // loops visit only ports with queued packets, the held-sender retries only
  // ports holding a sender.)
  req_.for_each_nonempty_output([&](unsigned j) {
    if (req_.output_ready(j, c) && down_[j]->request_ready()) {
      down_[j]->send_request(*req_.pop_output(j).trans);
    }
  });
  rep_.for_each_nonempty_output([&](unsigned i) {
    if (rep_.output_ready(i, c) && up_[i]->response_ready()) {
      up_[i]->send_response(*rep_.pop_output(i).trans);
    }
  });
  req_.arbitrate(c);
  rep_.arbitrate(c);
  // Held senders whose input buffer has room again.
  retry_held(held_requests_, req_, held_request_flits_, [&](unsigned i) {
    if (!admit_request(i, *up_[i]->held_request(), held_request_flits_[i], c + 1)) return false;
    up_[i]->accept_request();
    return true;
  });
  retry_held(held_replies_, rep_, held_reply_flits_, [&](unsigned j) {
    if (!admit_reply(j, *down_[j]->held_response(), held_reply_flits_[j], c + 1)) return false;
    down_[j]->accept_response();
    return true;
  });

  uint64_t next = std::min(req_.next_grant_cycle(c), rep_.next_grant_cycle(c));
  req_.for_each_nonempty_output([&](unsigned j) {
    if (down_[j]->request_ready()) next = std::min(next, std::max(req_.output_head(j).ready, c + 1));
  });
  rep_.for_each_nonempty_output([&](unsigned i) {
    if (up_[i]->response_ready()) next = std::min(next, std::max(rep_.output_head(i).ready, c + 1));
  });
  return next == std::numeric_limits<uint64_t>::max() ? kSleep : next;
}

}  // namespace simtlm::models
