// Every registered workload passes its CPU check at small size on 2 SMs of
// the vws platform on each preset: vws_ws32 (ganged-only), vws_ws4
// (slice-only) and vws_table61 (the seed's single-SM machine, ganged), and
// in mixed mode (the warp ganging unit) as I-VWS, E-VWS-ImpatientMem,
// I-VWS-GroupMem, E-VWS-Sync10/50/100, E-VWS, I-VWS-ImpatientMem, every gang
// order and 1 gang per cycle, and slice-only WS8 and WS16 (vws_ws4 with the
// keys of docs/vws.md; the Sync variants also with 2 L1 I-cache ports and L0s).
// Workloads that declare 32-lane warps (assumes_32_lane_warps: warp
// shuffles, warp-synchronous code) refuse the 4-wide warps of slice mode
// with Error(Config), and only they may. Label `slow` (nine timing runs per
// workload; each mixed variant about 90 s of CPU for all workloads).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "testbenches/platform_timing/platform_harness.h"
#include "workloads/workload.h"

namespace simtlm::test {
namespace {

using workloads::WorkloadRegistry;

using Param = std::tuple<std::string, std::string>;  // workload, preset
class VwsWorkloads : public ::testing::TestWithParam<Param> {};

TEST_P(VwsWorkloads, PassesItsCheck) {
  const auto& [name, preset] = GetParam();
  // "<preset>" or "<preset>:<key=value>,<key=value>...".
  const size_t colon = preset.find(':');
  auto cfg = std::make_shared<Config>(Config::preset(preset.substr(0, colon)));
  cfg->apply_override("gpu.num_sms=2");
  for (size_t at = colon; at != std::string::npos;) {
    const size_t next = preset.find(',', at + 1);
    cfg->apply_override(preset.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
    at = next;
  }
  cfg->validate();
  Device dev(timing_options(cfg));
  auto w = WorkloadRegistry::create(name);
  const bool may_refuse = w->assumes_32_lane_warps() && cfg->u32("gpu.sm.warp_size") % 32 != 0;
  try {
    w->setup(dev, workloads::Size::Small, 1);
  } catch (const Error& e) {
    EXPECT_TRUE(may_refuse) << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Config) << e.what();
    return;
  }
  EXPECT_FALSE(may_refuse) << "declares 32-lane warps but set up at warp size " << cfg->u32("gpu.sm.warp_size");
  w->run(dev);
  const workloads::CheckResult check = w->check(dev);
  EXPECT_TRUE(check.passed) << preset << ": " << check.detail;
}

// Mixed-mode configurations (docs/vws.md, named key sets) and their test names.
const std::pair<const char*, const char*> kMixed[] = {
    {"vws_ws4:gpu.vws.mode=mixed", "ivws"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.reform=opportunistic,gpu.vws.split_memory=impatient", "evws_impatient"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.split_memory=group", "ivws_group"},
    // E-VWS-Sync<N>, with the L1 I-cache ports and L0 sizes varied among them.
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.reform=sync10,gpu.vws.fetches_per_cycle=2", "evws_sync10_2ports_l0_256"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.reform=sync50,gpu.vws.fetches_per_cycle=2,gpu.vws.l0_bytes=32",
     "evws_sync50_2ports_l0_32"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.reform=sync100", "evws_sync100"},
    // The remaining named sets, each gang order once (folded into another set
    // to keep the CPU time down): E-VWS with GTO, I-VWS-ImpatientMem with LRR,
    // I-VWS with LGTO and 1 gang per cycle, I-VWS-GroupMem with LPC.
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.reform=opportunistic,gpu.vws.gang_order=gto", "evws_gto"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.split_memory=impatient,gpu.vws.gang_order=lrr", "ivws_impatient_lrr"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.gang_order=lgto,gpu.vws.gangs_per_cycle=1", "ivws_lgto_1gang"},
    {"vws_ws4:gpu.vws.mode=mixed,gpu.vws.split_memory=group,gpu.vws.gang_order=lpc", "ivws_group_lpc"},
    // WS8 and WS16: slice-only with wider slices (docs/vws.md, named sets).
    {"vws_ws4:gpu.vws.slices=4,gpu.vws.slice_width=8,gpu.sm.warp_size=8", "ws8"},
    {"vws_ws4:gpu.vws.slices=2,gpu.vws.slice_width=16,gpu.sm.warp_size=16", "ws16"},
};

std::vector<std::string> configurations() {
  std::vector<std::string> c = {"vws_ws32", "vws_ws4", "vws_table61"};
  for (const auto& m : kMixed) c.push_back(m.first);
  return c;
}

INSTANTIATE_TEST_SUITE_P(VwsPresets, VwsWorkloads,
                         ::testing::Combine(::testing::ValuesIn(WorkloadRegistry::names()),
                                            ::testing::ValuesIn(configurations())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           const std::string& cfg = std::get<1>(info.param);
                           std::string n = std::get<0>(info.param) + "_" + cfg;
                           for (const auto& m : kMixed) {
                             if (cfg == m.first) n = std::get<0>(info.param) + "_vws_ws4_" + m.second;
                           }
                           return n;
                         });

}  // namespace
}  // namespace simtlm::test
