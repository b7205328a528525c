#include "models/noc/xbar_switch.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace simtlm::models {

XbarSwitch::XbarSwitch(const XbarParams& params, XbarDirectionStats& stats)
    : p_(params),
      stats_(&stats),
      in_q_(params.ports_in),
      out_q_(params.ports_out),
      in_used_(params.ports_in, 0),
      out_used_(params.ports_out, 0),
      in_busy_until_(params.ports_in, 0),
      out_busy_until_(params.ports_out, 0),
      rr_(params.ports_out, params.ports_in - 1),
      granted_at_(params.ports_in, std::numeric_limits<uint64_t>::max()),
      candidates_(params.ports_in <= 64 ? params.ports_out : 0, 0),
      wanted_outputs_((params.ports_out + 63) / 64, 0),
      in_nonempty_((params.ports_in + 63) / 64, 0),
      out_nonempty_((params.ports_out + 63) / 64, 0) {}

void XbarSwitch::accept(unsigned in, const XbarPacket& packet) {
  in_used_[in] += packet.flits;
  in_q_[in].push_back(packet);
  set_bit(in_nonempty_, in);
}

void XbarSwitch::arbitrate(uint64_t c) {
  const unsigned n = p_.ports_in;
  if (ports(in_nonempty_).none()) {
    return;  // nothing to grant, no head to count as stalled
  }
  if (p_.ideal) {
    // Every ready packet crosses at once and arrives `latency` cycles later.
    for (unsigned i = 0; i < n; ++i) {
      while (!in_q_[i].empty() && in_q_[i].front().ready <= c) {
        XbarPacket out = in_q_[i].front();
        pop_in(i);
        in_used_[i] -= out.flits;
        out_used_[out.dst] += out.flits;
        out.ready = c + p_.latency;
        ++stats_->packets;
        stats_->flits += out.flits;
        push_out(out.dst, out);
      }
    }
    return;
  }
  if (candidates_.empty()) {
    arbitrate_scan(c);
    return;
  }
  // Inputs whose head may be granted this cycle, per wanted output. Each
  // input has one head, so it is a candidate of one output only and the sets
  // stay exact while the outputs are served.
  uint64_t ready_inputs = 0;
  for (uint64_t queued = in_nonempty_[0]; queued != 0; queued &= queued - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(queued));
    if (in_busy_until_[i] > c) continue;
    const XbarPacket& head = in_q_[i].front();
    if (head.ready > c) continue;
    candidates_[head.dst] |= uint64_t(1) << i;
    set_bit(wanted_outputs_, head.dst);
    ready_inputs |= uint64_t(1) << i;
  }
  if (ready_inputs == 0) return;  // no ready head: nothing granted, nothing stalled
  // The outputs with candidates, in increasing order (the order a walk over
  // every output visits them).
  uint64_t granted = 0;
  for (size_t w = 0; w < wanted_outputs_.size(); ++w) {
    for (uint64_t outs = std::exchange(wanted_outputs_[w], 0); outs != 0; outs &= outs - 1) {
      const auto o = static_cast<unsigned>(w * 64 + static_cast<size_t>(__builtin_ctzll(outs)));
      const uint64_t want = std::exchange(candidates_[o], 0);
      if (out_busy_until_[o] <= c) granted |= grant_round_robin(o, want, c);
    }
  }
  // Stall accounting: every ready head that did not move this cycle.
  for (uint64_t stalled = ready_inputs & ~granted; stalled != 0; stalled &= stalled - 1) {
    count_stall(static_cast<unsigned>(__builtin_ctzll(stalled)), c);
  }
}

