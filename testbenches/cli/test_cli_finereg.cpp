// FineReg with the whole register file as ACRF, no PCRF and resident limits
// equal to the active ones is the baseline (seed note 004 §7 invariant 15):
// same cycles and instructions in every launch as alloc_policy = baseline on
// the same machine (two runs of the CLI: one timing device per process).
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

class CliFineReg : public CliTest {
 protected:
  nlohmann::json run_stats(const std::string& workload, const std::string& out, std::vector<std::string> keys) {
    std::vector<std::string> args = {"run", workload, "--size", "small", "--config",
                                     source("configs/gtx980_finereg.json"), "-p", "gpu.num_sms=2", "--out", out};
    for (const std::string& k : keys) {
      args.push_back("-p");
      args.push_back(k);
    }
    const CliResult r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(read_text(path(out) / "stats.json"));
  }
  // A statistic of the run's total summed over its two SMs.
  static uint64_t sms(const nlohmann::json& stats, const std::string& what) {
    uint64_t n = 0;
    for (int sm = 0; sm < 2; ++sm) {
      const nlohmann::json& v = stats["timing"]["total"]["gpu.sm[" + std::to_string(sm) + "]." + what];
      if (v.is_number()) n += v.get<uint64_t>();
    }
    return n;
  }
  static uint64_t total(const nlohmann::json& stats, const std::string& prefix, const std::string& what) {
    uint64_t n = 0;
    for (const auto& [k, v] : stats["timing"]["total"].items()) {
      if (k.rfind(prefix, 0) == 0 && k.size() > what.size() && k.compare(k.size() - what.size(), what.size(), what) == 0 &&
          v.is_number()) {
        n += v.get<uint64_t>();
      }
    }
    return n;
  }
};

// Launch beyond the scheduling limit into free ACRF space (note §2.4):
// gaussian's small CTAs fill the 32 active slots before the ACRF. With the
// key on, CTAs are admitted pending (PEND_ACRF) and the SMs hold more
// resident CTAs on average (their own resident-CTA integral, not FineReg's
// counters); with it off, none is.
TEST_F(CliFineReg, LaunchBeyondTheLimitHoldsMoreResidentCtas) {
  const nlohmann::json on = run_stats("gaussian", "lbl_on", {});
  const nlohmann::json off = run_stats("gaussian", "lbl_off", {"gpu.sm.regfile.finereg.launch_beyond_limit=false"});
  EXPECT_GT(sms(on, "regfile.finereg.launches_pending"), 0u);
  EXPECT_EQ(sms(off, "regfile.finereg.launches_pending"), 0u);
  EXPECT_EQ(sms(on, "regfile.finereg.switches_out") + sms(on, "regfile.finereg.launches_pending"),
            sms(on, "regfile.finereg.switches_in"));
  const double avg_on = double(sms(on, "resident_cta_cycles")) / double(sms(on, "active_cycles"));
  const double avg_off = double(sms(off, "resident_cta_cycles")) / double(sms(off, "active_cycles"));
  EXPECT_GT(avg_on, avg_off);
}

// Context-only switches (2,2) -> (1,2) -> (2,2): with the key on, stalled
// CTAs whose partner fits beside them keep their registers in the ACRF, so
// fewer warp-registers move per switch-out than with the key off, where
// every switch-out goes through the PCRF.
TEST_F(CliFineReg, ContextOnlySwitchesMoveFewerRegisters) {
  const nlohmann::json on = run_stats("gaussian", "cos_on", {});
  const nlohmann::json off = run_stats("gaussian", "cos_off", {"gpu.sm.regfile.finereg.context_only_switch=false"});
  const uint64_t outs_on = sms(on, "regfile.finereg.switches_out");
  const uint64_t outs_off = sms(off, "regfile.finereg.switches_out");
  ASSERT_GT(outs_on, 0u);
  ASSERT_GT(outs_off, 0u);
  EXPECT_GT(sms(on, "regfile.finereg.context_only_outs"), 0u);
  EXPECT_EQ(sms(off, "regfile.finereg.context_only_outs"), 0u);
  EXPECT_LT(double(sms(on, "regfile.finereg.registers_out")) / double(outs_on),
            double(sms(off, "regfile.finereg.registers_out")) / double(outs_off));
}

// The pipeline context's backup costs time: at 1 byte per cycle a warp's
// 128-byte context takes 128 cycles each way, longer than moving its live
// registers, and the run takes longer than at 128 bytes per cycle.
TEST_F(CliFineReg, ASlowerContextBackupCostsCycles) {
  const nlohmann::json fast = run_stats("gaussian", "ctx_fast", {});
  const nlohmann::json slow = run_stats("gaussian", "ctx_slow", {"gpu.sm.regfile.vt.context_bytes_per_cycle=1"});
  ASSERT_GT(sms(slow, "regfile.finereg.switches_out"), 0u);
  EXPECT_GT(slow["cycles"].get<uint64_t>(), fast["cycles"].get<uint64_t>());
}

