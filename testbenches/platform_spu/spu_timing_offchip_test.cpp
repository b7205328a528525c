// Off-chip accesses of an SPU launch on the timing backend (docs/spu.md): the
// interface units' global loads and stores count, as on the functional
// backend (Table 6.3 counts the loading and storing IUs' I/O).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "simtlm/device.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

uint64_t stencil_offchip(Backend backend, const std::string& sync) {
  auto cfg = std::make_shared<Config>();
  cfg->set("sim.platform", "spu");
  cfg->set("spu.grid_size", "2");
  cfg->set("gpu.num_sms", "4");
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  Device dev(o);
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  apply_run_args(*w, {"sync=" + sync});
  w->setup(dev, Size::Small, 1);
  uint64_t n = 0;
  for (const LaunchStats& s : w->run(dev)) n += s.offchip_accesses;
  EXPECT_TRUE(w->check(dev).passed);
  return n;
}

// Small: N = 48, K = 40 on 2 x 2 CTAs, one pass: the SMs read A and write
// the bottom plane (2 N^2), the west/north IUs load and the east/south IUs
// store N x K words each (4 N K): 2 * 48^2 + 4 * 48 * 40 = 12,288 in both
// schemes (note §4.2 with one pass).
// One timing device per test (one SystemC elaboration per process).
class SpuTimingOffchip : public ::testing::TestWithParam<std::string> {};

TEST_P(SpuTimingOffchip, InterfaceUnitsCountLikeOnTheFunctionalBackend) {
  EXPECT_EQ(stencil_offchip(Backend::Timing, GetParam()), 12288u);
  EXPECT_EQ(stencil_offchip(Backend::Functional, GetParam()), 12288u);
}

INSTANTIATE_TEST_SUITE_P(Syncs, SpuTimingOffchip, ::testing::Values("local", "global"));

}  // namespace
}  // namespace simtlm::workloads
