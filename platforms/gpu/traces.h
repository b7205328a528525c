// Optional traces of a timing run (sim.trace.vcd_file, sim.trace.timeline_file):
//   - VCD (GTKWave): per SM, the resident CTAs and resident warps over time
//     (sim.trace.sm selects one SM, -1 all), changing at CTA start/end;
//   - timeline: Chrome/Perfetto trace-event JSON with one track per SM, a
//     complete event per CTA ("CTA n", SM = thread) and one per kernel.
// Events are collected in memory (a few per CTA) and written by write(),
// each file atomically (temporary name, then rename). Timestamps are core
// cycles converted to microseconds of simulated time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "simtlm/config.h"

namespace simtlm::platforms {

class TraceWriter {
 public:
  TraceWriter(const Config& cfg, unsigned num_sms, const sc_core::sc_time& core_period);

  bool enabled() const { return !vcd_path_.empty() || !timeline_path_.empty(); }
  void kernel_begin(const std::string& kernel, uint64_t cycle);
  void kernel_end(const std::string& kernel, uint64_t cycle);
  // `ctas`/`warps`: the SM's resident CTAs and warps after the change.
  void cta_begin(unsigned sm, uint64_t cta, uint64_t cycle, uint64_t ctas, uint64_t warps);
  void cta_end(unsigned sm, uint64_t cta, uint64_t cycle, uint64_t ctas, uint64_t warps);
  // Writes the files (no-op when tracing is off). Error(Input) when a file cannot be written.
  void write() const;

 private:
  struct Change {
    uint64_t cycle;
    unsigned sm;
    uint64_t ctas;
    uint64_t warps;
  };
  struct Span {
    std::string name;
    int track;  // -1 = kernel track, else SM
    uint64_t begin;
    uint64_t end;
  };
  bool traced(unsigned sm) const { return sm_filter_ < 0 || static_cast<int64_t>(sm) == sm_filter_; }
  std::string vcd_text() const;
  std::string timeline_text() const;

  std::string vcd_path_;
  std::string timeline_path_;
  int64_t sm_filter_ = -1;
  unsigned num_sms_;
  double ns_per_cycle_;
  std::vector<Change> changes_;
  std::vector<Span> spans_;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> open_ctas_;  // per SM: (cta, begin)
  uint64_t kernel_begin_ = 0;
};

}  // namespace simtlm::platforms
