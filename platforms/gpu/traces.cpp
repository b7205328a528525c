#include "platforms/gpu/traces.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "simtlm/error.h"

namespace simtlm::platforms {

namespace {

void write_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw Error(ErrorKind::Input, "cannot write trace file '" + path + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(ErrorKind::Input, "cannot write trace file '" + path + "': " + ec.message());
}

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

std::string TraceWriter::vcd_text() const {
  std::ostringstream os;
  os << "$date simtlm $end\n$version simtlm timing model $end\n";
  // One VCD time unit = one core cycle expressed in ps of simulated time.
  os << "$timescale 1 ps $end\n$scope module gpu $end\n";
  for (unsigned sm = 0; sm < num_sms_; ++sm) {
    if (!traced(sm)) continue;
    os << "$scope module sm_" << sm << " $end\n";
    os << "$var wire 16 " << vcd_id(2 * sm) << " resident_ctas $end\n";
    os << "$var wire 16 " << vcd_id(2 * sm + 1) << " resident_warps $end\n";
    os << "$upscope $end\n";
  }
  os << "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (unsigned sm = 0; sm < num_sms_; ++sm) {
    if (!traced(sm)) continue;
    os << "b0 " << vcd_id(2 * sm) << "\nb0 " << vcd_id(2 * sm + 1) << "\n";
  }
  os << "$end\n";
  std::vector<Change> sorted = changes_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Change& a, const Change& b) { return a.cycle < b.cycle; });
  uint64_t last = ~0ull;
  for (const Change& c : sorted) {
    const uint64_t ps = static_cast<uint64_t>(static_cast<double>(c.cycle) * ns_per_cycle_ * 1000.0 + 0.5);
    if (ps != last) {
      os << "#" << ps << "\n";
      last = ps;
    }
    os << "b" << binary(c.ctas) << " " << vcd_id(2 * c.sm) << "\n";
    os << "b" << binary(c.warps) << " " << vcd_id(2 * c.sm + 1) << "\n";
  }
  return os.str();
}

std::string TraceWriter::timeline_text() const {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  auto meta = [&](int tid, const std::string& name) {
    nlohmann::ordered_json e;
    e["name"] = "thread_name";
    e["ph"] = "M";
    e["pid"] = 0;
    e["tid"] = tid;
    e["args"]["name"] = name;
    events.push_back(e);
  };
  meta(0, "kernels");
  for (unsigned sm = 0; sm < num_sms_; ++sm) meta(static_cast<int>(sm) + 1, "sm[" + std::to_string(sm) + "]");
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
    events.push_back(e);
  }
  nlohmann::ordered_json doc;
  doc["traceEvents"] = events;
  doc["displayTimeUnit"] = "ns";
  return doc.dump(1) + "\n";
}

void TraceWriter::write() const {
  if (!vcd_path_.empty()) write_atomic(vcd_path_, vcd_text());
  if (!timeline_path_.empty()) write_atomic(timeline_path_, timeline_text());
}

}  // namespace simtlm::platforms
