// The SPU platform through the Device API (docs/spu.md): the spu_stencil
// workload's SPU kernels (method rows, one thread per local i, and subtiled,
// 8 x 8 threads with 4 x 4 sub-tiles) against the CPU reference on several
// grid sizes and both synchronisation schemes, the gpu platform's rejection of SPU
// instructions naming the PTX line, and the configuration rules of spu.*.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/device.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

std::shared_ptr<Config> spu_config(uint32_t p) {
  auto cfg = std::make_shared<Config>();
  cfg->set("sim.platform", "spu");
  cfg->set("spu.grid_size", std::to_string(p));
  cfg->set("gpu.num_sms", std::to_string(p * p));
  cfg->validate();
  return cfg;
}

struct SpuRun {
  CheckResult check;
  std::vector<LaunchStats> stats;
};

const char* const kMethods[] = {"rows", "subtiled"};

const char* kernel_of(const std::string& method) {
  return method == "rows" ? "spu_stencil_cb" : "spu_stencil_cb_s4";
}

SpuRun run_stencil(uint32_t p, const char* sync, Size size = Size::Small, const std::string& method = "rows") {
  setenv("SIMTLM_SPU_STENCIL_SYNC", sync, 1);
  DeviceOptions o;
  o.backend = Backend::Functional;
  o.config = spu_config(p);
  Device dev(o);
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  apply_run_args(*w, {"method=" + method});
  w->setup(dev, size, 1);
  SpuRun r;
  r.stats = w->run(dev);
  r.check = w->check(dev);
  unsetenv("SIMTLM_SPU_STENCIL_SYNC");
  return r;
}

// Small: N = 48, K = 40: 2 x 2 CTAs with partial edge tiles and a partial
// second k-tile, on grids from exactly its size to far larger.
TEST(SpuPlatform, StencilMatchesTheReferenceOnEveryGridSizeAndBothSyncSchemes) {
  for (const char* method : kMethods) {
    for (uint32_t p : {2u, 3u, 4u, 8u}) {
      for (const char* sync : {"local", "global"}) {
        const SpuRun r = run_stencil(p, sync, Size::Small, method);
        EXPECT_TRUE(r.check.passed) << method << ", p = " << p << ", " << sync << ": " << r.check.detail;
        ASSERT_EQ(r.stats.size(), 1u);
        EXPECT_EQ(r.stats[0].kernel, kernel_of(method));
        EXPECT_EQ(r.stats[0].ctas, 4u);  // the grid's CTAs; the IUs are not counted
      }
    }
  }
}

// Without a method the SPU runs the row kernel (the default is unchanged).
TEST(SpuPlatform, TheDefaultSpuKernelIsTheRowKernel) {
  setenv("SIMTLM_SPU_STENCIL_SYNC", "local", 1);
  DeviceOptions o;
  o.backend = Backend::Functional;
  o.config = spu_config(2);
  Device dev(o);
  std::unique_ptr<Workload> w = WorkloadRegistry::create("spu_stencil");
  w->setup(dev, Size::Small, 1);
  const std::vector<LaunchStats> stats = w->run(dev);
  unsetenv("SIMTLM_SPU_STENCIL_SYNC");
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].kernel, "spu_stencil_cb");
}

// Table 6.2's first case, 128^3: 4 x 4 CTAs of four 32^3 tiles on the thesis's 4 x 4 SPU.
TEST(SpuPlatform, StencilDefaultSizeOnTheThesisGrid) {
  for (const char* method : kMethods) {
    const SpuRun r = run_stencil(4, "local", Size::Default, method);
    EXPECT_TRUE(r.check.passed) << method << ": " << r.check.detail;
    EXPECT_EQ(r.stats[0].ctas, 16u);
    // 2 N^2 + 4 N K (one pass): the SMs' A and bottom plane, the IUs' faces.
    EXPECT_EQ(r.stats[0].offchip_accesses, 98304u) << method;
  }
}

