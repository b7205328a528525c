// PTX cache operators on the gtx480 timing platform (docs/memory-system.md,
// "Cache operators"): ld.cg and ld.cv take the global lanes around the L1D,
// ld.ca (and no operator) goes through it, and gpu.l1d.cache_operators=false
// makes every operator behave as .ca. The expected access counts follow from
// the kernel: one warp loads the same 32 words twice, the second load after
// the first has returned, then stores them once.
#include <gtest/gtest.h>

#include <string>

#include "runtime/device_impl.h"
#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

// out[tid] = in[tid] + in[tid + (first & 0)]: the second load's address
// depends on the first load's value, so it issues after the first returned.
std::string twice_loaded_ptx(const std::string& cop) {
  return R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry twice(.param .u64 p_in, .param .u64 p_out)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p_in];
	ld.param.u64 	%rd2, [p_out];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global)" + cop + R"(.u32 	%r2, [%rd4];
	and.b32 	%r3, %r2, 0;
	cvt.u64.u32 	%rd5, %r3;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global)" + cop + R"(.u32 	%r4, [%rd6];
	add.u32 	%r5, %r2, %r4;
	add.s64 	%rd7, %rd2, %rd3;
	st.global.u32 	[%rd7], %r5;
	ret;
}
)";
}

struct Counts {
  double l1d_reads, l1d_hits, l2_reads;
};

// Runs one warp of `twice` with cache operator `cop` ("" or ".ca", ".cg", ...).
Counts run_twice(const std::string& cop, const std::vector<std::string>& overrides = {}) {
  std::vector<std::string> o = {"gpu.num_sms=1"};
  o.insert(o.end(), overrides.begin(), overrides.end());
  Device dev(timing_options(make_config(o)));
  ModuleHandle m = dev.load_module_string(twice_loaded_ptx(cop), "twice.ptx");
  std::vector<uint32_t> in(32);
  for (uint32_t i = 0; i < 32; ++i) in[i] = 1000 + 7 * i;
  DevicePtr din = dev.upload(in);
  DevicePtr dout = dev.malloc(32 * 4);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(32);
  KernelArgs a;
  a.add(din).add(dout);
  LaunchStats s = dev.launch(m, "twice", lc, a);
  std::vector<uint32_t> out = dev.download<uint32_t>(dout, 32);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], 2 * in[i]) << i;  // operators never change values
  return {stat(s, "gpu.l1d_total.reads"), stat(s, "gpu.l1d_total.hits"), stat(s, "gpu.l2_total.reads")};
}

// 32 words = one 128-byte line: cached, the first load misses in the L1D and
// the second hits; around the L1D, both reach the L2.
void expect_cached_in_l1d(const Counts& c) {
  EXPECT_EQ(c.l1d_reads, 2);
  EXPECT_EQ(c.l1d_hits, 1);
  EXPECT_EQ(c.l2_reads, 1);
}

void expect_l1d_bypassed(const Counts& c) {
  EXPECT_EQ(c.l1d_reads, 0);
  EXPECT_EQ(c.l2_reads, 2);
}

TEST(CacheOperators, CaLoadsAreCachedInTheL1d) {
  expect_cached_in_l1d(run_twice(".ca"));
}

TEST(CacheOperators, LoadsWithoutAnOperatorAreCachedInTheL1d) {
  expect_cached_in_l1d(run_twice(""));
}

// .cg: "cache at global level" -- both loads go to the L2.
TEST(CacheOperators, CgLoadsBypassTheL1d) {
  expect_l1d_bypassed(run_twice(".cg"));
}

// .cv: "do not cache, fetch again" -- also around the L1D.
TEST(CacheOperators, CvLoadsBypassTheL1d) {
  expect_l1d_bypassed(run_twice(".cv"));
}

// .cs is evict-first, still cached: the second load hits.
TEST(CacheOperators, CsLoadsAreCachedEvictFirst) {
  expect_cached_in_l1d(run_twice(".cs"));
}

TEST(CacheOperators, IgnoredWhenDisabled) {
  expect_cached_in_l1d(run_twice(".cg", {"gpu.l1d.cache_operators=false"}));
}

}  // namespace
}  // namespace simtlm::test
