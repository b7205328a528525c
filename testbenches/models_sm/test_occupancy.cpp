// models::occupancy_limits against hand-computed limits on the two presets
// (gtx480 and tesla_c2050 share the SM limits: 1536 threads, 48 warps, 8 CTA
// slots, 32768 registers allocated in multiples of 4 per warp-padded thread,
// 48 KB shared memory).
#include <gtest/gtest.h>

#include "models/sm/occupancy.h"
#include "models/sm/sm_params.h"
#include "simtlm/config.h"

namespace simtlm::models {
namespace {

SmParams c2050() { return sm_params_from_config(Config::preset("tesla_c2050"), 0); }

TEST(Occupancy, RegisterBound) {
  // 128 threads x round4(61) = 64 -> 8192 registers per CTA: 32768 / 8192 = 4.
  // Threads: 1536 / 128 = 12; shared: 49152 / 4096 = 12; slots 8.
  const OccupancyLimits o = occupancy_limits(c2050(), cta_shape(128, 32, 61, 4096));
  EXPECT_EQ(o.by_registers, 4u);
  EXPECT_EQ(o.by_threads, 12u);
  EXPECT_EQ(o.by_shared_memory, 12u);
  EXPECT_EQ(o.by_cta_slots, 8u);
  EXPECT_EQ(o.ctas, 4u);
  EXPECT_EQ(o.limiter(), "registers");
}

TEST(Occupancy, SharedMemoryBoundWithPaddedWarps) {
  // 100 threads pad to 128; 20000 B of shared memory: 49152 / 20000 = 2.
  const OccupancyLimits o = occupancy_limits(c2050(), cta_shape(100, 32, 10, 20000));
  EXPECT_EQ(o.by_shared_memory, 2u);
  EXPECT_EQ(o.by_threads, 12u);  // 1536 / 128
  EXPECT_EQ(o.by_registers, 21u);  // 32768 / (12 x 128) = 21.3
  EXPECT_EQ(o.limiter(), "shared memory");
}

TEST(Occupancy, TiesAreAllNamed) {
  // 256 threads x 20 registers = 5120: 32768 / 5120 = 6 = 1536 / 256.
  const OccupancyLimits o = occupancy_limits(c2050(), cta_shape(256, 32, 20, 0));
  EXPECT_EQ(o.ctas, 6u);
  EXPECT_EQ(o.limiter(), "threads + registers");
  EXPECT_EQ(o.by_shared_memory, kUnbounded);  // no shared memory: no bound
}

TEST(Occupancy, CtaSlotsBindSmallCtas) {
  const OccupancyLimits o = occupancy_limits(c2050(), cta_shape(64, 32, 8, 0));
  EXPECT_EQ(o.by_threads, 24u);
  EXPECT_EQ(o.by_registers, 64u);  // 32768 / (8 x 64)
  EXPECT_EQ(o.limiter(), "CTA slots");
}

TEST(Occupancy, SixteenKilobytesOfSharedMemory) {
  SmParams p = c2050();
  p.shared_memory_bytes = 16384;
  const OccupancyLimits o = occupancy_limits(p, cta_shape(64, 32, 16, 4000));
  EXPECT_EQ(o.by_shared_memory, 4u);  // 16384 / 4000
  EXPECT_EQ(o.limiter(), "shared memory");
}

TEST(Occupancy, OtherWarpSizeFitsNowhere) {
  const OccupancyLimits o = occupancy_limits(c2050(), cta_shape(64, 16, 8, 0));
  EXPECT_EQ(o.ctas, 0u);
}

}  // namespace
}  // namespace simtlm::models
