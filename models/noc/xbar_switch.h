// Switch core of one crossbar direction: per-input FIFO buffers and
// per-output buffers sized in flits, round-robin arbitration per output,
// per-port bandwidth (a packet of F flits holds its input and its output for
// ceil(F / flits_per_cycle) cycles) and a fixed traversal latency. No SystemC
// here: the Crossbar module drives it once per clock cycle.
//
// Buffer accounting: input-buffer space is returned when a packet is granted
// (its flits stream out while it holds the port). A granted packet spends
// S - 1 + latency cycles in the traversal pipeline, whose stages hold it, and
// then sits in the output buffer until it leaves the output port. A grant
// needs room in the output buffer for the packet next to the packets that
// have already arrived there (the Crossbar drains outputs before
// arbitrating, so space freed in a cycle can be granted in that cycle); the
// pipeline adds at most ceil((S - 1 + latency) / S) packets on top.
// A packet larger than a buffer is admitted into an empty buffer, so no size
// deadlocks.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm>

#include "frontend/analysis/bitset.h"
#include "models/common/fifo.h"
#include "models/noc/xbar_params.h"

namespace simtlm::models {

struct XbarPacket {
  tlm::tlm_generic_payload* trans = nullptr;
  uint16_t src = 0;
  uint16_t dst = 0;
  uint32_t flits = 1;
  uint64_t ready = 0;  // input: first cycle it may be granted; output: first cycle it may leave
};

struct XbarDirectionStats {
  uint64_t packets = 0;        // packets through the switch
  uint64_t flits = 0;
  uint64_t input_stalls = 0;   // a packet arrived at a full input buffer (END_REQ/END_RESP delayed)
  uint64_t arb_conflicts = 0;  // cycles an input head lost arbitration to another input
  uint64_t output_stalls = 0;  // cycles an input head waited for its output (busy link or full buffer)
};

class XbarSwitch {
 public:
  // Counters go to `stats` (owned by the module, so their addresses are stable).
  XbarSwitch(const XbarParams& params, XbarDirectionStats& stats);

  const XbarParams& params() const { return p_; }
  bool can_accept(unsigned in, uint32_t flits) const {
    return p_.ideal || in_used_[in] == 0 || in_used_[in] + flits <= p_.input_buffer_flits;
  }
  void accept(unsigned in, const XbarPacket& packet);

  // One cycle of arbitration and transfer.
  void arbitrate(uint64_t cycle);

  bool output_ready(unsigned out, uint64_t cycle) const {
    return !out_q_[out].empty() && out_q_[out].front().ready <= cycle;
  }
  // Calls f(out) for every output with a packet queued, in port order (the
  // per-cycle loops of the module visit only those). f may pop that output.
  template <class F>
  void for_each_nonempty_output(F&& f) const {
    ports(out_nonempty_).for_each([&](std::size_t out) { f(static_cast<unsigned>(out)); });
  }
  const XbarPacket& output_head(unsigned out) const { return out_q_[out].front(); }
  XbarPacket pop_output(unsigned out);

  // Earliest cycle > cycle at which arbitrate() could grant something, or
  // UINT64_MAX. Packets blocked by a full output buffer count as the next cycle.
  uint64_t next_grant_cycle(uint64_t cycle) const;
  bool empty() const;
  const XbarDirectionStats& stats() const { return *stats_; }
  XbarDirectionStats& stats() { return *stats_; }

 private:
  // Flits of the packets at `out` that have left the traversal pipeline by
  // cycle c (what the output buffer holds).
  uint32_t arrived_flits(unsigned out, uint64_t c) const;
  void arbitrate_scan(uint64_t c);
  // Grants output o to the first input of `want` (ready heads that want o)
  // in round-robin order whose packet fits; returns that input's bit or 0.
  uint64_t grant_round_robin(unsigned o, uint64_t want, uint64_t c);
  // Grants input i's head to output o unless the output buffer (holding
  // `buffered` flits) has no room for it.
  bool try_grant(unsigned i, unsigned o, uint32_t buffered, uint64_t c);
  // An input whose ready head did not move this cycle: lost to another input
  // or waited for its output.
  void count_stall(unsigned i, uint64_t c);

  XbarParams p_;
  XbarDirectionStats* stats_;
  std::vector<Fifo<XbarPacket>> in_q_;
  std::vector<Fifo<XbarPacket>> out_q_;
  std::vector<uint32_t> in_used_;
  std::vector<uint32_t> out_used_;
  std::vector<uint64_t> in_busy_until_;
  std::vector<uint64_t> out_busy_until_;
  std::vector<uint32_t> rr_;  // per output: input granted last
  std::vector<uint64_t> granted_at_;  // per input: cycle of its last grant (stall accounting)
  std::vector<uint64_t> candidates_;  // per output: inputs whose ready head wants it (ports_in <= 64)
  std::vector<uint64_t> wanted_outputs_;  // bit o: candidates_[o] is not empty (within arbitrate)
  // Bit per port (64 per word) whose queue is not empty.
  std::vector<uint64_t> in_nonempty_;
  std::vector<uint64_t> out_nonempty_;
  static frontend::analysis::BitsView ports(const std::vector<uint64_t>& m) { return {m.data(), m.size()}; }
  static void set_bit(std::vector<uint64_t>& m, unsigned i) { m[i >> 6] |= uint64_t(1) << (i & 63); }
  static void clear_bit(std::vector<uint64_t>& m, unsigned i) { m[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  void push_out(unsigned o, const XbarPacket& p) {
    out_q_[o].push_back(p);
    set_bit(out_nonempty_, o);
  }
  void pop_in(unsigned i) {
    in_q_[i].pop_front();
    if (in_q_[i].empty()) clear_bit(in_nonempty_, i);
  }
};

}  // namespace simtlm::models