// The general path (more than 64 inputs): the same decisions without masks.
void XbarSwitch::arbitrate_scan(uint64_t c) {
  const unsigned n = p_.ports_in;
  for (unsigned o = 0; o < p_.ports_out; ++o) {
    if (out_busy_until_[o] > c) continue;
    unsigned i = rr_[o];
    for (unsigned k = 1; k <= n; ++k) {
      i = i + 1 == n ? 0 : i + 1;
      if (in_q_[i].empty() || in_busy_until_[i] > c) continue;
      const XbarPacket& head = in_q_[i].front();
      if (head.ready > c || head.dst != o) continue;
      if (try_grant(i, o, arrived_flits(o, c), c)) break;
    }
  }
  for (unsigned i = 0; i < n; ++i) {
    if (in_q_[i].empty() || in_busy_until_[i] > c || granted_at_[i] == c) continue;
    if (in_q_[i].front().ready > c) continue;
    count_stall(i, c);
  }
}

uint64_t XbarSwitch::grant_round_robin(unsigned o, uint64_t want, uint64_t c) {
  // Round robin: the inputs after the last one granted, then from input 0 up
  // to and including it.
  const unsigned r = rr_[o];
  const uint64_t after = r + 1 >= 64 ? 0 : want & (~uint64_t(0) << (r + 1));
  const uint32_t buffered = arrived_flits(o, c);
  for (uint64_t inputs : {after, want & ~after}) {
    for (; inputs != 0; inputs &= inputs - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(inputs));
      if (try_grant(i, o, buffered, c)) return uint64_t(1) << i;
    }
  }
  return 0;
}

bool XbarSwitch::try_grant(unsigned i, unsigned o, uint32_t buffered, uint64_t c) {
  const XbarPacket& head = in_q_[i].front();
  if (buffered != 0 && buffered + head.flits > p_.output_buffer_flits) {
    return false;  // output buffer full for this packet
  }
  const uint32_t s = p_.serialization(head.flits);
  XbarPacket out = head;
  out.ready = c + s - 1 + p_.latency;
  in_used_[i] -= head.flits;
  out_used_[o] += head.flits;
  in_busy_until_[i] = c + s;
  out_busy_until_[o] = c + s;
  rr_[o] = i;
  granted_at_[i] = c;
  ++stats_->packets;
  stats_->flits += head.flits;
  pop_in(i);
  push_out(o, out);
  return true;
}

void XbarSwitch::count_stall(unsigned i, uint64_t c) {
  const XbarPacket& head = in_q_[i].front();
  if (out_busy_until_[head.dst] > c && granted_at_[rr_[head.dst]] == c) {
    ++stats_->arb_conflicts;  // another input won this output this cycle
  } else {
    ++stats_->output_stalls;
  }
}

uint32_t XbarSwitch::arrived_flits(unsigned out, uint64_t c) const {
  // Packets still in the traversal pipeline (ready > c) are held by its
  // stages, not by the output buffer.
  uint32_t flits = 0;
  for (const XbarPacket& q : out_q_[out]) {
    if (q.ready > c) break;  // out_q_ is in grant order, so in ready order
    flits += q.flits;
  }
  return flits;
}

XbarPacket XbarSwitch::pop_output(unsigned out) {
  XbarPacket p = out_q_[out].front();
  out_q_[out].pop_front();
  if (out_q_[out].empty()) clear_bit(out_nonempty_, out);
  out_used_[out] -= p.flits;
  return p;
}

uint64_t XbarSwitch::next_grant_cycle(uint64_t c) const {
  uint64_t next = std::numeric_limits<uint64_t>::max();
  for (size_t w = 0; w < in_nonempty_.size(); ++w) {
    for (uint64_t bits = in_nonempty_[w]; bits != 0; bits &= bits - 1) {
      const size_t i = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
      const XbarPacket& head = in_q_[i].front();
      const uint64_t at = p_.ideal ? std::max(head.ready, c + 1)
                                   : std::max({head.ready, in_busy_until_[i], out_busy_until_[head.dst], c + 1});
      next = std::min(next, at);
      if (next == c + 1) return next;  // nothing can be earlier than the next cycle
    }
  }
  return next;
}

bool XbarSwitch::empty() const { return ports(in_nonempty_).none() && ports(out_nonempty_).none(); }

}  // namespace simtlm::models
