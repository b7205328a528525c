// The runtime's side of the pass pipeline: options come from the
// configuration key frontend.passes, errors name it, and kernel variants of a
// launch-shape pass are made once per (module, block shape) and run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "frontend/passes/power_states_pass.h"
#include "runtime/device_impl.h"
#include "simtlm/device.h"
#include "testbenches/common/test_shape_pass.h"

namespace simtlm {
namespace {

using ::testing::HasSubstr;

// out[i] = i * 2 for i < n.
const char* kTwice = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry twice(.param .u64 p_out, .param .u32 p_n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [p_out];
	ld.param.u32 	%r1, [p_n];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.u32 	%p1, %r5, %r1;
	@%p1 bra 	$L_end;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r5, 4;
	add.s64 	%rd4, %rd2, %rd3;
	shl.b32 	%r5, %r5, 1;
	st.global.u32 	[%rd4], %r5;
$L_end:
	ret;
}
)";

DeviceOptions with_passes(const std::string& passes) {
  auto cfg = std::make_shared<Config>();
  cfg->set("frontend.passes", passes);
  DeviceOptions o;
  o.config = cfg;
  return o;
}

void run_twice(Device& dev, ModuleHandle h, uint32_t n, uint32_t block) {
  const DevicePtr out = dev.malloc(n * 4);
  LaunchConfig c;
  c.block = Dim3(block);
  c.grid = Dim3((n + block - 1) / block);
  dev.launch(h, "twice", c, KernelArgs().add(out).add(n));
  const std::vector<uint32_t> got = dev.download<uint32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 2 * i) << "block " << block;
  dev.free(out);
}

TEST(PassVariants, MadeOncePerBlockShapeAndRun) {
  testing_passes::register_test_shape_pass();
  testing_passes::test_shape_runs() = 0;
  Device dev(with_passes("test_shape.enabled=true; test_shape.scale=10; test_shape.live=false"));
  const ModuleHandle h = dev.load_module_string(kTwice, "twice.ptx");
  EXPECT_EQ(testing_passes::test_shape_runs(), 0u);
  run_twice(dev, h, 100, 64);
  run_twice(dev, h, 300, 64);
  EXPECT_EQ(dev.impl().variants_made(), 1u);
  run_twice(dev, h, 100, 32);
  EXPECT_EQ(dev.impl().variants_made(), 2u);
  EXPECT_EQ(testing_passes::test_shape_runs(), 2u);

  DeviceImpl& impl = dev.impl();
  const ir::Module& v64 = impl.module_for_launch(h, Dim3(64));
  const ir::Module& v32 = impl.module_for_launch(h, Dim3(32));
  EXPECT_EQ(&v64, &impl.module_for_launch(h, Dim3(64)));  // reused, not rebuilt
  EXPECT_EQ(testing_passes::test_shape_runs(), 2u);
  EXPECT_NE(&v64, impl.module(h).module.get());
  const auto* s64 = v64.functions.at(0).annotations.find<uint64_t>("test_shape.shape");
  const auto* s32 = v32.functions.at(0).annotations.find<uint64_t>("test_shape.shape");
  ASSERT_TRUE(s64 && s32);
  EXPECT_EQ((*s64)[3], 643u);
  EXPECT_EQ((*s32)[3], 323u);
  EXPECT_FALSE(v64.functions.at(0).annotations.has("test_shape.live_regs"));  // live=false
  EXPECT_TRUE(impl.module(h).module->functions.at(0).annotations.empty());
  // A 2-D block of the same thread count is another shape.
  impl.module_for_launch(h, Dim3(32, 2));
  EXPECT_EQ(dev.impl().variants_made(), 3u);
}

TEST(PassVariants, WithoutLaunchShapePassesTheLoadedModuleRuns) {
  Device dev(with_passes(""));
  const ModuleHandle h = dev.load_module_string(kTwice, "twice.ptx");
  run_twice(dev, h, 50, 32);
  EXPECT_EQ(dev.impl().variants_made(), 0u);
  EXPECT_EQ(&dev.impl().module_for_launch(h, Dim3(32)), dev.impl().module(h).module.get());
}

TEST(PassVariants, ConfigurationErrorsNameTheKey) {
  testing_passes::register_test_shape_pass();
  try {
    Device dev(with_passes("test_shape.enabled=true; nosuch.x=1"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(ErrorKind::Config));
    EXPECT_THAT(e.what(), HasSubstr("frontend.passes (from "));
    EXPECT_THAT(e.what(), HasSubstr("unknown front-end pass 'nosuch'"));
  }
}

// The reordering pass of register sharing is chosen by its mechanism's key
// (which Config::validate checks), not by frontend.passes.
TEST(PassVariants, ReorderRegistersIsChosenByItsSharingKey) {
  try {
    Device dev(with_passes("reorder_registers.enabled=true"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(ErrorKind::Config));
    EXPECT_THAT(e.what(), HasSubstr("frontend.passes (from "));
    EXPECT_THAT(e.what(), HasSubstr("chosen by gpu.sm.regfile.sharing_reorder"));
  }
  auto cfg = std::make_shared<Config>();
  cfg->set("gpu.sm.regfile.alloc_policy", "sharing");
  cfg->set("gpu.sm.regfile.sharing_reorder", "true");
  DeviceOptions o;
  o.config = cfg;
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(kTwice, "twice.ptx");
  const ir::Function* k = dev.impl().module(h).module->find_kernel("twice");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->analysis.register_numbers.size(), k->analysis.phys_regs32);
  EXPECT_FALSE(k->analysis.register_numbers.empty());
}

// GREENER: the power policy enables the power_states pass with the policy's
// window; the pass's window set in frontend.passes too is an error naming
// both keys (one place sets W). The timing launch then runs with it.
TEST(PassVariants, TheGreenerPolicyEnablesThePowerStatesPass) {
  auto greener = [](const std::string& passes) {
    DeviceOptions o = with_passes(passes);
    auto cfg = std::make_shared<Config>(*o.config);
    cfg->set("gpu.sm.regfile.power.policy", "greener");
    cfg->set("gpu.sm.regfile.power.window", "7");
    o.config = cfg;
    return o;
  };
  try {
    Device dev(greener("power_states.window=5"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(ErrorKind::Config));
    EXPECT_THAT(e.what(), HasSubstr("power_states.window"));
    EXPECT_THAT(e.what(), HasSubstr("gpu.sm.regfile.power.window"));
  }
  Device dev(greener(""));
  const ModuleHandle h = dev.load_module_string(kTwice, "twice.ptx");
  const ir::Function& k = *dev.impl().module(h).module->find_kernel("twice");
  EXPECT_TRUE(k.annotations.has(frontend::passes::kPowerStatesColumn));
  run_twice(dev, h, 100, 32);
}

}  // namespace
}  // namespace simtlm
