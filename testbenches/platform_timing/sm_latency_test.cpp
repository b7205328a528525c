// SM latencies seen through the whole timing platform, checked against the
// configuration (never against the model): %clock64 around a chain of
// dependent adds, and the configured fixed latencies of the SM's instruction
// cache (gpu.sm.icache.miss_latency), constant cache
// (gpu.const_cache.miss_latency) and kernel-parameter loads
// (gpu.sm.param_latency). Timing rules: docs/sm-model.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

const char* const kHeader = ".version 7.0\n.target sm_75\n.address_size 64\n";

// t0 = %clock64; n x (r = r + 1) dependent; t1 = %clock64; out[0] = t1 - t0,
// out[1] = r.
std::string clock_chain_ptx(unsigned n) {
  std::string s = kHeader;
  s += ".visible .entry chain(.param .u64 p_out)\n{\n"
       "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<8>;\n"
       "\tld.param.u64 %rd1, [p_out];\n"
       "\tmov.u32 %r1, 0;\n"
       "\tmov.u64 %rd2, %clock64;\n";
  for (unsigned i = 0; i < n; ++i) s += "\tadd.u32 %r1, %r1, 1;\n";
  s += "\tmov.u64 %rd3, %clock64;\n"
       "\tsub.s64 %rd4, %rd3, %rd2;\n"
       "\tst.global.u64 [%rd1], %rd4;\n"
       "\tcvt.u64.u32 %rd5, %r1;\n"
       "\tst.global.u64 [%rd1+8], %rd5;\n"
       "\tret;\n}\n";
  return s;
}

struct ChainResult {
  uint64_t cycles = 0;
  uint64_t sum = 0;
};

ChainResult run_chain(const std::shared_ptr<Config>& cfg, unsigned n) {
  Device dev(timing_options(cfg));
  ModuleHandle m = dev.load_module_string(clock_chain_ptx(n), "chain.ptx");
  DevicePtr out = dev.malloc(16);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(1);
  KernelArgs a;
  a.add(out);
  dev.launch(m, "chain", lc, a);
  uint64_t host[2] = {0, 0};
  dev.memcpy_to_host(host, out, 16);
  return {host[0], host[1]};
}

// A dependent ALU instruction issues latency + 1 cycles after its producer
// (writeback at exec + latency, issue in the next cycle; one source register,
// no bank conflict), so n dependent adds take n x (latency + 1) cycles
// between the two clock reads (plus a cycle or two at the ends).
TEST(SmClock, DependentAddChainMatchesConfiguredLatency) {
  auto cfg = make_config({"gpu.num_sms=1", "gpu.sm.icache.perfect=true"});
  const unsigned n = 64;
  const ChainResult r = run_chain(cfg, n);
  EXPECT_EQ(r.sum, n);
  const double expected = n * (cfg->u32("gpu.sm.op.int.add.latency") + 1.0);
  std::printf("%u dependent adds: %%clock64 delta %llu, expected %.0f core cycles\n", n,
              static_cast<unsigned long long>(r.cycles), expected);
  EXPECT_NEAR(static_cast<double>(r.cycles), expected, 0.10 * expected);
}

TEST(SmClock, FollowsTheConfiguredAddLatency) {
  auto cfg = make_config({"gpu.num_sms=1", "gpu.sm.icache.perfect=true", "gpu.sm.op.int.add.latency=20"});
  const unsigned n = 32;
  const ChainResult r = run_chain(cfg, n);
  EXPECT_EQ(r.sum, n);
  const double expected = n * (20 + 1.0);
  std::printf("%u dependent adds (latency 20): %%clock64 delta %llu, expected %.0f\n", n,
              static_cast<unsigned long long>(r.cycles), expected);
  EXPECT_NEAR(static_cast<double>(r.cycles), expected, 0.10 * expected);
}

// ---------------------------------------------------------------- parameter loads

// t0; ld.param; a dependent add; t1: the parameter latency plus the LD/ST
// pipeline and a few issue edges.
const char* const kParamPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry param(.param .u64 p_out, .param .u32 p_v)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [p_out];
	add.u64 %rd5, %rd1, 0;
	mov.u64 %rd2, %clock64;
	ld.param.u32 %r1, [p_v];
	add.u32 %r2, %r1, 1;
	mov.u64 %rd3, %clock64;
	sub.s64 %rd4, %rd3, %rd2;
	st.global.u64 [%rd5], %rd4;
	ret;
}
)";

uint64_t param_cycles(const std::shared_ptr<Config>& cfg) {
  Device dev(timing_options(cfg));
  ModuleHandle m = dev.load_module_string(kParamPtx, "param.ptx");
  DevicePtr out = dev.malloc(8);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(1);
  KernelArgs a;
  a.add(out).add(uint32_t{5});
  dev.launch(m, "param", lc, a);
  uint64_t v = 0;
  dev.memcpy_to_host(&v, out, 8);
  return v;
}

