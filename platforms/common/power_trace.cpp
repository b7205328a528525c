#include "platforms/common/power_trace.h"

#include <cstdio>

#include "platforms/common/traces.h"
#include "simtlm/error.h"

namespace simtlm::platforms {

PowerTrace::PowerTrace(const power::EnergyAccount& account, const stats::Registry& registry, std::string csv_path,
                       uint64_t interval_cycles, TraceWriter& traces)
    : account_(&account), registry_(&registry), csv_path_(std::move(csv_path)), interval_(interval_cycles),
      traces_(&traces) {
  // Opened when the platform is built: a path that cannot be written fails
  // before any launch, not in the middle of one.
  if (csv_path_.empty()) return;
  csv_.open(csv_path_, std::ios::out | std::ios::trunc);
  if (!csv_) throw Error(ErrorKind::Input, "cannot write the power trace " + csv_path_ + " (sim.trace.power_file)");
  csv_ << "kernel,begin_cycle,end_cycle,seconds,total_w,dynamic_w,leakage_w";
  for (std::size_t c = 0; c < power::kComponents; ++c) {
    if (account.reports(static_cast<power::Component>(c)))
      csv_ << ',' << power::component_name(static_cast<power::Component>(c)) << "_w";
  }
  csv_ << '\n';
}

void PowerTrace::begin(const std::string& kernel, uint64_t cycle) {
  kernel_ = kernel;
  last_cycle_ = cycle;
  last_ = registry_->capture();
}

void PowerTrace::sample(uint64_t cycle) {
  if (cycle <= last_cycle_) return;
  const stats::Values window = registry_->since(last_);
  const power::EnergyBreakdown e = account_->energy(window, cycle - last_cycle_);
  const double s = e.seconds;
  const double dynamic_w = e.dynamic_total_j() / s;
  const double leakage_w = e.leakage_total_j() / s;
  traces_->power_sample(last_cycle_, dynamic_w, leakage_w);
  if (csv_.is_open()) {
    char buf[64];
    auto num = [&](double x) {
      std::snprintf(buf, sizeof buf, "%.6g", x);
      return std::string(buf);
    };
    csv_ << kernel_ << ',' << last_cycle_ << ',' << cycle << ',' << num(s) << ',' << num(dynamic_w + leakage_w)
         << ',' << num(dynamic_w) << ',' << num(leakage_w);
    for (std::size_t c = 0; c < power::kComponents; ++c) {
      if (account_->reports(static_cast<power::Component>(c))) csv_ << ',' << num(e.dynamic_j[c] / s);
    }
    csv_ << '\n';
  }
  last_cycle_ = cycle;
  last_ = registry_->capture();
}

void PowerTrace::end(uint64_t cycle) {
  sample(cycle);
  traces_->power_sample(cycle, 0.0, 0.0);  // nothing runs between launches
  if (csv_.is_open()) {
    csv_.flush();
    if (!csv_) throw Error(ErrorKind::Input, "cannot write the power trace " + csv_path_ + " (sim.trace.power_file)");
  }
}

}  // namespace simtlm::platforms
