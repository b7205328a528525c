// The energy lines of the readable run summary (kept apart from the other
// summary lines, platform_stats.cpp): the run's total with its split into
// dynamic and leakage, average power and energy per warp instruction, the
// largest components, and one line per kernel name (launches of a kernel
// summed).
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "models/power/energy_account.h"
#include "platforms/common/platform.h"
#include "platforms/common/summary_format.h"

namespace simtlm::platforms {

namespace {

std::string joules(double j) {
  char buf[64];
  if (j >= 1.0) {
    std::snprintf(buf, sizeof buf, "%.4g J", j);
  } else if (j >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.4g mJ", j * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g uJ", j * 1e6);
  }
  return buf;
}

std::string watts(double joules_, double seconds) {
  return seconds > 0 ? summary_number(joules_ / seconds, 1) + " W" : std::string("n/a");
}

std::string per_instruction(double joules_, double instructions) {
  return instructions > 0 ? summary_number(joules_ / instructions * 1e9, 2) + " nJ/warp instr" : std::string("n/a");
}

}  // namespace

std::string Platform::energy_summary() const {
  if (!energy_) return "";
  const stats::Registry& r = *registry_;
  const std::string top = std::string(name()) + ".";
  std::ostringstream os;
  auto line = [&os](const std::string& label, const std::string& text) {
    os << "  " << label << std::string(label.size() < 24 ? 24 - label.size() : 1, ' ') << text << "\n";
  };
  // A window's energy and its warp instructions.
  auto energy_of = [&](const stats::Values& v, double& instructions) {
    const power::Activity a = energy_->activity(v, static_cast<uint64_t>(r.value(top + "cycles", v)));
    instructions = a.issued;
    return power::energy_of(energy_->table(), a, energy_->leakage(v));
  };
  double instructions = 0;
  const power::EnergyBreakdown e = energy_of(recorder_->total(), instructions);
  os << "energy (all launches)\n";
  line("energy", joules(e.total_j()) + " (dynamic " + joules(e.dynamic_total_j()) + ", leakage " +
                     joules(e.leakage_total_j()) + ")");
  line("average power", watts(e.total_j(), e.seconds) + " (dynamic " + watts(e.dynamic_total_j(), e.seconds) +
                            ", leakage " + watts(e.leakage_total_j(), e.seconds) + ")");
  line("energy per instruction", per_instruction(e.total_j(), instructions));
  // Components by dynamic energy, largest first (zero ones left out).
  std::vector<std::size_t> order;
  for (std::size_t c = 0; c < power::kComponents; ++c) {
    if (e.dynamic_j[c] > 0) order.push_back(c);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e.dynamic_j[a] > e.dynamic_j[b]; });
  std::string parts;
  const double dyn = e.dynamic_total_j();
  for (std::size_t c : order) {
    parts += std::string(parts.empty() ? "" : ", ") + power::component_name(static_cast<power::Component>(c)) + " " +
             summary_percent(e.dynamic_j[c] / dyn);
  }
  if (!parts.empty()) line("dynamic by component", parts);

  // Per kernel name, launches summed, in order of first launch.
  struct Kernel {
    std::string name;
    double joules = 0, seconds = 0, instructions = 0;
    unsigned launches = 0;
  };
  std::vector<Kernel> kernels;
  for (const stats::KernelRecorder::Record& k : recorder_->kernels()) {
    if (!k.finished) continue;
    auto it = std::find_if(kernels.begin(), kernels.end(), [&](const Kernel& x) { return x.name == k.kernel; });
    if (it == kernels.end()) it = kernels.insert(kernels.end(), Kernel{k.kernel});
    double launched = 0;
    const power::EnergyBreakdown ke = energy_of(k.values, launched);
    it->joules += ke.total_j();
    it->seconds += ke.seconds;
    it->instructions += launched;
    ++it->launches;
  }
  if (kernels.size() > 1 || recorder_->dropped() > 0) {
    for (const Kernel& k : kernels) {
      line("kernel " + k.name, joules(k.joules) + ", " + watts(k.joules, k.seconds) + ", " +
                                   per_instruction(k.joules, k.instructions) + " (" + std::to_string(k.launches) +
                                   (k.launches == 1 ? " launch)" : " launches)"));
    }
  }
  return os.str();
}

}  // namespace simtlm::platforms