// Every live-vector cache miss is an 8-byte load the SM sends through its
// L1D to the reserved area of global memory (0x7D00'0000'0000, below the
// register-context area at +2^39), with no warp: the L1D trace shows one
// lookup per miss there, and no other access touches that area.
TEST_F(CliFineReg, VectorCacheMissesAreLoadsOfTheReservedArea) {
  const std::string trace = path("vec.trace").string();
  const nlohmann::json fr = run_stats("gaussian", "vec", {"sim.trace.l1d_file=" + trace});
  const uint64_t misses = sms(fr, "regfile.finereg.vector_misses");
  ASSERT_GT(misses, 0u);
  EXPECT_GT(sms(fr, "regfile.finereg.vector_hits"), 0u);
  EXPECT_EQ(sms(fr, "regfile.finereg.vector_bytes"), 8 * misses);
  std::istringstream in(read_text(trace));
  std::string line;
  uint64_t lookups = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    unsigned sm = 0;
    uint64_t cycle = 0;
    int warp = 0;
    char op = 0, event = 0;
    std::string addr;
    f >> sm >> cycle >> warp >> op >> event >> addr;
    const uint64_t a = std::stoull(addr, nullptr, 16);
    if (event == 'e' || a < 0x7D0000000000ull || a >= 0x7D8000000000ull) continue;
    ++lookups;
    EXPECT_EQ(op, 'L') << line;
    EXPECT_EQ(warp, -1) << line;
  }
  EXPECT_EQ(lookups, misses);
  // The switch-outs waited for those reads: at least the L1D's latency each.
  EXPECT_GT(sms(fr, "regfile.finereg.vector_fetch_cycles"), 0u);
}

// Reg+DRAM's register contexts are stores and loads of whole contexts
// (128-byte lines) around the L1D: the L2 sees the context lines written
// beyond the kernel's own stores (the same run under VT, which sends
// nothing off chip, makes the same kernel stores), and the transfers take
// memory time.
TEST_F(CliFineReg, RegDramContextsAreMemoryTraffic) {
  const nlohmann::json vt = run_stats("gaussian", "rd_vt", {"gpu.sm.regfile.alloc_policy=vt", "gpu.sm.registers=8192"});
  const nlohmann::json rd =
      run_stats("gaussian", "rd_rd", {"gpu.sm.regfile.alloc_policy=regdram", "gpu.sm.registers=8192"});
  const uint64_t out = sms(rd, "regfile.regdram.offchip_bytes_out");
  const uint64_t in = sms(rd, "regfile.regdram.offchip_bytes_in");
  ASSERT_GT(out, 0u);
  EXPECT_EQ(out, in);
  EXPECT_EQ(sms(rd, "store_transactions") - sms(vt, "store_transactions"), out / 128);
  EXPECT_EQ(sms(rd, "load_transactions") - sms(vt, "load_transactions"), in / 128);
  EXPECT_GE(total(rd, "gpu.l2[", ".writes") - total(vt, "gpu.l2[", ".writes"), out / 128);
  EXPECT_GT(sms(rd, "regfile.regdram.offchip_transfer_cycles"), 0u);
}

TEST_F(CliFineReg, WholeRegisterFileAsAcrfIsTheBaseline) {
  for (const char* w : {"vectorAdd", "hotspot"}) {
    const nlohmann::json base = run_stats(w, std::string(w) + "_base", {"gpu.sm.regfile.alloc_policy=baseline"});
    const nlohmann::json fr = run_stats(
        w, std::string(w) + "_fr",
        {"gpu.sm.regfile.finereg.acrf_bytes=262144", "gpu.sm.regfile.finereg.pcrf_bytes=0",
         "gpu.sm.regfile.finereg.max_resident_ctas=32", "gpu.sm.regfile.finereg.max_resident_warps=64"});
    EXPECT_EQ(base["cycles"], fr["cycles"]) << w;
    EXPECT_EQ(base["warp_instructions"], fr["warp_instructions"]) << w;
    ASSERT_EQ(base["per_launch"].size(), fr["per_launch"].size());
    for (size_t i = 0; i < base["per_launch"].size(); ++i) {
      EXPECT_EQ(base["per_launch"][i]["cycles"], fr["per_launch"][i]["cycles"]) << w << " launch " << i;
    }
  }
}

// The energy report has FineReg's components only with a switching
// allocator, and charges them from its movement: FineReg's PCRF and vector
// cache (FINEREGP) and register movement (SWITCHP); Reg+DRAM's off-chip
// contexts (SWITCHP, no FINEREGP); nothing under the baseline.
TEST_F(CliFineReg, EnergyChargesTheSwitchingOnlyWhereItHappens) {
  auto dynamic = [&](const std::string& out, std::vector<std::string> keys) {
    keys.push_back("gpu.power.enabled=true");
    return run_stats("gaussian", out, keys)["timing"]["energy"]["total"]["dynamic_j"];
  };
  const nlohmann::json base = dynamic("e_base", {"gpu.sm.regfile.alloc_policy=baseline"});
  EXPECT_FALSE(base.contains("FINEREGP"));
  EXPECT_FALSE(base.contains("SWITCHP"));
  const nlohmann::json fr = dynamic("e_fr", {});
  EXPECT_GT(fr["FINEREGP"].get<double>(), 0.0);
  EXPECT_GT(fr["SWITCHP"].get<double>(), 0.0);
  const nlohmann::json rd = dynamic("e_rd", {"gpu.sm.regfile.alloc_policy=regdram", "gpu.sm.registers=8192"});
  EXPECT_EQ(rd["FINEREGP"].get<double>(), 0.0);
  EXPECT_GT(rd["SWITCHP"].get<double>(), 0.0);
}

}  // namespace
}  // namespace simtlm::test
