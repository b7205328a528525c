// Module loading, launch validation (with message content), argument packing
// and end-to-end functional launches through the Device API.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "runtime/device_impl.h"
#include "simtlm/config.h"
#include "simtlm/device.h"
#include "testbenches/common/error_of.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm {
namespace {

using ::testing::HasSubstr;
using ::testing::ContainsRegex;

using test::error_of;

LaunchConfig config(Dim3 grid, Dim3 block, uint32_t dyn = 0) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.dynamic_shared_bytes = dyn;
  return c;
}

TEST(RuntimeModule, MalformedPtxIsPtxErrorWithLocation) {
  Device dev;
  const test::MalformedPtx bad = test::malformed_vec_add();
  // The error is in vec_add's body: the module's other kernels load, and
  // launching vec_add is the PTX error with its location.
  const ModuleHandle h = dev.load_module_string(bad.text, "bad.ptx");
  std::string msg = error_of(ErrorKind::Ptx, [&] { dev.launch(h, "vec_add", config(1, 1), KernelArgs()); });
  EXPECT_THAT(msg, ContainsRegex("^bad\\.ptx:" + std::to_string(bad.line) + ":[0-9]+:"));
}

TEST(RuntimeModule, MissingFileIsInputError) {
  Device dev;
  std::string msg =
      error_of(ErrorKind::Input, [&] { dev.load_module_file("/nonexistent/dir/k.ptx"); });
  EXPECT_THAT(msg, HasSubstr("/nonexistent/dir/k.ptx"));
}

TEST(RuntimeModule, UnknownHandleIsLaunchError) {
  Device dev;
  std::string msg =
      error_of(ErrorKind::Launch, [&] { dev.launch(7, "k", config(1, 1), KernelArgs()); });
  EXPECT_THAT(msg, HasSubstr("unknown module handle 7"));
}

TEST(RuntimeModule, GlobalsAreAllocatedAndInitialised) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kGlobalsPtx, "globals.ptx");
  const LoadedModule& m = dev.impl().module(h);
  uint64_t table = 0, scale = 0, ptr = 0;
  for (size_t i = 0; i < m.module->vars.size(); ++i) {
    if (m.module->vars[i].name == "table") table = m.var_addresses[i];
    if (m.module->vars[i].name == "scale") scale = m.var_addresses[i];
    if (m.module->vars[i].name == "ptr") ptr = m.var_addresses[i];
  }
  ASSERT_NE(table, 0u);
  ASSERT_NE(scale, 0u);
  ASSERT_NE(ptr, 0u);
  EXPECT_EQ(dev.download<uint32_t>(table, 4), (std::vector<uint32_t>{10, 20, 30, 40}));
  EXPECT_EQ(dev.download<float>(scale, 1)[0], 3.0f);
  EXPECT_EQ(dev.download<uint64_t>(ptr, 1)[0], table);
}

TEST(RuntimeModule, KernelsReadGlobalsConstsAndAddressInitialisers) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kGlobalsPtx, "globals.ptx");
  DevicePtr out = dev.malloc(12);
  dev.launch(h, "copy_globals", config(1, 1), KernelArgs().add(out));
  std::vector<uint32_t> r = dev.download<uint32_t>(out, 3);
  EXPECT_EQ(r[0], 30u);
  float s;
  std::memcpy(&s, &r[1], 4);
  EXPECT_EQ(s, 3.0f);
  EXPECT_EQ(r[2], 20u);
}

TEST(RuntimeLaunch, UnknownKernelListsTheModulesKernels) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::string msg =
      error_of(ErrorKind::Launch, [&] { dev.launch(h, "vecadd", config(1, 32), KernelArgs()); });
  EXPECT_THAT(msg, HasSubstr("unknown kernel 'vecadd'"));
  EXPECT_THAT(msg, HasSubstr("vec.ptx"));
  EXPECT_THAT(msg, HasSubstr("vec_add, bounded, capped"));
}

TEST(RuntimeLaunch, ArgumentCountMismatch) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::string msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "vec_add", config(1, 32), KernelArgs().add(uint64_t(0)).add(uint64_t(0)));
  });
  EXPECT_THAT(msg, HasSubstr("kernel 'vec_add' takes 4 argument(s), got 2"));
}

TEST(RuntimeLaunch, ArgumentSizeMismatchNamesTheParameter) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::string msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "vec_add", config(1, 32),
               KernelArgs().add(uint64_t(0)).add(uint32_t(0)).add(uint64_t(0)).add(1u));
  });
  EXPECT_THAT(msg, HasSubstr("argument 1 ('vec_add_param_1', .u64): expected 8 bytes, got 4"));
}

