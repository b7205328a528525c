#include "models/power/energy_account.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::power {

using nlohmann::ordered_json;

EnergyTable energy_table_from_config(const Config& cfg) {
  auto pj = [&](const char* k) { return cfg.f64(std::string("gpu.power.energy_pj.") + k) * 1e-12; };
  EnergyTable t;
  t.ibuffer_access = pj("ibuffer_access");
  t.icache_access = pj("icache_access");
  t.icache_miss = pj("icache_miss");
  t.l1d_read = pj("l1d_read");
  t.l1d_write = pj("l1d_write");
  t.l1d_fill = pj("l1d_fill");
  t.const_access = pj("const_access");
  t.const_miss = pj("const_miss");
  t.smem_pass = pj("smem_pass");
  t.reg_read = pj("reg_read");
  t.reg_write = pj("reg_write");
  t.int_op = pj("int_op");
  t.fp_op = pj("fp_op");
  t.dp_op = pj("dp_op");
  t.sfu_op = pj("sfu_op");
  t.schedule = pj("schedule");
  t.pipeline = pj("pipeline");
  t.l2_read = pj("l2_read");
  t.l2_write = pj("l2_write");
  t.l2_fill = pj("l2_fill");
  t.noc_flit = pj("noc_flit");
  t.mc_request = pj("mc_request");
  t.dram_activate = pj("dram_activate");
  t.dram_read_burst = pj("dram_read_burst");
  t.dram_write_burst = pj("dram_write_burst");
  t.pcrf_access = pj("pcrf_access");
  t.vector_lookup = pj("vector_lookup");
  t.staging_access = pj("staging_access");
  t.cb_access = t.smem_pass;  // a CB is modelled exactly like the shared memory (Rajasree §5.2.1)
  t.const_dynamic_w = cfg.f64("gpu.power.const_dynamic_w");
  t.idle_sm_w = cfg.f64("gpu.power.idle_sm_w");
  t.dram_refresh_w = cfg.f64("gpu.power.dram_refresh_w");
  return t;
}

namespace {

// The SM statistics the account reads (each must exist for SM 0).
const char* const kSmStats[] = {"fetches",      "warp_instructions", "icache_hits",   "icache_misses", "const_hits",
                                "const_misses", "smem_passes",       "regfile_reads", "regfile_writes", "class_int",
                                "class_fp",     "class_dp",          "class_sfu",     "active_cycles"};

}  // namespace

