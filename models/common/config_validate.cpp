// Cross-key rules of a configuration: geometry, divisibility and consistency
// between blocks. Per-key type and range checks happen when a value is set.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/config_detail.h"
#include "simtlm/config.h"

namespace simtlm {
namespace {

bool pow2(std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

class Rules {
 public:
  explicit Rules(const Config& cfg) : c_(cfg) {}

  std::uint64_t u(const std::string& key) const { return c_.u64(key); }
  std::string v(const std::string& key) const { return format_config_value(c_.value(key)); }

  // One error naming the rule and where each involved key was set.
  [[noreturn]] void fail(const std::vector<std::string>& keys, const std::string& message) const {
    std::vector<std::string> where;
    for (const std::string& k : keys) where.push_back(k + " = " + v(k) + " from " + c_.origin(k));
    throw Error(ErrorKind::Config, "invalid configuration: " + message + " [" + config_detail::join(where, "; ") + "]");
  }

  void require(bool ok, const std::vector<std::string>& keys, const std::string& message) const {
    if (!ok) fail(keys, message);
  }

  void power_of_two(const std::string& key) const {
    require(pow2(u(key)), {key}, key + " must be a power of two");
  }

  // sets/ways/line geometry of one cache; sector checks when the cache is sectored.
  void cache(const std::string& prefix, bool sectored, bool has_size_key) const {
    const std::string sets = prefix + ".sets", ways = prefix + ".ways", line = prefix + ".line_bytes";
    power_of_two(sets);
    power_of_two(line);
    if (sectored) {
      const std::string sector = prefix + ".sector_bytes";
      power_of_two(sector);
      require(u(sector) <= u(line), {sector, line}, sector + " must not exceed " + line);
      require(u(line) / u(sector) <= 32, {sector, line},
              prefix + " has more than 32 sectors per line (" + line + " / " + sector + ")");
    }
    if (has_size_key) {
      const std::string size = prefix + ".size_bytes";
      const std::uint64_t product = u(sets) * u(ways) * u(line);
      require(u(size) == 0 || u(size) == product, {size, sets, ways, line},
              size + " = " + v(size) + " does not match " + sets + " x " + ways + " x " + line + " = " + v(sets) +
                  " x " + v(ways) + " x " + v(line) + " = " + std::to_string(product) +
                  " (set " + size + " = 0 to derive it)");
    }
  }

 private:
  const Config& c_;
};

// Variable warp sizing (gpu.vws.*, models/vws/): its keys only mean something
// on the vws platform, whose SM shape they fix together with gpu.sm.*.
void vws_rules(const Config& c, const Rules& r) {
  static const std::vector<std::string> kKeys = {"gpu.vws.mode", "gpu.vws.slices", "gpu.vws.slice_width",
                                                 "gpu.vws.fetches_per_cycle", "gpu.vws.coalesce_same_cycle",
                                                 "gpu.vws.gangs_per_cycle", "gpu.vws.gang_order",
                                                 "gpu.vws.split_memory", "gpu.vws.reform",
                                                 "gpu.vws.l0_bytes"};
  if (c.str("sim.platform") != "vws") {
    for (const std::string& k : kKeys) {
      const ConfigKey* key = find_config_key(k);
      r.require(key != nullptr && c.value(k) == key->default_value, {k, "sim.platform"},
                k + " is used by sim.platform = vws only (leave it at its default or choose vws)");
    }
    return;
  }
  // Mixed mode's warps are a slice wide, as in slice mode.
  const bool mixed = c.str("gpu.vws.mode") == "mixed";
  const bool slices = c.str("gpu.vws.mode") == "slices" || mixed;
  const std::uint64_t n = c.u64("gpu.vws.slices"), width = c.u64("gpu.vws.slice_width");
  const std::uint64_t lanes = n * width;
  r.require(lanes <= 64, {"gpu.vws.slices", "gpu.vws.slice_width"},
            "gpu.vws.slices x gpu.vws.slice_width (the SM's lanes) must not exceed 64");
  const std::uint64_t warp = slices ? width : lanes;
  r.require(c.u64("gpu.sm.warp_size") == warp, {"gpu.sm.warp_size", "gpu.vws.mode", "gpu.vws.slices", "gpu.vws.slice_width"},
            std::string("on the vws platform gpu.sm.warp_size must be ") +
                (slices ? "gpu.vws.slice_width" : "gpu.vws.slices x gpu.vws.slice_width") + " = " +
                std::to_string(warp) + " in mode " + c.str("gpu.vws.mode"));
  r.require(c.u64("gpu.sm.schedulers") == 1, {"gpu.sm.schedulers", "sim.platform"},
            "the vws SM issues one warp instruction per cycle when ganged and one per slice in slice mode: "
            "gpu.sm.schedulers must be 1 (the slices are its schedulers)");
  r.require(c.u64("gpu.sm.max_threads") % lanes == 0, {"gpu.sm.max_threads", "gpu.vws.slices", "gpu.vws.slice_width"},
            "gpu.sm.max_threads must be a multiple of gpu.vws.slices x gpu.vws.slice_width (whole original gangs)");
  const std::uint64_t fetches = c.u64("gpu.vws.fetches_per_cycle");
  r.require(fetches <= (slices ? n : 1), {"gpu.vws.fetches_per_cycle", "gpu.vws.mode", "gpu.vws.slices"},
            "gpu.vws.fetches_per_cycle allows at most one fetch per slice (1 when ganged)");
  r.require(slices || c.boolean("gpu.vws.coalesce_same_cycle"), {"gpu.vws.coalesce_same_cycle", "gpu.vws.mode"},
            "gpu.vws.coalesce_same_cycle = false only changes slice mode (ganged issues one instruction per cycle)");
  if (!mixed) {
    for (const char* k : {"gpu.vws.gangs_per_cycle", "gpu.vws.gang_order", "gpu.vws.split_memory", "gpu.vws.reform",
                         "gpu.vws.l0_bytes"}) {
      const ConfigKey* key = find_config_key(k);
      r.require(key != nullptr && c.value(k) == key->default_value, {k, "gpu.vws.mode"},
                std::string(k) + " is used by gpu.vws.mode = mixed only (the warp ganging unit)");
    }
    return;
  }
  r.require(n >= 2, {"gpu.vws.slices", "gpu.vws.mode"}, "gpu.vws.mode = mixed needs at least 2 slices to gang");
  r.require(c.u64("gpu.vws.gangs_per_cycle") <= std::max<std::uint64_t>(1, n / 2),
            {"gpu.vws.gangs_per_cycle", "gpu.vws.slices"},
            "gpu.vws.gangs_per_cycle: gangs of 2 or more slices with disjoint masks, at most gpu.vws.slices / 2 per cycle");
  r.require(c.u64("gpu.vws.l0_bytes") % 8 == 0, {"gpu.vws.l0_bytes"},
            "gpu.vws.l0_bytes must be a multiple of 8 (one instruction per L0 entry)");
  r.require(c.str("gpu.sm.regfile.alloc_policy") != "finereg", {"gpu.sm.regfile.alloc_policy", "gpu.vws.mode"},
            "gpu.vws.mode = mixed does not support CTA switching (finereg): the gang table is formed at CTA activation only");
}

}  // namespace

void Config::validate() const {
  const Rules r(*this);

  // ---- SM resources
  const std::uint64_t warp = u64("gpu.sm.warp_size");
  const std::uint64_t threads = u64("gpu.sm.max_threads");
  r.require(threads % warp == 0, {"gpu.sm.max_threads", "gpu.sm.warp_size"},
            "gpu.sm.max_threads must be a multiple of gpu.sm.warp_size");
  const std::uint64_t max_warps = threads / warp;
  r.require(u64("gpu.sm.schedulers") <= max_warps, {"gpu.sm.schedulers", "gpu.sm.max_threads", "gpu.sm.warp_size"},
            "gpu.sm.schedulers exceeds the SM's warps (max_threads / warp_size = " + std::to_string(max_warps) + ")");
  r.require(u64("gpu.sm.registers") % u64("gpu.sm.regfile.banks") == 0, {"gpu.sm.registers", "gpu.sm.regfile.banks"},
            "gpu.sm.registers must be a multiple of gpu.sm.regfile.banks");
  r.require(u64("gpu.sm.max_registers_per_thread") * warp <= u64("gpu.sm.registers"),
            {"gpu.sm.max_registers_per_thread", "gpu.sm.warp_size", "gpu.sm.registers"},
            "one warp at gpu.sm.max_registers_per_thread does not fit in gpu.sm.registers");
  const std::uint64_t smem = u64("gpu.sm.shared_memory_bytes");
  const std::uint64_t bank_row = u64("gpu.sm.smem.banks") * u64("gpu.sm.smem.bank_width_bytes");
  r.require(smem % bank_row == 0, {"gpu.sm.shared_memory_bytes", "gpu.sm.smem.banks", "gpu.sm.smem.bank_width_bytes"},
            "gpu.sm.shared_memory_bytes must be a multiple of smem.banks x smem.bank_width_bytes = " +
                std::to_string(bank_row));

  // ---- scheduler policies
  const std::string& policy = str("gpu.sm.scheduler.policy");
  r.require(u64("gpu.sm.scheduler.two_level.active_set_size") <= max_warps,
            {"gpu.sm.scheduler.two_level.active_set_size", "gpu.sm.max_threads", "gpu.sm.warp_size"},
            "gpu.sm.scheduler.two_level.active_set_size exceeds the SM's warps (" + std::to_string(max_warps) + ")");
  r.require(u64("gpu.sm.scheduler.swl.warp_limit") <= max_warps,
            {"gpu.sm.scheduler.swl.warp_limit", "gpu.sm.max_threads", "gpu.sm.warp_size"},
            "gpu.sm.scheduler.swl.warp_limit exceeds the SM's warps (" + std::to_string(max_warps) + ")");
  r.require(policy != "swl" || u64("gpu.sm.scheduler.swl.warp_limit") > 0,
            {"gpu.sm.scheduler.policy", "gpu.sm.scheduler.swl.warp_limit"},
            "policy swl needs gpu.sm.scheduler.swl.warp_limit > 0");
  r.require(policy == "swl" || u64("gpu.sm.scheduler.swl.warp_limit") == 0,
            {"gpu.sm.scheduler.policy", "gpu.sm.scheduler.swl.warp_limit"},
            "gpu.sm.scheduler.swl.warp_limit is used by policy swl only (set it to 0 or choose swl)");
  r.require(policy != "ccws" || boolean("gpu.l1d.enabled"), {"gpu.sm.scheduler.policy", "gpu.l1d.enabled"},
            "policy ccws detects lost locality in the L1D and needs gpu.l1d.enabled = true");
  r.require(policy != "daws" || boolean("gpu.l1d.enabled"), {"gpu.sm.scheduler.policy", "gpu.l1d.enabled"},
            "policy daws sizes loop footprints by the L1D and needs gpu.l1d.enabled = true");
  const bool profiled = str("gpu.sm.scheduler.daws.mode") == "profiled";
  const std::string& daws_profile = str("gpu.sm.scheduler.daws.profile");
  const std::string& daws_profile_out = str("gpu.sm.scheduler.daws.profile_out");
  r.require(policy != "daws" || !profiled || !daws_profile.empty(),
            {"gpu.sm.scheduler.daws.mode", "gpu.sm.scheduler.daws.profile"},
            "daws mode profiled reads its footprints from gpu.sm.scheduler.daws.profile: name the file");
  r.require(daws_profile.empty() || (policy == "daws" && profiled),
            {"gpu.sm.scheduler.daws.profile", "gpu.sm.scheduler.policy", "gpu.sm.scheduler.daws.mode"},
            "gpu.sm.scheduler.daws.profile is read by policy daws in mode profiled only");
  r.require(daws_profile_out.empty() || (policy == "daws" && !profiled),
            {"gpu.sm.scheduler.daws.profile_out", "gpu.sm.scheduler.policy", "gpu.sm.scheduler.daws.mode"},
            "gpu.sm.scheduler.daws.profile_out is written by policy daws in mode detected only");
  r.require(u64("gpu.sm.scheduler.daws.ilrd_entries") % u64("gpu.sm.scheduler.daws.ilrd_ways") == 0,
            {"gpu.sm.scheduler.daws.ilrd_entries", "gpu.sm.scheduler.daws.ilrd_ways"},
            "gpu.sm.scheduler.daws.ilrd_entries must be a multiple of gpu.sm.scheduler.daws.ilrd_ways");
  r.require(policy != "owf" || str("gpu.sm.regfile.alloc_policy") == "sharing" ||
                str("gpu.sm.smem.alloc_policy") == "sharing",
            {"gpu.sm.scheduler.policy", "gpu.sm.regfile.alloc_policy", "gpu.sm.smem.alloc_policy"},
            "policy owf (owner warp first) needs register or scratchpad sharing (alloc_policy = sharing)");
  const bool register_sharing = str("gpu.sm.regfile.alloc_policy") == "sharing";
  r.require(!boolean("gpu.sm.regfile.sharing_reorder") || register_sharing,
            {"gpu.sm.regfile.sharing_reorder", "gpu.sm.regfile.alloc_policy"},
            "gpu.sm.regfile.sharing_reorder renumbers registers for register sharing and needs "
            "gpu.sm.regfile.alloc_policy = sharing");
  r.require(!boolean("gpu.sm.regfile.sharing_dyn.enabled") || register_sharing,
            {"gpu.sm.regfile.sharing_dyn.enabled", "gpu.sm.regfile.alloc_policy"},
            "gpu.sm.regfile.sharing_dyn.enabled (Dynamic Warp Execution) throttles the warps of register-sharing "
            "pairs and needs gpu.sm.regfile.alloc_policy = sharing");
  r.require(!boolean("gpu.sm.regfile.sharing_dyn.enabled") || str("gpu.sm.smem.alloc_policy") != "sharing",
            {"gpu.sm.regfile.sharing_dyn.enabled", "gpu.sm.smem.alloc_policy"},
            "gpu.sm.regfile.sharing_dyn.enabled is defined for register sharing alone: with scratchpad sharing a "
            "throttled CTA could hold the scratchpad lock its partner waits for");
  r.require(str("frontend.relssp.placement") == "exit" || str("gpu.sm.smem.alloc_policy") == "sharing",
            {"frontend.relssp.placement", "gpu.sm.smem.alloc_policy"},
            "relssp placement releases the shared region of scratchpad sharing: it needs alloc_policy = sharing");
  r.require(str("frontend.relssp.layout") == "declared" || str("gpu.sm.smem.alloc_policy") == "sharing",
            {"frontend.relssp.layout", "gpu.sm.smem.alloc_policy"},
            "the access-range layout places variables in the shared region of scratchpad sharing: it needs "
            "alloc_policy = sharing");
  // ---- FineReg (gpu.sm.regfile.alloc_policy = finereg; docs/finereg.md)
  const bool finereg = str("gpu.sm.regfile.alloc_policy") == "finereg";
  const std::string fr = "gpu.sm.regfile.finereg.";
  if (finereg) {
    r.require(u64(fr + "acrf_bytes") + u64(fr + "pcrf_bytes") == 4 * u64("gpu.sm.registers"),
              {fr + "acrf_bytes", fr + "pcrf_bytes", "gpu.sm.registers"},
              "FineReg splits the register file: acrf_bytes + pcrf_bytes must equal gpu.sm.registers x 4 bytes");
    r.require(u64(fr + "acrf_bytes") % 128 == 0 && u64(fr + "pcrf_bytes") % 128 == 0,
              {fr + "acrf_bytes", fr + "pcrf_bytes"},
              "FineReg's register files hold 128-byte warp-registers: acrf_bytes and pcrf_bytes must be multiples "
              "of 128");
    r.require(warp == 32, {"gpu.sm.warp_size", "gpu.sm.regfile.alloc_policy"},
              "FineReg's PCRF entries are 32-lane warp-registers: it needs gpu.sm.warp_size = 32");
    r.require(u64(fr + "max_resident_ctas") >= u64("gpu.sm.max_ctas"), {fr + "max_resident_ctas", "gpu.sm.max_ctas"},
              "FineReg's resident CTAs (active + pending) cannot be fewer than the active ones (gpu.sm.max_ctas)");
    r.require(u64(fr + "max_resident_warps") >= max_warps,
              {fr + "max_resident_warps", "gpu.sm.max_threads", "gpu.sm.warp_size"},
              "FineReg's resident warps cannot be fewer than the active ones (max_threads / warp_size = " +
                  std::to_string(max_warps) + ")");
    r.require(pow2(u64(fr + "vector_cache_entries")), {fr + "vector_cache_entries"},
              "FineReg's vector cache is direct-mapped on PC bits: vector_cache_entries must be a power of two");
    r.require(str("gpu.sm.regfile.power.policy") == "always_on",
              {"gpu.sm.regfile.power.policy", "gpu.sm.regfile.alloc_policy"},
              "FineReg with register power states (GREENER, Sleep-Reg) is not built");
    r.require(str("gpu.sm.smem.alloc_policy") == "baseline", {"gpu.sm.smem.alloc_policy", "gpu.sm.regfile.alloc_policy"},
              "FineReg with scratchpad sharing is not built");
  }
  // Its comparisons (docs/finereg.md "Comparison mechanisms"): vt and
  // regdram take the resident limits; regdram the checking mode.
  const std::string policy_rf = str("gpu.sm.regfile.alloc_policy");
  const bool vt = policy_rf == "vt" || policy_rf == "regdram";
  const bool regdram = policy_rf == "regdram";
  if (vt) {
    r.require(u64(fr + "max_resident_ctas") >= u64("gpu.sm.max_ctas"), {fr + "max_resident_ctas", "gpu.sm.max_ctas"},
              "Virtual Thread's resident CTAs (active + pending) cannot be fewer than the active ones "
              "(gpu.sm.max_ctas)");
    r.require(u64(fr + "max_resident_warps") >= max_warps,
              {fr + "max_resident_warps", "gpu.sm.max_threads", "gpu.sm.warp_size"},
              "Virtual Thread's resident warps cannot be fewer than the active ones (max_threads / warp_size = " +
                  std::to_string(max_warps) + ")");
    r.require(str("gpu.sm.regfile.power.policy") == "always_on",
              {"gpu.sm.regfile.power.policy", "gpu.sm.regfile.alloc_policy"},
              "Virtual Thread / Reg+DRAM with register power states (GREENER, Sleep-Reg) is not built");
    r.require(str("gpu.sm.smem.alloc_policy") == "baseline", {"gpu.sm.smem.alloc_policy", "gpu.sm.regfile.alloc_policy"},
              "Virtual Thread / Reg+DRAM with scratchpad sharing is not built");
  }
  // Keys that do nothing under the chosen policy: a changed value is an error.
  struct Owned {
    std::string key, value;
    bool used;
    const char* needs;
  };
  const std::vector<Owned> owned = {
      {fr + "acrf_bytes", "131072", finereg, "finereg"},
      {fr + "pcrf_bytes", "131072", finereg, "finereg"},
      {fr + "max_resident_ctas", "128", finereg || vt, "finereg, vt or regdram"},
      {fr + "max_resident_warps", "512", finereg || vt, "finereg, vt or regdram"},
      {fr + "pcrf_latency", "4", finereg, "finereg"},
      {fr + "cycles_per_register", "1", finereg, "finereg"},
      {fr + "vector_cache_entries", "32", finereg, "finereg"},
      {fr + "switch_order", "restore_first", finereg, "finereg"},
      {fr + "launch_beyond_limit", "true", finereg, "finereg"},
      {fr + "context_only_switch", "true", finereg, "finereg"},
      {fr + "check", "false", finereg || vt, "finereg, vt or regdram"},
      {"gpu.sm.regfile.vt.context_bytes_per_warp", "128", finereg || vt, "finereg, vt or regdram"},
      {"gpu.sm.regfile.vt.context_bytes_per_cycle", "128", finereg || vt, "finereg, vt or regdram"},
      {"gpu.sm.regfile.regdram.max_offchip_ctas", "32", regdram, "regdram"}};
  for (const Owned& o : owned) {
    r.require(o.used || r.v(o.key) == o.value, {o.key, "gpu.sm.regfile.alloc_policy"},
              o.key + " does nothing under this policy: it needs gpu.sm.regfile.alloc_policy = " + o.needs +
                  " (or its default " + o.value + ")");
  }


  // ---- unified register/scratchpad allocation (frontend/passes/unified_alloc.h)
  const bool unified_alloc_on = str("frontend.unified_alloc.mode") != "off";
  const std::uint64_t budget = u64("frontend.unified_alloc.registers");
  const bool unified_fixed = str("frontend.unified_alloc.mode") == "fixed";
  r.require(unified_fixed || budget == 0,
            {"frontend.unified_alloc.registers", "frontend.unified_alloc.mode"},
            "frontend.unified_alloc.registers is the budget of mode = fixed (set the mode, or leave it 0; with "
            "auto the search chooses R)");
  r.require(str("frontend.unified_alloc.mode") == "auto" || (f64("frontend.unified_alloc.max_cmratio") == 200.0 &&
                                                             f64("frontend.unified_alloc.concurrency_bound") == 1.0),
            {"frontend.unified_alloc.max_cmratio", "frontend.unified_alloc.concurrency_bound",
             "frontend.unified_alloc.mode"},
            "frontend.unified_alloc.max_cmratio and concurrency_bound are used by mode = auto only");
  r.require(!unified_fixed || (budget >= 6 && budget <= u64("gpu.sm.max_registers_per_thread")),
            {"frontend.unified_alloc.registers", "frontend.unified_alloc.mode", "gpu.sm.max_registers_per_thread"},
            "mode = fixed needs a budget from 6 (4 reserved + 2 for values) to gpu.sm.max_registers_per_thread");
  r.require(!unified_alloc_on ||
                (str("frontend.relssp.placement") == "exit" && str("frontend.relssp.layout") == "declared" &&
                 !boolean("gpu.sm.regfile.sharing_reorder") && str("gpu.sm.regfile.power.policy") != "greener"),
            {"frontend.unified_alloc.mode", "frontend.relssp.placement", "frontend.relssp.layout",
             "gpu.sm.regfile.sharing_reorder", "gpu.sm.regfile.power.policy"},
            "unified allocation rewrites kernels after the passes of relssp placement, register reordering and "
            "GREENER would have annotated them: combining them is not built");
  const bool shared_slots = str("frontend.unified_alloc.spill") == "shared";
  r.require(unified_alloc_on || !shared_slots, {"frontend.unified_alloc.spill", "frontend.unified_alloc.mode"},
            "frontend.unified_alloc.spill says where mode = fixed or auto spills (set the mode, or leave it local)");
  r.require(shared_slots || str("frontend.unified_alloc.prune_priority") == "live_sets",
            {"frontend.unified_alloc.prune_priority", "frontend.unified_alloc.spill"},
            "frontend.unified_alloc.prune_priority chooses among shared spill slots: it needs "
            "frontend.unified_alloc.spill = shared (or its default live_sets)");
  const bool occupancy_rules = shared_slots || str("frontend.unified_alloc.mode") == "auto";
  r.require(!occupancy_rules || (str("sim.platform") == "gpu" && str("gpu.sm.regfile.alloc_policy") == "baseline" &&
                                 str("gpu.sm.smem.alloc_policy") == "baseline"),
            {"frontend.unified_alloc.spill", "frontend.unified_alloc.mode", "sim.platform",
             "gpu.sm.regfile.alloc_policy", "gpu.sm.smem.alloc_policy"},
            "shared-memory spill slots and the occupancy search use the baseline GPU's occupancy rules; with another "
            "platform or register/scratchpad allocator that is not built");
  // ---- register power states
  r.require(f64("gpu.sm.regfile.power.sleep_leakage_ratio") >= f64("gpu.sm.regfile.power.off_leakage_ratio"),
            {"gpu.sm.regfile.power.sleep_leakage_ratio", "gpu.sm.regfile.power.off_leakage_ratio"},
            "a SLEEP register cannot leak less than an OFF one (sleep_leakage_ratio >= off_leakage_ratio)");
  r.require(u64("gpu.sm.scheduler.ccws.vta_entries_per_warp") % u64("gpu.sm.scheduler.ccws.vta_ways") == 0,
            {"gpu.sm.scheduler.ccws.vta_entries_per_warp", "gpu.sm.scheduler.ccws.vta_ways"},
            "gpu.sm.scheduler.ccws.vta_entries_per_warp must be a multiple of vta_ways");

  // ---- caches
  r.cache("gpu.sm.icache", false, false);
  r.cache("gpu.const_cache", false, false);
  r.cache("gpu.l1d", true, true);
  r.cache("gpu.l2", true, true);
  const bool l1 = boolean("gpu.l1d.enabled"), l2 = boolean("gpu.l2.enabled");
  if (l1 && l2) {
    r.require(u64("gpu.l1d.line_bytes") == u64("gpu.l2.line_bytes"), {"gpu.l1d.line_bytes", "gpu.l2.line_bytes"},
              "the L1D and L2 line sizes must be equal");
    r.require(u64("gpu.l1d.sector_bytes") == u64("gpu.l2.sector_bytes"),
              {"gpu.l1d.sector_bytes", "gpu.l2.sector_bytes"}, "the L1D and L2 sector sizes must be equal");
  }
  const std::uint64_t unified = u64("gpu.sm.unified_l1_smem_bytes");
  if (unified != 0) {
    const std::uint64_t l1_bytes = l1 ? u64("gpu.l1d.sets") * u64("gpu.l1d.ways") * u64("gpu.l1d.line_bytes") : 0;
    r.require(smem + l1_bytes <= unified,
              {"gpu.sm.unified_l1_smem_bytes", "gpu.sm.shared_memory_bytes", "gpu.l1d.enabled", "gpu.l1d.sets",
               "gpu.l1d.ways", "gpu.l1d.line_bytes"},
              "shared memory (" + std::to_string(smem) + " B) plus L1D (" + std::to_string(l1_bytes) +
                  " B) exceed gpu.sm.unified_l1_smem_bytes (" + std::to_string(unified) + " B)");
  }
  r.power_of_two("gpu.l2.interleave_bytes");
  r.require(u64("gpu.l2.interleave_bytes") >= u64("gpu.l2.line_bytes"), {"gpu.l2.interleave_bytes", "gpu.l2.line_bytes"},
            "gpu.l2.interleave_bytes must be at least one L2 line");

  // ---- interconnect: the largest packet (header + one line) must fit a port buffer.
  if (str("gpu.noc.topology") == "crossbar") {
    const std::uint64_t line = std::max(u64("gpu.l1d.line_bytes"), u64("gpu.l2.line_bytes"));
    const std::uint64_t flit = u64("gpu.noc.flit_bytes");
    const std::uint64_t packet_flits = (u64("gpu.noc.header_bytes") + line + flit - 1) / flit;
    r.require(u64("gpu.noc.buffer_flits") >= packet_flits,
              {"gpu.noc.buffer_flits", "gpu.noc.flit_bytes", "gpu.noc.header_bytes", "gpu.l2.line_bytes"},
              "gpu.noc.buffer_flits cannot hold the largest packet (header + line = " + std::to_string(packet_flits) +
                  " flits)");
  }

  // ---- DRAM
  r.require(u64("gpu.dram.banks") % u64("gpu.dram.bank_groups") == 0, {"gpu.dram.banks", "gpu.dram.bank_groups"},
            "gpu.dram.banks must be a multiple of gpu.dram.bank_groups");
  r.require(u64("gpu.dram.timing.tRC") >= u64("gpu.dram.timing.tRAS") + u64("gpu.dram.timing.tRP"),
            {"gpu.dram.timing.tRC", "gpu.dram.timing.tRAS", "gpu.dram.timing.tRP"},
            "gpu.dram.timing.tRC must be at least tRAS + tRP");
  r.require(u64("gpu.dram.timing.tRAS") >= u64("gpu.dram.timing.tRCD"), {"gpu.dram.timing.tRAS", "gpu.dram.timing.tRCD"},
            "gpu.dram.timing.tRAS must be at least tRCD");
  if (u64("gpu.dram.bank_groups") > 1) {
    r.require(u64("gpu.dram.timing.tCCDL") >= u64("gpu.dram.timing.tCCD"),
              {"gpu.dram.timing.tCCDL", "gpu.dram.timing.tCCD", "gpu.dram.bank_groups"},
              "with bank groups, gpu.dram.timing.tCCDL must be at least tCCD");
  }
  const std::uint64_t burst = u64("gpu.dram.bus_width_bytes") * u64("gpu.dram.chips_per_channel") *
                              u64("gpu.dram.burst_length");
  r.power_of_two("gpu.dram.row_bytes");
  r.require(u64("gpu.dram.row_bytes") % burst == 0,
            {"gpu.dram.row_bytes", "gpu.dram.bus_width_bytes", "gpu.dram.chips_per_channel", "gpu.dram.burst_length"},
            "gpu.dram.row_bytes must be a multiple of one burst (bus_width_bytes x chips_per_channel x burst_length = " +
                std::to_string(burst) + " B)");

  const std::uint64_t bank_chunk = u64("gpu.dram.bank_interleave_bytes");
  r.power_of_two("gpu.dram.bank_interleave_bytes");
  r.require(bank_chunk >= burst && bank_chunk <= u64("gpu.dram.row_bytes"),
            {"gpu.dram.bank_interleave_bytes", "gpu.dram.row_bytes", "gpu.dram.bus_width_bytes",
             "gpu.dram.chips_per_channel", "gpu.dram.burst_length"},
            "gpu.dram.bank_interleave_bytes must lie between one burst (" + std::to_string(burst) +
                " B) and gpu.dram.row_bytes");

  // ---- simulation
  const std::int64_t traced = i64("sim.trace.sm");
  r.require(traced < 0 || static_cast<std::uint64_t>(traced) < u64("gpu.num_sms"), {"sim.trace.sm", "gpu.num_sms"},
            "sim.trace.sm names an SM that does not exist");
  r.require(str("sim.trace.l1d_file").empty() || boolean("gpu.l1d.enabled"),
            {"sim.trace.l1d_file", "gpu.l1d.enabled"}, "an L1D trace needs gpu.l1d.enabled = true");
  r.require(str("sim.trace.power_file").empty() || boolean("gpu.power.enabled"),
            {"sim.trace.power_file", "gpu.power.enabled"},
            "a power trace needs the energy model: set gpu.power.enabled = true or leave sim.trace.power_file empty");

  // ---- Stencil Processing Unit (docs/spu.md): its keys mean something on sim.platform = spu only
  const bool spu = str("sim.platform") == "spu";
  for (const char* key : {"spu.grid_size", "spu.cb_bytes", "spu.sync_latency", "spu.passes", "spu.spill_scoreboard",
                          "spu.power.iu_leakage_w", "spu.power.cb_leakage_w_per_kb", "spu.iu.kind",
                          "spu.power.dma_iu_leakage_w"}) {
    r.require(spu || value(key) == find_config_key(key)->default_value, {key, "sim.platform"},
              std::string(key) + " applies only with sim.platform = spu (leave it at " +
                  format_config_value(find_config_key(key)->default_value) + " or choose the spu platform)");
  }
  r.require(boolean("spu.spill_scoreboard") || str("spu.passes") == "overlapped",
            {"spu.spill_scoreboard", "spu.passes"},
            "spu.spill_scoreboard = false applies only with spu.passes = overlapped (pass by pass, every spill "
            "completes before its restore)");
  const bool dma = str("spu.iu.kind") == "dma";
  r.require(dma || value("spu.power.dma_iu_leakage_w") == find_config_key("spu.power.dma_iu_leakage_w")->default_value,
            {"spu.power.dma_iu_leakage_w", "spu.iu.kind"},
            "spu.power.dma_iu_leakage_w applies only with spu.iu.kind = dma (the interface units are DMA engines)");
  r.require(!dma || value("spu.power.iu_leakage_w") == find_config_key("spu.power.iu_leakage_w")->default_value,
            {"spu.power.iu_leakage_w", "spu.iu.kind"},
            "spu.power.iu_leakage_w is the leakage of a truncated-SM interface unit: with spu.iu.kind = dma set "
            "spu.power.dma_iu_leakage_w instead");
  r.require(u64("spu.cb_bytes") % 8 == 0, {"spu.cb_bytes"}, "spu.cb_bytes must be a multiple of 8 (a 64-bit access)");
  const std::uint64_t side = u64("spu.grid_size");
  r.require(!spu || u64("gpu.num_sms") == side * side, {"gpu.num_sms", "spu.grid_size", "sim.platform"},
            "the SPU is a spu.grid_size x spu.grid_size grid of SMs: gpu.num_sms must be " + std::to_string(side * side));

  // ---- platform-specific keys
  vws_rules(*this, r);
}

}  // namespace simtlm
