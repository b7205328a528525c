// DRAM channel statistics: command, row-buffer, bus and latency counters of
// one channel and its row-buffer hit rate.
#include "models/dram/dram_channel.h"

namespace simtlm::models {

void DramChannel::register_stats(const stats::Group& g) {
  DramStats& s = stats();
  g.counter("reads", &s.reads, "requests", "read requests completed");
  g.counter("writes", &s.writes, "requests", "write requests completed");
  g.counter("read_bursts", &s.read_bursts, "bursts", "read bursts");
  g.counter("write_bursts", &s.write_bursts, "bursts", "write bursts");
  g.counter("activates", &s.activates, "commands", "ACT commands");
  g.counter("precharges", &s.precharges, "commands", "PRE commands");
  g.counter("row_hits", &s.row_hits, "requests", "requests served from the open row");
  g.counter("row_misses", &s.row_misses, "requests", "requests that activated a closed bank");
  g.counter("row_conflicts", &s.row_conflicts, "requests", "requests that closed another row");
  g.counter("bus_busy_cycles", &s.bus_busy_cycles, "DRAM cycles", "data-bus cycles carrying data");
  g.counter("bytes_read", &s.bytes_read, "bytes", "bytes read");
  g.counter("bytes_written", &s.bytes_written, "bytes", "bytes written");
  g.counter("requests_held", &s.requests_held, "requests", "END_REQ delayed: queue full");
  g.counter("read_latency_cycles", &s.read_latency_cycles, "DRAM cycles", "sum of read latencies");
  g.counter("busy_cycles", &s.busy_cycles, "DRAM cycles", "cycles with work");
  g.counter("idle_cycles", &s.idle_cycles, "DRAM cycles", "cycles asleep");
  g.formula("row_hit_rate", "@row_hits / (@row_hits + @row_misses + @row_conflicts)", "ratio",
            "row-buffer hit rate");
}

}  // namespace simtlm::models
