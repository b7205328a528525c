// The registers per thread that CTA admission uses (gpu.sm.register_count_source):
// a known toolchain count replaces our allocator's estimate in the kernel the
// backend receives, is capped at gpu.sm.max_registers_per_thread, falls back
// to the allocator (saying why) when unknown, and every launch reports it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "runtime/device_impl.h"
#include "simtlm/device.h"
#include "simtlm/error.h"

namespace simtlm {
namespace {

using ::testing::HasSubstr;

const char* kStore = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry store(.param .u64 p_out)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [p_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	st.global.u32 	[%rd2], %r1;
	ret;
}
.visible .entry other()
{
	ret;
}
)";

DeviceOptions options(const std::string& source, RegisterCountLookup lookup) {
  auto cfg = std::make_shared<Config>();
  cfg->set("gpu.sm.register_count_source", source);
  DeviceOptions o;
  o.config = cfg;
  o.known_register_counts = std::move(lookup);
  return o;
}

// Knows `n` registers for kernel "store" of module "m.ptx" only.
RegisterCountLookup knows(uint32_t n) {
  return [n](const std::string& module, const std::string& kernel) -> std::optional<KnownRegisterCount> {
    if (module != "m.ptx" || kernel != "store") return std::nullopt;
    KnownRegisterCount k;
    k.registers = n;
    k.detail = "test table";
    return k;
  };
}

LaunchStats launch_store(Device& dev, ModuleHandle h) {
  const DevicePtr out = dev.malloc(4);
  LaunchConfig c;
  c.block = Dim3(32);
  return dev.launch(h, "store", c, KernelArgs().add(out));
}

const ir::FunctionAnalysis& analysis_of(Device& dev, ModuleHandle h, const std::string& kernel) {
  const ir::Module& m = *dev.impl().module(h).module;
  return m.find_kernel(kernel)->analysis;
}

TEST(RegisterCount, PtxasSourceTakesTheKnownCount) {
  Device dev(options("ptxas", knows(40)));
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  const ir::FunctionAnalysis& a = analysis_of(dev, h, "store");
  EXPECT_EQ(a.regs_per_thread, 40u);
  EXPECT_NE(a.allocator_regs_per_thread, 40u);  // the allocator needs far fewer here
  EXPECT_GT(a.allocator_regs_per_thread, 0u);
  const LaunchStats s = launch_store(dev, h);
  EXPECT_EQ(s.regs_per_thread, 40u);
  EXPECT_EQ(s.register_count_source, "ptxas");
  EXPECT_EQ(s.register_count_detail, "test table");
  // A kernel without a known count falls back, and says so.
  const ir::FunctionAnalysis& other = analysis_of(dev, h, "other");
  EXPECT_EQ(other.regs_source, ir::RegisterCountSource::AllocatorFallback);
  EXPECT_EQ(other.regs_per_thread, other.allocator_regs_per_thread);
  EXPECT_THAT(other.regs_source_detail, HasSubstr("no ptxas count known for 'other' of m.ptx"));
}

TEST(RegisterCount, AllocatorSourceIgnoresKnownCounts) {
  Device dev(options("allocator", knows(40)));
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  const LaunchStats s = launch_store(dev, h);
  EXPECT_EQ(s.regs_per_thread, analysis_of(dev, h, "store").allocator_regs_per_thread);
  EXPECT_EQ(s.register_count_source, "allocator");
}

TEST(RegisterCount, CountsAboveTheLimitAreCapped) {
  Device dev(options("ptxas", knows(100)));
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  const LaunchStats s = launch_store(dev, h);
  EXPECT_EQ(s.regs_per_thread, Config().u32("gpu.sm.max_registers_per_thread"));
  EXPECT_THAT(s.register_count_detail, HasSubstr("100 capped at gpu.sm.max_registers_per_thread = 63"));
}

TEST(RegisterCount, LaunchSpecCountsAndUnknownReasons) {
  RegisterCountLookup lookup = [](const std::string&, const std::string& kernel) {
    KnownRegisterCount k;
    if (kernel == "store") {
      k.registers = 24;
      k.from_launch_spec = true;
    } else {
      k.detail = "ptxas not found";  // registers 0: unknown, with the reason
    }
    return std::optional<KnownRegisterCount>(k);
  };
  Device dev(options("ptxas", lookup));
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  EXPECT_EQ(launch_store(dev, h).register_count_source, "launch_spec");
  EXPECT_EQ(analysis_of(dev, h, "store").regs_per_thread, 24u);
  EXPECT_EQ(analysis_of(dev, h, "other").regs_source_detail, "ptxas not found");
}

TEST(RegisterCount, WithoutALookupEveryKernelFallsBack) {
  Device dev;  // default configuration: source ptxas, nothing known
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  const LaunchStats s = launch_store(dev, h);
  EXPECT_EQ(s.register_count_source, "allocator_fallback");
  EXPECT_EQ(s.regs_per_thread, analysis_of(dev, h, "store").allocator_regs_per_thread);
}

TEST(RegisterCount, RejectPolicyRefusesALaunchAboveTheLimitNamingTheKeys) {
  DeviceOptions o = options("ptxas", knows(100));
  auto cfg = std::make_shared<Config>(*o.config);
  cfg->set("gpu.sm.register_limit_policy", "reject");
  o.config = cfg;
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  EXPECT_EQ(analysis_of(dev, h, "store").regs_per_thread, 100u);  // not capped
  try {
    launch_store(dev, h);
    FAIL() << "expected the launch to be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Launch);
    const std::string msg = e.what();
    EXPECT_THAT(msg, HasSubstr("kernel 'store' uses 100 registers per thread (test table)"));
    EXPECT_THAT(msg, HasSubstr("gpu.sm.max_registers_per_thread = 63"));
    EXPECT_THAT(msg, HasSubstr("gpu.sm.register_limit_policy = reject"));
  }
  // A kernel within the limit still launches.
  LaunchConfig c;
  c.block = Dim3(32);
  EXPECT_NO_THROW(dev.launch(h, "other", c, KernelArgs()));
}

TEST(RegisterCount, AnAllocatorEstimateAboveTheLimitIsCappedLikeAToolchainCount) {
  // A limit below the allocator's estimate for "store" (it needs a few registers).
  auto cfg = std::make_shared<Config>();
  cfg->set("gpu.sm.register_count_source", "allocator");
  cfg->set("gpu.sm.max_registers_per_thread", "1");
  DeviceOptions o;
  o.config = cfg;
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(kStore, "m.ptx");
  const ir::FunctionAnalysis& a = analysis_of(dev, h, "store");
  ASSERT_GT(a.allocator_regs_per_thread, 1u);
  EXPECT_EQ(a.regs_per_thread, 1u);
  EXPECT_THAT(a.regs_source_detail,
              HasSubstr(std::to_string(a.allocator_regs_per_thread) + " capped at gpu.sm.max_registers_per_thread = 1"));
}

}  // namespace
}  // namespace simtlm