TEST(RuntimeLaunch, BlockLimits) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  KernelArgs args = KernelArgs().add(uint64_t(0)).add(uint64_t(0)).add(uint64_t(0)).add(0u);
  std::string msg =
      error_of(ErrorKind::Launch, [&] { dev.launch(h, "vec_add", config(1, Dim3(32, 64)), args); });
  EXPECT_THAT(msg, HasSubstr("block 32x64x1 has 2048 threads, more than the limit of 1024"));
  msg = error_of(ErrorKind::Launch, [&] { dev.launch(h, "vec_add", config(1, Dim3(32, 0)), args); });
  EXPECT_THAT(msg, HasSubstr("block dimensions must be at least 1, got 32x0x1"));
}

TEST(RuntimeLaunch, ReqntidAndMaxntidAreEnforced) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::string msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "bounded", config(1, 32), KernelArgs().add(0u));
  });
  EXPECT_THAT(msg, HasSubstr(".reqntid 64x1x1"));
  EXPECT_THAT(msg, HasSubstr("block 32x1x1"));
  dev.launch(h, "bounded", config(1, 64), KernelArgs().add(0u));  // exact match is fine
  msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "capped", config(1, 256), KernelArgs().add(0u));
  });
  EXPECT_THAT(msg, HasSubstr(".maxntid 128x1x1"));
  dev.launch(h, "capped", config(1, Dim3(64, 2)), KernelArgs().add(0u));
}

TEST(RuntimeLaunch, GridLimits) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  KernelArgs args = KernelArgs().add(0u);
  std::string msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "capped", config(Dim3(1, 70000), 32), args);
  });
  EXPECT_THAT(msg, HasSubstr("grid dimension y = 70000 exceeds the limit of 65535"));
  msg = error_of(ErrorKind::Launch, [&] { dev.launch(h, "capped", config(Dim3(0), 32), args); });
  EXPECT_THAT(msg, HasSubstr("grid dimensions must be at least 1"));
}

TEST(RuntimeLaunch, SharedMemoryLimitGivesTheNumbers) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::string msg = error_of(ErrorKind::Launch, [&] {
    dev.launch(h, "bounded", config(1, 64, 48 * 1024), KernelArgs().add(0u));
  });
  EXPECT_THAT(msg, HasSubstr("1024 bytes of static + 49152 bytes of dynamic shared memory = "
                             "50176 bytes per CTA, more than the limit of 49152 bytes"));
}

// Issue "Hardening": a 2 GB .local array per thread ended in std::bad_alloc
// with SystemC internals in the message.
TEST(RuntimeLaunch, LocalMemoryPerThreadIsLimitedTo512KB) {
  const std::string ptx = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry big()
{
  .local .align 4 .b8 frame[2147483648];
  .reg .u32 %r<2>;
  mov.u32 %r1, 0;
  st.local.u32 [frame], %r1;
  ret;
}
.visible .entry fits()
{
  .local .align 4 .b8 frame[524288];
  .reg .u32 %r<2>;
  mov.u32 %r1, 0;
  st.local.u32 [frame], %r1;
  ret;
}
)";
  Device dev;
  ModuleHandle h = dev.load_module_string(ptx, "local.ptx");
  const std::string msg = error_of(ErrorKind::Launch, [&] { dev.launch(h, "big", config(1, 32), KernelArgs()); });
  EXPECT_THAT(msg, HasSubstr("kernel 'big' needs 2147483648 bytes of local memory per thread, more than CUDA's "
                             "limit of 524288 bytes (512 KB)"));
  EXPECT_NO_THROW(dev.launch(h, "fits", config(1, 1), KernelArgs()));
}

// Issue "Hardening": a livelocking kernel hung the functional backend, where
// sim.max_instructions was ignored.
TEST(RuntimeLaunch, TheFunctionalBackendStopsAtMaxInstructions) {
  const std::string ptx = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry spin()
{
$L_top:
  bra.uni $L_top;
}
)";
  auto cfg = std::make_shared<Config>(Config::preset("gtx480"));
  cfg->set("sim.max_instructions", "5000", "test");
  DeviceOptions o;
  o.config = cfg;
  Device dev(o);
  ModuleHandle h = dev.load_module_string(ptx, "spin.ptx");
  const std::string msg = error_of(ErrorKind::Launch, [&] { dev.launch(h, "spin", config(2, 64), KernelArgs()); });
  EXPECT_THAT(msg, HasSubstr("kernel 'spin' stopped at sim.max_instructions = 5000 warp instructions (functional "
                             "backend; in CTA (0,0,0))"));
  // A kernel within the bound runs as before.
  ModuleHandle v = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  const DevicePtr d = dev.malloc(256 * 4);
  EXPECT_NO_THROW(dev.launch(v, "vec_add", config(1, 256), KernelArgs().add(d).add(d).add(d).add(256u)));
}

