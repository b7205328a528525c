// Crossbar interconnect between N requester ports and M memory-side ports.
// It holds two switch cores: the request network (N -> M, destination chosen
// by an AddressMap on the payload address) and the reply network (M -> N,
// destination = the input port the request came from, recorded in the
// MemExtension route stack).
//
//   target_socket(i)    i < N   <- requester i (L1D of SM i)
//   initiator_socket(j) j < M   -> memory-side port j (L2 slice / sub-partition j)
//
// Packet sizes: a request is 1 flit unless it carries data (stores, atomics,
// writebacks: ceil(bytes/flit_bytes)); a reply is 1 flit unless it carries
// data (reads, atomics). A full input buffer delays END_REQ (request network)
// or END_RESP (reply network) toward the sender; nothing is dropped, and
// packets between one source and one destination stay in order.
//
// Per clock cycle: every output port sends its oldest ready packet (if its
// socket is free), then both switch cores arbitrate (round-robin per output),
// then held senders are admitted into input buffers that have room.
#pragma once

#include <memory>
#include <vector>

#include "models/common/at_initiator_port.h"
#include "models/common/at_target_port.h"
#include "models/common/clock_domain.h"
#include "models/common/mem_extension.h"
#include "models/noc/address_map.h"
#include "models/noc/xbar_params.h"
#include "models/noc/xbar_switch.h"
#include "simtlm/stats.h"

namespace simtlm::models {

struct CrossbarStats {
  XbarDirectionStats request;
  XbarDirectionStats reply;
  uint64_t busy_cycles = 0;
  uint64_t idle_cycles = 0;
};

class Crossbar : public ClockedModule, private AtTargetPort::Listener, private AtInitiatorPort::Listener {
 public:
  using Params = XbarParams;
  using Stats = CrossbarStats;
  // `request` describes the N -> M network, `reply` the M -> N network; both
  // must use the same clock period. `map` returns the memory-side port of an
  // address (must be < request.ports_out).
  Crossbar(const sc_core::sc_module_name& name, const XbarParams& request, const XbarParams& reply, AddressMap map);
  // Same parameters for both directions (reply = request.reversed()).
  Crossbar(const sc_core::sc_module_name& name, const XbarParams& request, AddressMap map);

  AtTargetPort::socket_type& target_socket(unsigned i) { return up_.at(i)->socket; }
  AtInitiatorPort::socket_type& initiator_socket(unsigned j) { return down_.at(j)->socket; }
  unsigned requester_ports() const { return static_cast<unsigned>(up_.size()); }
  unsigned memory_ports() const { return static_cast<unsigned>(down_.size()); }

  const XbarSwitch& request_network() const { return req_; }
  const XbarSwitch& reply_network() const { return rep_; }
  // Live counters; busy_cycles/idle_cycles are brought up to date by each call.
  CrossbarStats& stats();
  // Registers both directions' counters and the totals under `g` (gpu.noc).
  void register_stats(const stats::Group& g);

 private:
  uint64_t tick(uint64_t cycle) override;
  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;
  // `flits`: the packet's size on that network (computed once per packet).
  bool admit_request(unsigned in, tlm::tlm_generic_payload& trans, uint32_t flits, uint64_t ready);
  bool admit_reply(unsigned in, tlm::tlm_generic_payload& trans, uint32_t flits, uint64_t ready);

  CrossbarStats stats_;  // before the switches, which count into it
  XbarSwitch req_;
  XbarSwitch rep_;
  AddressMap map_;
  // Bit per input port whose request (held_requests_) or response
  // (held_replies_) was refused (END_REQ/END_RESP pending): the per-cycle
  // retry visits only those, in port order.
  std::vector<uint64_t> held_requests_;
  std::vector<uint64_t> held_replies_;
  // Calls admit(port) for each held sender of `held` (in port order) whose
  // packet (`flits` per port) fits in its input buffer of `sw` now, and
  // clears its bit when admit() returns true.
  template <class Admit>
  static void retry_held(std::vector<uint64_t>& held, const XbarSwitch& sw, const std::vector<uint32_t>& flits,
                         Admit&& admit);
  // Flits of the packet held at each input, so the per-cycle retry does not
  // recompute them.
  std::vector<uint32_t> held_request_flits_;
  std::vector<uint32_t> held_reply_flits_;
  std::vector<std::unique_ptr<AtTargetPort>> up_;
  std::vector<std::unique_ptr<AtInitiatorPort>> down_;
};

}  // namespace simtlm::models
