// 15 SMs (each with its L1D and a fixed-latency memory) sharing one clock
// dispatcher run a loop kernel mixing loads and floating-point work to the
// same instruction counts as the functional model. Simulation speed is a
// benchmark (bench/run_timing_bench.sh, docs/performance.md), not a test.
#include <gtest/gtest.h>

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

TEST(SmMany, FifteenSmsRunALoadLoopKernelToTheFunctionalCounts) {
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
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
  for (auto& b : benches) {
    ASSERT_TRUE(b->all_done());
    SmStats& s = b->sm().stats();
    EXPECT_EQ(s.warp_instructions, b->reference.warp_instructions);
    EXPECT_EQ(s.thread_instructions, b->reference.thread_instructions);
    EXPECT_EQ(s.ctas_completed, ctas);
  }
}

}  // namespace
}  // namespace simtlm::models::test