EnergyAccount::EnergyAccount(const Config& cfg, const stats::Registry& registry, const std::string& top,
                             unsigned num_sms, double core_mhz)
    : registry_(&registry), top_(top + "."), num_sms_(num_sms), core_mhz_(core_mhz),
      table_(energy_table_from_config(cfg)) {
  for (const char* s : kSmStats) {
    if (!registry.contains(top_ + "sm[0]." + s)) {
      throw Error(ErrorKind::Internal, "energy model: statistic " + top_ + "sm[0]." + s + " is not registered");
    }
  }
  if (!registry.contains(top_ + "cycles")) {
    throw Error(ErrorKind::Internal, "energy model: statistic " + top_ + "cycles is not registered");
  }
  auto leak = [&](const char* k) { return cfg.f64(std::string("gpu.power.leakage_w.") + k); };
  add_instances("sm_logic", leak("sm_logic"), num_sms);
  add_instances("regfile", leak("regfile"), num_sms);
  add_instances("smem", leak("smem"), num_sms);
  if (registry.contains(top_ + "sm[0].l1d.reads")) add_instances("l1d", leak("l1d"), num_sms);
  l2_slices_ = static_cast<unsigned>(registry.match(top_ + "l2[*].reads").size());
  add_instances("l2_slice", leak("l2_slice"), l2_slices_);
  if (registry.contains(top_ + "noc.flits")) add_instances("noc", leak("noc"), 1);
  const auto channels = static_cast<unsigned>(registry.match(top_ + "dram[*].reads").size());
  add_instances("mc", leak("mc"), channels);
  dram_channels_ = channels;
  // The spu platform's interface units and communication buffers.
  // (Matched only where the first exists: a match scans every name.)
  if (registry.contains(top_ + "spu.iu[0].warp_instructions")) {
    ius_ = static_cast<unsigned>(registry.match(top_ + "spu.iu[*].warp_instructions").size());
  }
  if (registry.contains(top_ + "spu.cb[0].writes")) {
    cb_links_ = static_cast<unsigned>(registry.match(top_ + "spu.cb[*].writes").size());
  }
  // DMA IUs (spu.iu.kind = dma) leak as their own block: an FSM, not a truncated SM.
  if (cfg.str("spu.iu.kind") == "dma") {
    add_instances("dma_iu", cfg.f64("spu.power.dma_iu_leakage_w"), ius_);
  } else {
    add_instances("iu", cfg.f64("spu.power.iu_leakage_w"), ius_);
  }
  add_instances("cb", cfg.f64("spu.power.cb_leakage_w_per_kb") * static_cast<double>(cfg.u32("spu.cb_bytes")) / 1024.0, 2 * cb_links_);

  // SM events: the grid's SMs and, on the spu platform, the interface units.
  auto sm_source = [&](double Activity::*field, std::vector<std::string> patterns) {
    const size_t n = patterns.size();
    for (size_t i = 0; i < n; ++i) patterns.push_back("spu.iu" + patterns[i].substr(2));  // sm[*].x -> spu.iu[*].x
    add_source(field, patterns);
  };
  sm_source(&Activity::fetches, {"sm[*].fetches"});
  sm_source(&Activity::issued, {"sm[*].warp_instructions"});
  sm_source(&Activity::icache_misses, {"sm[*].icache_misses"});
  sm_source(&Activity::icache_accesses, {"sm[*].icache_hits", "sm[*].icache_misses"});
  sm_source(&Activity::const_misses, {"sm[*].const_misses"});
  sm_source(&Activity::const_accesses, {"sm[*].const_hits", "sm[*].const_misses"});
  sm_source(&Activity::smem_passes, {"sm[*].smem_passes"});
  sm_source(&Activity::reg_reads, {"sm[*].regfile_reads"});
  sm_source(&Activity::reg_writes, {"sm[*].regfile_writes"});
  sm_source(&Activity::int_ops, {"sm[*].class_int"});
  sm_source(&Activity::fp_ops, {"sm[*].class_fp"});
  sm_source(&Activity::dp_ops, {"sm[*].class_dp"});
  sm_source(&Activity::sfu_ops, {"sm[*].class_sfu"});
  sm_source(&Activity::l1d_reads, {"sm[*].l1d.reads"});
  sm_source(&Activity::l1d_writes, {"sm[*].l1d.writes"});
  sm_source(&Activity::l1d_fills, {"sm[*].l1d.fills"});
  add_source(&Activity::cb_accesses, {"spu.cb[*].writes", "spu.cb[*].reads"});
  add_source(&Activity::l2_reads, {"l2[*].reads"});
  add_source(&Activity::l2_writes, {"l2[*].writes"});
  add_source(&Activity::l2_fills, {"l2[*].fills"});
  add_source(&Activity::noc_flits, {"noc.flits"});
  add_source(&Activity::mc_requests, {"dram[*].reads", "dram[*].writes"});
  add_source(&Activity::dram_activates, {"dram[*].activates"});
  add_source(&Activity::dram_read_bursts, {"dram[*].read_bursts"});
  add_source(&Activity::dram_write_bursts, {"dram[*].write_bursts"});
  active_cycles_ = names_of("sm[*].active_cycles");
  // CTA switching (docs/finereg.md "Energy"): FineReg moves live
  // warp-registers ACRF -> staging buffer -> PCRF and back; VT and Reg+DRAM
  // move pipeline contexts through shared memory (128 B per pass) and
  // Reg+DRAM whole register contexts off chip.
  const std::string fr = "sm[*].regfile.finereg.", vt = "sm[*].regfile.vt.", rd = "sm[*].regfile.regdram.";
  add_source(&Activity::pcrf_accesses, {fr + "registers_out", fr + "registers_in"});
  add_source(&Activity::vector_lookups, {fr + "vector_hits", fr + "vector_misses"});
  add_source(&Activity::staging_passes, {fr + "registers_out"});
  add_source(&Activity::switch_reg_reads, {fr + "registers_out", rd + "offchip_regs_out"});
  add_source(&Activity::switch_reg_writes, {fr + "registers_in", rd + "offchip_regs_in"});
  add_source(&Activity::context_smem_passes, {fr + "context_passes", vt + "context_passes", rd + "context_passes"});
  switching_ = !names_of(fr + "switches_out").empty() || !names_of(vt + "switches_out").empty() ||
               !names_of(rd + "switches_out").empty();
  // The storage a switching allocator adds (its storage_bits: FineReg's
  // PCRF tags, pointer table, status monitor, vector cache, staging buffer
  // and VT's switching logic; VT's and Reg+DRAM's logic) leaks like the
  // register file per byte [assumption: SRAM of the same kind].
  if (switching_) {
    const double rf_bytes = 4.0 * cfg.u32("gpu.sm.registers");
    const stats::Values now = registry.capture();
    for (const std::string* policy : {&fr, &vt, &rd}) {
      for (const std::string& name : names_of(*policy + "storage_bits")) {
        add_instances("switch_storage", leak("regfile") * registry.value(name, now) / 8.0 / rf_bytes, 1);
      }
    }
  }

  // Blocks reporting reduced-leakage residency: <top>.power.residency.<block>[i].reduced_seconds.
  const std::string prefix = top_ + "power.residency.";
  const std::string suffix = ".reduced_seconds";
  for (const std::string& name : registry.names()) {
    if (name.compare(0, prefix.size(), prefix) != 0 || name.size() < prefix.size() + suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const std::string id = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());  // regfile[3]
    const std::size_t bracket = id.find('[');
    const std::string block = id.substr(0, bracket);
    const unsigned index = bracket == std::string::npos ? 0u : static_cast<unsigned>(std::stoul(id.substr(bracket + 1)));
    unsigned seen = 0;
    bool found = false;
    for (Instance& in : instances_) {
      if (in.block != block) continue;
      if (seen++ == index) {
        in.residency = prefix + id + ".";
        found = true;
        break;
      }
    }
    if (!found) {
      throw Error(ErrorKind::Internal, "energy model: " + name + " names no leakage block instance (blocks: "
                                                                 "sm_logic, regfile, smem, l1d, l2_slice, noc, mc)");
    }
  }
}