TEST(RuntimeLaunch, ParametersArePackedAtTheirOffsets) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kParamsPtx, "params.ptx");
  const ir::Function* k = dev.impl().module(h).module->find_kernel("write_params");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->param_bytes, 48u);
  DevicePtr out = dev.malloc(40);
  std::vector<uint8_t> arr(16);
  for (int i = 0; i < 16; ++i) arr[i] = uint8_t(0xA0 + i);
  KernelArgs args;
  args.add(out).add(uint32_t(0x11223344)).add(uint64_t(0x0102030405060708ull)).add(2.5f)
      .add(uint16_t(0xBEEF)).add_bytes(arr);
  dev.launch(h, "write_params", config(1, 1), args);
  std::vector<uint8_t> r = dev.download<uint8_t>(out, 40);
  uint32_t a;
  uint64_t b;
  float c;
  uint16_t d;
  std::memcpy(&a, &r[0], 4);
  std::memcpy(&b, &r[8], 8);
  std::memcpy(&c, &r[16], 4);
  std::memcpy(&d, &r[20], 2);
  EXPECT_EQ(a, 0x11223344u);
  EXPECT_EQ(b, 0x0102030405060708ull);
  EXPECT_EQ(c, 2.5f);
  EXPECT_EQ(d, 0xBEEF);
  EXPECT_EQ(std::vector<uint8_t>(r.begin() + 24, r.end()), arr);
}

TEST(RuntimeLaunch, VectorAddEndToEndWithStatsAndHistory) {
  for (unsigned warp : {32u, 8u}) {
    DeviceOptions opt;
    opt.warp_size = warp;
    Device dev(opt);
    ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    const uint32_t n = 250;
    std::vector<float> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f * float(i);
    DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(n * 4);
    LaunchStats s = dev.launch(h, "vec_add", config(4, 64),
                               KernelArgs().add(da).add(db).add(dc).add(n));
    dev.synchronize();
    std::vector<float> c = dev.download<float>(dc, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], 1.5f * float(i)) << "i=" << i;
    EXPECT_EQ(s.kernel, "vec_add");
    EXPECT_EQ(s.ctas, 4u);
    EXPECT_GT(s.warp_instructions, 0u);
    EXPECT_GE(s.thread_instructions, s.warp_instructions);
    EXPECT_GE(s.host_seconds, 0.0);
    ASSERT_EQ(dev.launch_history().size(), 1u);
    EXPECT_EQ(dev.launch_history()[0].warp_instructions, s.warp_instructions);
  }
}

TEST(RuntimeLaunch, LaunchRecordsBoundsTheHistory) {
  DeviceOptions opt;
  opt.launch_records = 2;
  Device dev(opt);
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  std::vector<float> a(256, 1.0f);
  DevicePtr da = dev.upload(a), dc = dev.malloc(256 * 4);
  for (uint32_t k = 1; k <= 4; ++k) {
    LaunchStats s = dev.launch(h, "vec_add", config(k, 64), KernelArgs().add(da).add(da).add(dc).add(k * 64));
    EXPECT_EQ(s.ctas, k);  // launch() reports every launch
  }
  ASSERT_EQ(dev.launch_history().size(), 2u);
  EXPECT_EQ(dev.launch_history()[0].ctas, 3u);
  EXPECT_EQ(dev.launch_history()[1].ctas, 4u);
}

TEST(RuntimeLaunch, OutOfBoundsStoreIsADeviceFault) {
  Device dev;
  ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
  DevicePtr small = dev.malloc(16);
  DevicePtr big = dev.malloc(1024);
  // n = 256 but c has room for 4 elements.
  try {
    dev.launch(h, "vec_add", config(1, 256), KernelArgs().add(big).add(big).add(small).add(256u));
    FAIL() << "expected a device fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Fault) << e.what();
  }
  EXPECT_TRUE(dev.launch_history().empty());
}

TEST(RuntimeDevice, TimingBackendChecksWarpSizeAgainstItsConfiguration) {
  // Rejected before any SystemC module is built: the configuration says 32.
  DeviceOptions opt;
  opt.backend = Backend::Timing;
  opt.warp_size = 16;
  std::string msg = error_of(ErrorKind::Config, [&] { Device dev(opt); });
  EXPECT_THAT(msg, HasSubstr("gpu.sm.warp_size"));
}

TEST(RuntimeDevice, WarpSizeIsChecked) {
  for (unsigned w : {0u, 65u}) {
    DeviceOptions opt;
    opt.warp_size = w;
    std::string msg = error_of(ErrorKind::Config, [&] { Device dev(opt); });
    EXPECT_THAT(msg, HasSubstr("outside 1..64"));
  }
}

}  // namespace
}  // namespace simtlm