// Delta = param_latency + (ldst.latency - 1) + a fixed handful of issue edges
// (collect, writeback, the next issue); measured at two settings of the key,
// the difference is the difference of the settings.
void expect_param_delta(const std::vector<std::string>& overrides) {
  auto cfg = make_config(overrides);
  const uint64_t d = param_cycles(cfg);
  const uint32_t lat = cfg->u32("gpu.sm.param_latency");
  const uint32_t ldst = cfg->u32("gpu.sm.exec.ldst.latency");
  std::printf("ld.param with param_latency %u: %llu cycles\n", lat, static_cast<unsigned long long>(d));
  EXPECT_GE(d, lat + ldst - 1);
  EXPECT_LE(d, lat + ldst - 1 + 6);
}

TEST(SmLatencyKeys, ParamLatencyKey) {
  expect_param_delta({"gpu.num_sms=1", "gpu.sm.icache.perfect=true", "gpu.sm.param_latency=400"});
}

TEST(SmLatencyKeys, ParamLatencyDefault) {
  expect_param_delta({"gpu.num_sms=1", "gpu.sm.icache.perfect=true"});
}

// ---------------------------------------------------------------- constant cache

// The same constant word read twice, each read followed by a dependent add and
// a clock read: the first read misses, the second hits, so
// (t1 - t0) - (t2 - t1) = miss_latency - hit_latency.
const char* const kConstPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .const .align 4 .u32 cval = 7;
.visible .entry cread(.param .u64 p_out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [p_out];
	add.u64 %rd6, %rd1, 0;
	mov.u64 %rd2, %clock64;
	ld.const.u32 %r1, [cval];
	add.u32 %r2, %r1, 1;
	mov.u64 %rd3, %clock64;
	ld.const.u32 %r3, [cval];
	add.u32 %r4, %r3, %r2;
	mov.u64 %rd4, %clock64;
	st.global.u64 [%rd6], %rd2;
	st.global.u64 [%rd6+8], %rd3;
	st.global.u64 [%rd6+16], %rd4;
	cvt.u64.u32 %rd5, %r4;
	st.global.u64 [%rd6+24], %rd5;
	ret;
}
)";

void check_const_miss(const std::vector<std::string>& overrides) {
  auto cfg = make_config(overrides);
  Device dev(timing_options(cfg));
  ModuleHandle m = dev.load_module_string(kConstPtx, "const.ptx");
  DevicePtr out = dev.malloc(32);
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(1);
  KernelArgs a;
  a.add(out);
  dev.launch(m, "cread", lc, a);
  uint64_t t[4] = {};
  dev.memcpy_to_host(t, out, 32);
  EXPECT_EQ(t[3], 15u);  // 7 + (7 + 1)
  const int64_t miss = static_cast<int64_t>(t[1] - t[0]);
  const int64_t hit = static_cast<int64_t>(t[2] - t[1]);
  const int64_t expected = int64_t(cfg->u32("gpu.const_cache.miss_latency")) - cfg->u32("gpu.const_cache.hit_latency");
  std::printf("const read: miss %lld, hit %lld cycles; difference expected %lld\n", static_cast<long long>(miss),
              static_cast<long long>(hit), static_cast<long long>(expected));
  EXPECT_NEAR(static_cast<double>(miss - hit), static_cast<double>(expected), 2.0);
}

TEST(SmLatencyKeys, ConstMissLatencyDefault) {
  check_const_miss({"gpu.num_sms=1", "gpu.sm.icache.perfect=true"});
}

TEST(SmLatencyKeys, ConstMissLatencyKey) {
  check_const_miss({"gpu.num_sms=1", "gpu.sm.icache.perfect=true", "gpu.const_cache.miss_latency=600"});
}

// ---------------------------------------------------------------- instruction cache

// A kernel of a few instructions (one icache line, no memory traffic)
// launched twice on one SM: the first launch misses once in the instruction
// cache, the second hits, so the launches differ by miss_latency -
// hit_latency cycles.
const char* const kTinyPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry tiny()
{
	.reg .b32 %r<3>;
	mov.u32 %r1, 3;
	add.u32 %r2, %r1, 1;
	ret;
}
)";

void check_icache_miss(const std::vector<std::string>& overrides) {
  auto cfg = make_config(overrides);
  Device dev(timing_options(cfg));
  ModuleHandle m = dev.load_module_string(kTinyPtx, "tiny.ptx");
  LaunchConfig lc;
  lc.grid = Dim3(1);
  lc.block = Dim3(1);
  KernelArgs a;
  const uint64_t cold = dev.launch(m, "tiny", lc, a).cycles;
  const uint64_t warm = dev.launch(m, "tiny", lc, a).cycles;
  const double expected = double(cfg->u32("gpu.sm.icache.miss_latency")) - cfg->u32("gpu.sm.icache.hit_latency");
  std::printf("tiny kernel: cold %llu, warm %llu cycles; difference expected %.0f\n",
              static_cast<unsigned long long>(cold), static_cast<unsigned long long>(warm), expected);
  EXPECT_NEAR(static_cast<double>(cold) - static_cast<double>(warm), expected, 2.0);
}

TEST(SmLatencyKeys, IcacheMissLatencyDefault) { check_icache_miss({"gpu.num_sms=1"}); }

TEST(SmLatencyKeys, IcacheMissLatencyKey) { check_icache_miss({"gpu.num_sms=1", "gpu.sm.icache.miss_latency=700"}); }

}  // namespace
}  // namespace simtlm::test