void EnergyAccount::add_instances(const std::string& block, double watts, unsigned count) {
  for (unsigned i = 0; i < count; ++i) instances_.push_back(Instance{block, watts, {}});
}

std::vector<std::string> EnergyAccount::names_of(const std::string& pattern) const {
  // "sm[*].x" names SMs 0..num_sms-1 (instances without the statistic, e.g. no
  // L1D, are left out), "l2[*].x" the slices, "dram[*].x" the channels: built
  // from the instance counts, not matched against every name of the tree.
  std::vector<std::string> names;
  const std::size_t star = pattern.find("[*]");
  if (star == std::string::npos) {
    if (registry_->contains(top_ + pattern)) names.push_back(top_ + pattern);
    return names;
  }
  const std::string group = pattern.substr(0, star);
  const unsigned count = group == "sm"       ? num_sms_
                         : group == "l2"     ? l2_slices_
                         : group == "spu.iu" ? ius_
                         : group == "spu.cb" ? cb_links_
                                             : dram_channels_;
  for (unsigned i = 0; i < count; ++i) {
    std::string name = top_ + group + "[" + std::to_string(i) + "]" + pattern.substr(star + 3);
    if (registry_->contains(name)) names.push_back(std::move(name));
  }
  return names;
}

void EnergyAccount::add_source(double Activity::*field, const std::vector<std::string>& patterns) {
  Source src{field, {}};
  for (const std::string& p : patterns) {
    for (std::string& name : names_of(p)) src.names.push_back(std::move(name));
  }
  sources_.push_back(std::move(src));
}

double EnergyAccount::sum(const std::vector<std::string>& names, const stats::Values& v) const {
  double s = 0;
  for (const std::string& name : names) s += registry_->value(name, v);
  return s;
}

bool EnergyAccount::reports(Component c) const {
  if (c == Component::CBP) return cb_links_ != 0;
  return switching_ || (c != Component::FINEREGP && c != Component::SWITCHP);
}

