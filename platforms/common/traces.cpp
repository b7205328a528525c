#include "platforms/common/traces.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "simtlm/error.h"

namespace simtlm::platforms {

namespace {

// VCD identifier of signal k (printable ASCII 33..126).
std::string vcd_id(unsigned k) {
  std::string id;
  do {
    id += static_cast<char>(33 + k % 94);
    k /= 94;
  } while (k != 0);
  return id;
}

std::string binary(uint64_t v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s += (v & 1) ? '1' : '0';
    v >>= 1;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

}  // namespace

TraceWriter::TraceWriter(const Config& cfg, unsigned num_sms, const sc_core::sc_time& core_period)
    : vcd_path_(cfg.str("sim.trace.vcd_file")),
      timeline_path_(cfg.str("sim.trace.timeline_file")),
      sm_filter_(cfg.i64("sim.trace.sm")),
      num_sms_(num_sms),
      ns_per_cycle_(core_period.to_seconds() * 1e9),
      open_ctas_(num_sms) {}

void TraceWriter::kernel_begin(const std::string&, uint64_t cycle) { kernel_begin_ = cycle; }

void TraceWriter::kernel_end(const std::string& kernel, uint64_t cycle) {
  if (!enabled()) return;
  spans_.push_back({kernel, -1, kernel_begin_, cycle});
}

void TraceWriter::cta_begin(unsigned sm, uint64_t cta, uint64_t cycle, uint64_t ctas, uint64_t warps) {
  if (!enabled()) return;
  open_ctas_[sm].emplace_back(cta, cycle);
  if (traced(sm)) changes_.push_back({cycle, sm, ctas, warps});
}

void TraceWriter::cta_end(unsigned sm, uint64_t cta, uint64_t cycle, uint64_t ctas, uint64_t warps) {
  if (!enabled()) return;
  auto& open = open_ctas_[sm];
  for (size_t i = 0; i < open.size(); ++i) {
    if (open[i].first != cta) continue;
    spans_.push_back({"CTA " + std::to_string(cta), static_cast<int>(sm), open[i].second, cycle});
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
    break;
  }
  if (traced(sm)) changes_.push_back({cycle, sm, ctas, warps});
}

namespace {

// Opens a trace file for writing from the start, or throws naming it.
void open_trace(std::ofstream& out, const std::string& path) {
  out.open(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(ErrorKind::Input, "cannot write trace file '" + path + "'");
}

void check_written(std::ofstream& out, const std::string& path) {
  out.flush();
  if (!out) throw Error(ErrorKind::Input, "cannot write trace file '" + path + "'");
}

// What follows the timeline's last event: kept valid JSON after every append.
constexpr const char* kTimelineClose = "\n],\n\"displayTimeUnit\": \"ns\"}\n";

}  // namespace

void TraceWriter::append_vcd() {
  if (!vcd_.is_open()) {
    open_trace(vcd_, vcd_path_);
    vcd_ << "$date simtlm $end\n$version simtlm timing model $end\n";
    // One VCD time unit = one picosecond of simulated time.
    vcd_ << "$timescale 1 ps $end\n$scope module gpu $end\n";
    for (unsigned sm = 0; sm < num_sms_; ++sm) {
      if (!traced(sm)) continue;
      vcd_ << "$scope module sm_" << sm << " $end\n";
      vcd_ << "$var wire 16 " << vcd_id(2 * sm) << " resident_ctas $end\n";
      vcd_ << "$var wire 16 " << vcd_id(2 * sm + 1) << " resident_warps $end\n";
      vcd_ << "$upscope $end\n";
    }
    vcd_ << "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
    for (unsigned sm = 0; sm < num_sms_; ++sm) {
      if (!traced(sm)) continue;
      vcd_ << "b0 " << vcd_id(2 * sm) << "\nb0 " << vcd_id(2 * sm + 1) << "\n";
    }
    vcd_ << "$end\n";
  }
  // A CTA's start is recorded at the next cycle, so changes of one launch may
  // come slightly out of order; launches follow each other in time, so
  // sorting each launch's changes sorts the file.
  std::stable_sort(changes_.begin(), changes_.end(), [](const Change& a, const Change& b) { return a.cycle < b.cycle; });
  for (const Change& c : changes_) {
    const uint64_t ps = static_cast<uint64_t>(static_cast<double>(c.cycle) * ns_per_cycle_ * 1000.0 + 0.5);
    if (ps != vcd_last_ps_) {
      vcd_ << "#" << ps << "\n";
      vcd_last_ps_ = ps;
    }
    vcd_ << "b" << binary(c.ctas) << " " << vcd_id(2 * c.sm) << "\n";
    vcd_ << "b" << binary(c.warps) << " " << vcd_id(2 * c.sm + 1) << "\n";
  }
  changes_.clear();
  check_written(vcd_, vcd_path_);
}

void TraceWriter::append_timeline() {
  if (!timeline_.is_open()) {
    open_trace(timeline_, timeline_path_);
    timeline_ << "{\"traceEvents\": [\n";
    auto meta = [&](int tid, const std::string& name) {
      nlohmann::ordered_json e;
      e["name"] = "thread_name";
      e["ph"] = "M";
      e["pid"] = 0;
      e["tid"] = tid;
      e["args"]["name"] = name;
      if (tid != 0) timeline_ << ",\n";
      timeline_ << e.dump();
    };
    meta(0, "kernels");
    for (unsigned sm = 0; sm < num_sms_; ++sm) meta(static_cast<int>(sm) + 1, "sm[" + std::to_string(sm) + "]");
  } else {
    timeline_.seekp(timeline_tail_);  // overwrite the closing brackets
  }
  const double us = ns_per_cycle_ / 1000.0;
  for (const Span& s : spans_) {
    nlohmann::ordered_json e;
    e["name"] = s.name;
    e["cat"] = s.track < 0 ? "kernel" : "cta";
    e["ph"] = "X";
    e["pid"] = 0;
    e["tid"] = s.track + 1;
    e["ts"] = static_cast<double>(s.begin) * us;
    e["dur"] = static_cast<double>(s.end - s.begin) * us;
    e["args"]["begin_cycle"] = s.begin;
    e["args"]["end_cycle"] = s.end;
    timeline_ << ",\n" << e.dump();
  }
  spans_.clear();
  for (const Power& p : powers_) {
    nlohmann::ordered_json e;
    e["name"] = "power";
    e["ph"] = "C";
    e["pid"] = 0;
    e["ts"] = static_cast<double>(p.cycle) * us;
    e["args"]["dynamic_w"] = p.dynamic_w;
    e["args"]["leakage_w"] = p.leakage_w;
    timeline_ << ",\n" << e.dump();
  }
  powers_.clear();
  timeline_tail_ = timeline_.tellp();
  timeline_ << kTimelineClose;
  check_written(timeline_, timeline_path_);
}

void TraceWriter::write() {
  if (!vcd_path_.empty()) append_vcd();
  if (!timeline_path_.empty()) append_timeline();
}

}  // namespace simtlm::platforms
