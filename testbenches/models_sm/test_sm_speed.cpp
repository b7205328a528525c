// Simulation speed of the SM model: 15 SMs (each with its L1D and a fixed-
// latency memory) run a loop kernel mixing loads and floating-point work.
// The target is >= 500k simulated warp instructions per host second; the
// test fails only below a much lower floor so that a loaded CI machine does
// not make it flaky, and prints the measured rate.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

const char* const kMixPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry mix(.param .u64 p, .param .u32 iters)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [iters];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.s32 %r6, %r4, %r5, %r3;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f3, 0f00000000;
  mov.u32 %r2, 0;
LOOP:
  ld.global.f32 %f2, [%rd3];
  fma.rn.f32 %f1, %f1, %f2, %f1;
  add.f32 %f3, %f3, %f2;
  mul.f32 %f4, %f3, %f2;
  add.f32 %f5, %f4, %f1;
  fma.rn.f32 %f6, %f5, %f2, %f3;
  add.f32 %f1, %f6, %f1;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  st.global.f32 [%rd3], %f1;
  ret;
}
)PTX";

TEST(SmSpeed, FifteenSmsSimulateAtLeastTheFloorRate) {
  constexpr unsigned kSms = 15;
  std::vector<std::unique_ptr<SmBench>> benches;
  for (unsigned i = 0; i < kSms; ++i) {
    SmParams p = test_params();
    p.id = i;
    p.icache_perfect = false;
    benches.push_back(std::make_unique<SmBench>(kMixPtx, p, 200, 1u << 20, "sm" + std::to_string(i)));
  }
  const uint32_t ctas = 12, threads = 256, iters = 40;
  for (auto& b : benches) {
    const uint64_t buf = b->upload(std::vector<float>(ctas * threads, 0.5f));
    b->launch("mix", dim(ctas), dim(threads), Args().add(buf).add(iters));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t insts = 0, cycles = 0;
  for (auto& b : benches) {
    ASSERT_TRUE(b->all_done());
    SmStats& s = b->sm().stats();
    EXPECT_EQ(s.warp_instructions, b->reference.warp_instructions);
    insts += s.warp_instructions;
    cycles = std::max(cycles, s.active_cycles);
  }
  // CPU time: other jobs sharing the machine do not count against the model.
  const double rate = static_cast<double>(insts) / (cpu > 0 ? cpu : secs);
  std::printf("[ speed    ] %u SMs: %llu warp instructions, %llu cycles, %.3f s CPU (%.3f s wall) = %.0f warp "
              "instructions per CPU second\n",
              kSms, static_cast<unsigned long long>(insts), static_cast<unsigned long long>(cycles), cpu, secs, rate);
  EXPECT_GT(rate, 100000.0);
}

}  // namespace
}  // namespace simtlm::models::test
