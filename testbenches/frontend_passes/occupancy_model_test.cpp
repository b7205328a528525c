// The occupancy calculator of the unified allocation (frontend/passes/
// occupancy_model.h; seed note 001 §1.6, §2.3, §6 items 8, 9 and 10).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "frontend/passes/occupancy_model.h"

namespace simtlm::frontend::passes {
namespace {

// §6 item 10 / fn. 1: 32 registers reach 2048 threads on Kepler, 20 reach
// 1536 on Fermi (256-thread blocks), 21 do not.
TEST(OccupancyModel, TheSeedsFullOccupancyThresholds) {
  EXPECT_EQ(active_threads(kepler_gtx680(), 256, 32, 0), 2048u);
  EXPECT_LT(active_threads(kepler_gtx680(), 256, 33, 0), 2048u);
  EXPECT_EQ(active_threads(fermi_c2075(), 256, 20, 0), 1536u);
  EXPECT_LT(active_threads(fermi_c2075(), 256, 21, 0), 1536u);
}

// The seed note's §2.3 table (256-thread blocks, no shared memory).
TEST(OccupancyModel, TheTableOfThreadsAgainstRegisters) {
  const struct { uint32_t regs, kepler, fermi; } rows[] = {
      {20, 2048, 1536}, {21, 2048, 1280}, {24, 2048, 1280}, {28, 2048, 1024}, {32, 2048, 1024},
      {36, 1536, 768},  {40, 1536, 768},  {44, 1280, 512},  {48, 1280, 512},  {52, 1024, 512},
      {63, 1024, 512},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(active_threads(kepler_gtx680(), 256, r.regs, 0), r.kepler) << r.regs << " registers";
    EXPECT_EQ(active_threads(fermi_c2075(), 256, r.regs, 0), r.fermi) << r.regs << " registers";
  }
}

TEST(OccupancyModel, TheSeedsFormulaIsAnUpperBound) {
  for (const OccupancyLimits& l : {kepler_gtx680(), fermi_c2075()})
    for (uint32_t regs = 8; regs <= 63; ++regs)
      for (uint32_t smem : {0u, 1024u, 6000u})
        for (uint32_t threads : {64u, 128u, 256u, 512u}) {
          const uint64_t by_regs = l.registers_per_sm / regs;
          const uint64_t by_smem = smem ? uint64_t(l.shared_bytes_per_sm) * threads / smem : UINT64_MAX;
          EXPECT_LE(active_threads(l, threads, regs, smem), std::min(by_regs, by_smem));
        }
}

// getRegSmem (§6 items 8 and 9): the budget and the spill slots for a target
// keep the target resident, and user plus spill shared memory fit the SM.
TEST(OccupancyModel, TheInverseKeepsTheTargetAndFitsTheSharedMemory) {
  for (const OccupancyLimits& l : {kepler_gtx680(), fermi_c2075()})
    for (uint32_t threads : {64u, 128u, 192u, 256u, 512u})
      for (uint32_t user : {0u, 512u, 3000u}) {
        const uint32_t most = active_threads(l, threads, 1, user);
        for (uint32_t target = threads; target <= most; target += threads) {
          const RegSmem r = reg_smem_for(l, threads, target, user);
          ASSERT_GT(r.registers, 0u) << threads << " threads, target " << target;
          const uint32_t spill = r.smem_slots_per_thread * 4 * threads;
          EXPECT_GE(active_threads(l, threads, r.registers, user + spill), target);
          EXPECT_LE(uint64_t(spill) * (target / threads) + uint64_t(user) * (target / threads), l.shared_bytes_per_sm);
          if (r.registers < l.max_registers_per_thread) {  // the largest such count
            EXPECT_LT(active_threads(l, threads, r.registers + 1, user), target);
          }
        }
      }
  // Fermi at full occupancy with 256-thread blocks: 20 registers and 8 slots (32 bytes) per thread.
  const RegSmem full = reg_smem_for(fermi_c2075(), 256, 1536, 0);
  EXPECT_EQ(full.registers, 20u);
  EXPECT_EQ(full.smem_slots_per_thread, 8u);
  // Kepler: 32 registers and 6 slots (24 bytes), §2.1's derived row.
  const RegSmem kfull = reg_smem_for(kepler_gtx680(), 256, 2048, 0);
  EXPECT_EQ(kfull.registers, 32u);
  EXPECT_EQ(kfull.smem_slots_per_thread, 6u);
}

}  // namespace
}  // namespace simtlm::frontend::passes
