// Crossbar statistics: each direction's packet, flit and stall counters, the
// crossbar's activity and the both-networks totals.
#include "models/noc/crossbar.h"

namespace simtlm::models {

namespace {

void register_direction(const stats::Group& g, XbarDirectionStats& s) {
  g.counter("packets", &s.packets, "packets", "packets through the network");
  g.counter("flits", &s.flits, "flits", "flits through the network");
  g.counter("input_stalls", &s.input_stalls, "packets", "arrivals at a full input buffer");
  g.counter("arb_conflicts", &s.arb_conflicts, "cycles", "input heads that lost arbitration");
  g.counter("output_stalls", &s.output_stalls, "cycles", "input heads waiting for their output");
}

}  // namespace

void Crossbar::register_stats(const stats::Group& noc) {
  CrossbarStats& xs = stats();
  register_direction(noc.child("request"), xs.request);
  register_direction(noc.child("reply"), xs.reply);
  noc.counter("busy_cycles", &xs.busy_cycles, "noc cycles", "cycles with work");
  noc.counter("idle_cycles", &xs.idle_cycles, "noc cycles", "cycles asleep");
  noc.formula("flits", "@request.flits + @reply.flits", "flits", "flits, both networks");
  noc.formula("stalls", "@request.input_stalls + @request.output_stalls + @reply.input_stalls + @reply.output_stalls",
              "events", "input-buffer and output stalls, both networks");
}

}  // namespace simtlm::models
