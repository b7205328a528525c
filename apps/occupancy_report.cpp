#include "apps/occupancy_report.h"

#include "models/sm/occupancy.h"
#include "models/sm/sm_params.h"
#include "models/vws/vws_params.h"

namespace simtlm::cli {

namespace {

nlohmann::ordered_json bound_json(uint32_t n) {
  return n >= models::kUnbounded ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(n);
}

std::string bound_text(uint32_t n) { return n >= models::kUnbounded ? "-" : std::to_string(n); }

nlohmann::ordered_json sharing_json(const models::SharingOccupancy& s, double threshold, uint64_t units,
                                    uint64_t storage_bits) {
  nlohmann::ordered_json j;
  j["enabled"] = s.enabled;
  j["ctas"] = s.ctas;
  j["pairs"] = s.pairs;
  j["unshared"] = s.unshared;
  j["threshold"] = threshold;
  j["units_per_cta"] = units;
  j["unshared_fit"] = bound_json(s.unshared_fit);
  j["pairs_fit"] = s.pairs_fit;
  j["cap"] = bound_json(s.cap);
  j["storage_bits_per_sm"] = storage_bits;
  return j;
}

void print_sharing(std::ostream& out, const std::string& indent, const char* what, const char* unit,
                   const models::SharingOccupancy& s, double threshold, uint64_t units, uint64_t storage_bits) {
  out << indent << what << " sharing (t = " << threshold << "): ";
  if (s.enabled) {
    out << "enabled, " << s.ctas << " CTAs launched = " << s.pairs << " shared pairs + " << s.unshared
        << " unshared";
  } else {
    out << "not enabled (" << s.ctas << " CTAs, all unshared)";
  }
  out << "; " << units << " " << unit << "/CTA, F = " << bound_text(s.unshared_fit) << ", S = " << s.pairs_fit
      << ", cap = " << bound_text(s.cap) << "; tables " << storage_bits << " bits/SM\n";
}

}  // namespace

nlohmann::ordered_json occupancy_json(const models::SmParams& params, const models::CtaShape& shape,
                                      const models::OccupancyReport& r) {
  nlohmann::ordered_json j;
  j["cta"] = {{"threads", shape.threads},
              {"warps", shape.warps},
              {"registers_per_thread", shape.regs_per_thread},
              {"shared_bytes", shape.shared_bytes}};
  j["baseline"] = {{"ctas", r.baseline_ctas},
                   {"limiter", r.limiter},
                   {"by_threads", bound_json(r.by_threads)},
                   {"by_cta_slots", bound_json(r.by_cta_slots)},
                   {"by_registers", bound_json(r.by_registers)},
                   {"by_shared_memory", bound_json(r.by_shared_memory)}};
  j["register_sharing"] =
      sharing_json(r.registers, params.register_sharing_threshold, models::register_units(params, shape),
                   models::register_sharing_storage_bits(params.max_ctas, params.max_warps()));
  j["scratchpad_sharing"] =
      sharing_json(r.shared_memory, params.shared_sharing_threshold, models::shared_units(params, shape),
                   models::scratchpad_sharing_storage_bits(params.max_ctas, params.max_warps()));
  return j;
}

void print_occupancy_report(std::ostream& out, const models::SmParams& params, const models::CtaShape& shape,
                            const models::OccupancyReport& r, const std::string& indent) {
  out << indent << "CTA: " << shape.threads << " threads (" << shape.warps << " warps), " << shape.regs_per_thread
      << " registers/thread, " << shape.shared_bytes << " B shared memory\n";
  out << indent << "SM: " << params.registers << " registers, " << params.shared_memory_bytes
      << " B shared memory, " << params.max_threads << " threads, " << params.max_ctas << " CTA slots\n";
  if (r.baseline_ctas == 0) {
    out << indent << "Baseline: 0 CTAs/SM (the CTA does not fit on an empty SM)\n";
    return;
  }
  out << indent << "Baseline: " << r.baseline_ctas << " CTAs/SM, limited by " << r.limiter << " (threads "
      << bound_text(r.by_threads) << ", CTA slots " << bound_text(r.by_cta_slots) << ", registers "
      << bound_text(r.by_registers) << ", shared memory " << bound_text(r.by_shared_memory) << ")\n";
  print_sharing(out, indent, "Register", "registers", r.registers, params.register_sharing_threshold,
                models::register_units(params, shape),
                models::register_sharing_storage_bits(params.max_ctas, params.max_warps()));
  print_sharing(out, indent, "Scratchpad", "bytes", r.shared_memory, params.shared_sharing_threshold,
                models::shared_units(params, shape),
                models::scratchpad_sharing_storage_bits(params.max_ctas, params.max_warps()));
}

void print_ptx_occupancy(std::ostream& out, const ir::Module& module, const std::string& kernel,
                         const Config& config, uint32_t threads, bool json) {
  const models::SmParams params = models::vws::platform_sm_params(config, 0);
  nlohmann::ordered_json all = nlohmann::ordered_json::object();
  for (const ir::Function& f : module.functions) {
    if (!f.is_entry || (!kernel.empty() && f.name != kernel)) continue;
    if (!f.rejected.empty()) {  // its register count is unknown
      if (json) all[f.name] = {{"rejected", f.rejected}};
      else out << "kernel " << f.name << "\n  rejected: " << f.rejected << "\n";
      continue;
    }
    const models::CtaShape shape =
        models::cta_shape(threads, params.warp_size, f.analysis.regs_per_thread, f.static_shared_bytes);
    const models::OccupancyReport report = models::occupancy_report(params, shape);
    if (json) {
      all[f.name] = occupancy_json(params, shape, report);
    } else {
      out << "kernel " << f.name << "\n";
      print_occupancy_report(out, params, shape, report, "  ");
    }
  }
  if (json) out << all.dump(2) << "\n";
}

}  // namespace simtlm::cli
