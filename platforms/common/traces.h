// Optional traces of a timing run (sim.trace.vcd_file, sim.trace.timeline_file):
//   - VCD (GTKWave): per SM, the resident CTAs and resident warps over time
//     (sim.trace.sm selects one SM, -1 all), changing at CTA start/end;
//   - timeline: Chrome/Perfetto trace-event JSON with one track per SM, a
//     complete event per CTA ("CTA n", SM = thread) and one per kernel; with
//     the energy model on, a counter track "power" (dynamic and leakage watts
//     per interval, power_trace.h).
// Events are collected in memory while a launch runs (a few per CTA) and
// appended to the files by write() after it, which then forgets them: the
// files grow with the run, memory does not, and each write costs what the
// launch added (a whole-file rewrite per launch made a 358-launch run 20x
// slower). After every write both files are complete and valid (the
// timeline's closing brackets are rewritten after its last event each time).
// Timestamps are core cycles converted to microseconds of simulated time
// (timeline) or picoseconds (VCD).
#pragma once

#include <cstdint>
#include <fstream>
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
  // Average power of the interval starting at `cycle` (timeline counter track).
  void power_sample(uint64_t cycle, double dynamic_w, double leakage_w) {
    if (!timeline_path_.empty()) powers_.push_back(Power{cycle, dynamic_w, leakage_w});
  }
  // Appends the events since the last write to the files (creating them at
  // the first write; no-op when tracing is off). Error(Input) when a file
  // cannot be written.
  void write();

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
  struct Power {
    uint64_t cycle;
    double dynamic_w;
    double leakage_w;
  };
  bool traced(unsigned sm) const { return sm_filter_ < 0 || static_cast<int64_t>(sm) == sm_filter_; }
  void append_vcd();
  void append_timeline();

  std::string vcd_path_;
  std::string timeline_path_;
  int64_t sm_filter_ = -1;
  unsigned num_sms_;
  double ns_per_cycle_;
  std::vector<Change> changes_;
  std::vector<Span> spans_;
  std::vector<Power> powers_;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> open_ctas_;  // per SM: (cta, begin)
  uint64_t kernel_begin_ = 0;

  std::ofstream vcd_;
  uint64_t vcd_last_ps_ = ~0ull;  // time of the last "#t" line written
  std::ofstream timeline_;
  std::streampos timeline_tail_;  // where the closing brackets start (rewritten at every append)
};

}  // namespace simtlm::platforms