// Grids larger than the SPU run in passes with virtual IUs (docs/spu.md
// "Passes"): 128^3 (4 x 4 CTAs) on p = 2 (2 x 2 passes), p = 3 (2 x 2 passes,
// the second column and row of passes partial), p = 4 (one pass) and p = 8
// (one pass on part of the grid), both synchronisation schemes.
TEST(SpuPlatform, StencilInPassesMatchesTheReference) {
  for (const char* method : kMethods) {
    for (uint32_t p : {2u, 3u, 4u, 8u}) {
      for (const char* sync : {"local", "global"}) {
        const SpuRun r = run_stencil(p, sync, Size::Default, method);
        EXPECT_TRUE(r.check.passed) << method << ", p = " << p << ", " << sync << ": " << r.check.detail;
        ASSERT_EQ(r.stats.size(), 1u);
        EXPECT_EQ(r.stats[0].ctas, 16u);
      }
    }
  }
}

// Small (N = 48, K = 40: partial tiles, a partial k-tile) on one SM: 2 x 2
// passes of one CTA each, every IU of the inner boundaries virtual.
TEST(SpuPlatform, StencilOnAOneByOneSpu) {
  for (const char* method : kMethods) {
    for (const char* sync : {"local", "global"}) {
      const SpuRun r = run_stencil(1, sync, Size::Small, method);
      EXPECT_TRUE(r.check.passed) << method << ", " << sync << ": " << r.check.detail;
    }
  }
}

// On the gpu platform the same module loads (its GPU kernel runs, tested with
// every workload) but launching the SPU kernel names its first SPU instruction.
TEST(SpuPlatform, TheGpuPlatformRejectsSpuKernelsAtLaunchNamingTheLine) {
  Device dev;  // built-in defaults: sim.platform = gpu
  const ModuleHandle mod = dev.load_module_string(embedded_ptx("spu_stencil"), "spu_stencil.ptx");
  const DevicePtr buf = dev.malloc(64);
  LaunchConfig c;
  c.grid = Dim3(1, 1);
  c.block = Dim3(32);
  try {
    dev.launch(mod, "spu_stencil_cb", c,
               KernelArgs().add(buf).add(buf).add(buf).add(buf).add(int32_t(1)).add(int32_t(1)).add(int32_t(0)));
    ADD_FAILURE() << "an SPU kernel ran on the gpu platform";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::Ptx) << m;
    // The line of the first SPU instruction in the committed PTX, found here independently.
    const std::string& ptx = embedded_ptx("spu_stencil");
    const size_t at = ptx.find("spu.sreg.u32");
    ASSERT_NE(at, std::string::npos);
    const size_t line = 1 + size_t(std::count(ptx.begin(), ptx.begin() + std::ptrdiff_t(at), '\n'));
    EXPECT_NE(m.find("spu_stencil.ptx:" + std::to_string(line) + ":"), std::string::npos) << m;
    EXPECT_NE(m.find("spu.sreg.u32"), std::string::npos) << m;
    EXPECT_NE(m.find("sim.platform = gpu"), std::string::npos) << m;
  }
}

std::string validate_error(const std::vector<std::string>& overrides) {
  Config c;
  try {
    for (const std::string& o : overrides) c.apply_override(o);
    c.validate();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(SpuPlatform, SpuKeysApplyOnlyToTheSpuPlatform) {
  std::string m = validate_error({"spu.grid_size=8"});
  EXPECT_NE(m.find("spu.grid_size applies only with sim.platform = spu"), std::string::npos) << m;
  m = validate_error({"spu.cb_bytes=16384"});
  EXPECT_NE(m.find("spu.cb_bytes applies only with sim.platform = spu"), std::string::npos) << m;
  m = validate_error({"sim.platform=spu"});  // 15 SMs are not a 4 x 4 grid
  EXPECT_NE(m.find("gpu.num_sms must be 16"), std::string::npos) << m;
  m = validate_error({"sim.platform=spu", "gpu.num_sms=16", "spu.cb_bytes=1001"});
  EXPECT_NE(m.find("multiple of 8"), std::string::npos) << m;
  EXPECT_NO_THROW(spu_config(3));
}

}  // namespace
}  // namespace simtlm::workloads