double EnergyAccount::leakage_power_w() const {
  double w = 0;
  for (const Instance& in : instances_) w += in.watts;
  return w;
}

Activity EnergyAccount::activity(const stats::Values& v, uint64_t cycles) const {
  Activity a;
  for (const Source& src : sources_) a.*(src.field) = sum(src.names, v);
  a.dram_channels = dram_channels_;
  a.seconds = seconds_of(cycles);
  // A window is launch time (kernel windows, power-trace intervals), during
  // which the GPU runs a kernel: constant dynamic power for all of it, idle
  // power for every SM without a resident CTA. Both add up over windows.
  a.busy_seconds = a.seconds;
  const double idle_sm_cycles = static_cast<double>(cycles) * num_sms_ - sum(active_cycles_, v);
  a.idle_sm_seconds = std::max(0.0, idle_sm_cycles) / (core_mhz_ * 1e6);
  return a;
}

std::vector<LeakageShare> EnergyAccount::leakage(const stats::Values& v) const {
  std::vector<LeakageShare> out;
  out.reserve(instances_.size());
  for (const Instance& in : instances_) {
    LeakageShare s;
    s.block = in.block;
    s.watts = in.watts;
    if (!in.residency.empty()) {
      s.reduced_seconds = registry_->value(in.residency + "reduced_seconds", v);
      s.reduced_ratio = registry_->value(in.residency + "reduced_ratio", v);
    }
    out.push_back(std::move(s));
  }
  return out;
}

EnergyBreakdown EnergyAccount::energy(const stats::Values& v, uint64_t cycles) const {
  return energy_of(table_, activity(v, cycles), leakage(v));
}

ordered_json EnergyAccount::window_json(const stats::Values& v) const {
  const auto cycles = static_cast<uint64_t>(registry_->value(top_ + "cycles", v));
  const Activity a = activity(v, cycles);
  const EnergyBreakdown e = energy_of(table_, a, leakage(v));
  const double instructions = a.issued;
  ordered_json j;
  j["cycles"] = cycles;
  j["seconds"] = e.seconds;
  j["warp_instructions"] = static_cast<uint64_t>(instructions);
  ordered_json dyn = ordered_json::object();
  for (std::size_t c = 0; c < kComponents; ++c) {
    if (reports(static_cast<Component>(c))) dyn[component_name(static_cast<Component>(c))] = e.dynamic_j[c];
  }
  j["dynamic_j"] = std::move(dyn);
  ordered_json leak = ordered_json::object();
  for (const auto& [block, joules] : e.leakage_j) leak[block] = joules;
  j["leakage_j"] = std::move(leak);
  j["dynamic_total_j"] = e.dynamic_total_j();
  j["leakage_total_j"] = e.leakage_total_j();
  j["total_j"] = e.total_j();
  const bool timed = e.seconds > 0;
  j["average_power_w"] = timed ? ordered_json(e.average_power_w()) : ordered_json(nullptr);
  j["dynamic_power_w"] = timed ? ordered_json(e.dynamic_total_j() / e.seconds) : ordered_json(nullptr);
  j["leakage_power_w"] = timed ? ordered_json(e.leakage_total_j() / e.seconds) : ordered_json(nullptr);
  j["energy_per_warp_instruction_nj"] =
      instructions > 0 ? ordered_json(e.total_j() / instructions * 1e9) : ordered_json(nullptr);
  return j;
}

ordered_json EnergyAccount::report_json(const stats::KernelRecorder& recorder) const {
  ordered_json out;
  out["format"] = "simtlm-energy/1";
  out["units"] = "energies in J, powers in W, energy per warp instruction in nJ";
  ordered_json kernels = ordered_json::array();
  for (const stats::KernelRecorder::Record& r : recorder.kernels()) {
    if (!r.finished) continue;
    ordered_json k;
    k["index"] = r.index;
    k["kernel"] = r.kernel;
    const ordered_json w = window_json(r.values);
    for (auto it = w.begin(); it != w.end(); ++it) k[it.key()] = it.value();
    kernels.push_back(std::move(k));
  }
  out["kernels"] = std::move(kernels);
  out["total"] = window_json(recorder.total());
  return out;
}

}  // namespace simtlm::power
