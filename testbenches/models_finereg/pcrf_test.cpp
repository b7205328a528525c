// FineReg's PCRF (models/finereg/pcrf.h): the linked lists of Figure 11,
// invariants 4-6 of seed note 004 §7 under a long random sequence of
// switch-outs and restores, and the errors for what the RMU must never do.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "models/finereg/pcrf.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {
namespace {

std::vector<PcrfItem> items(uint32_t n, uint32_t first_reg = 0) {
  std::vector<PcrfItem> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(PcrfItem{i % 4, first_reg + i / 4, {}});
  return v;
}

TEST(FineRegPcrf, Figure11ChainsNeedNotBeContiguous) {
  // Entries 0 and 1 are taken and freed again while 2 and 3 stay in use, so
  // the next three-register CTA gets 0 -> 1 -> 4, the figure's chain.
  Pcrf p(1024, 128);
  EXPECT_EQ(p.tag_bits(), 21u);  // 10 + 5 + 6 bits (seed §V-F)
  p.store(1, items(1), 4, 8);
  p.store(2, items(1), 4, 8);
  p.store(3, items(2), 4, 8);
  EXPECT_EQ(p.chain(3), (std::vector<uint32_t>{2, 3}));
  p.restore(1);
  p.restore(2);
  p.store(0, items(3), 4, 8);
  EXPECT_EQ(p.chain(0), (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_EQ(p.count(0), 3u);
  EXPECT_EQ(p.used(), 5u);
  p.check();
}

TEST(FineRegPcrf, RestoreGivesBackEveryRegisterWithItsData) {
  Pcrf p(16, 4);
  std::vector<PcrfItem> in;
  for (uint32_t i = 0; i < 5; ++i) {
    PcrfItem it{i % 2, 10 + i, {}};
    for (uint32_t lane = 0; lane < 32; ++lane) it.lanes.push_back(1000 * i + lane);
    in.push_back(it);
  }
  p.store(2, in, 2, 63);
  const std::vector<PcrfItem> out = p.restore(2);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].warp, in[i].warp);
    EXPECT_EQ(out[i].reg, in[i].reg);
    EXPECT_EQ(out[i].lanes, in[i].lanes);
  }
  EXPECT_EQ(p.used(), 0u);
  EXPECT_FALSE(p.holds(2));
  p.check();
}

TEST(FineRegPcrf, ACtaWithoutLiveRegistersHasAnEmptyList) {
  Pcrf p(4, 2);
  p.store(1, {}, 4, 8);
  EXPECT_TRUE(p.holds(1));
  EXPECT_EQ(p.count(1), 0u);
  p.check();
  EXPECT_TRUE(p.restore(1).empty());
  EXPECT_FALSE(p.holds(1));
}

TEST(FineRegPcrf, WhatTheRmuMustNeverDoIsAModelError) {
  Pcrf p(4, 2);
  EXPECT_THROW(p.store(0, items(5), 4, 8), Error);  // invariant 6: never overflow
  EXPECT_EQ(p.used(), 0u);
  EXPECT_THROW(p.store(0, {PcrfItem{4, 0, {}}}, 4, 8), Error);  // warp outside the CTA
  EXPECT_THROW(p.store(0, {PcrfItem{0, 8, {}}}, 4, 8), Error);  // register outside the CTA
  EXPECT_THROW(p.store(0, {PcrfItem{1, 2, {}}, PcrfItem{1, 2, {}}}, 4, 8), Error);  // twice
  EXPECT_THROW(p.restore(1), Error);
  p.store(0, items(2), 4, 8);
  EXPECT_THROW(p.store(0, items(1), 4, 8), Error);  // a second list
  p.check();
}

TEST(FineRegPcrf, InvariantsHoldThroughRandomSwitching) {
  Pcrf p(256, 32);
  std::mt19937 rng(27);
  std::map<uint32_t, std::vector<PcrfItem>> model;  // what each pending CTA stored
  for (int step = 0; step < 4000; ++step) {
    const uint32_t cta = rng() % 32;
    if (model.count(cta)) {
      const std::vector<PcrfItem> out = p.restore(cta);
      ASSERT_EQ(out.size(), model[cta].size());
      for (size_t i = 0; i < out.size(); ++i) {
        ASSERT_EQ(out[i].warp, model[cta][i].warp);
        ASSERT_EQ(out[i].reg, model[cta][i].reg);
        ASSERT_EQ(out[i].lanes, model[cta][i].lanes);
      }
      model.erase(cta);
    } else {
      const uint32_t n = rng() % 40;
      if (n > p.free_entries()) continue;  // the RMU's check (invariant 6)
      std::vector<PcrfItem> in;
      for (uint32_t i = 0; i < n; ++i) in.push_back(PcrfItem{i / 8, i % 8, {cta * 100 + i}});
      p.store(cta, in, 8, 8);
      model[cta] = in;
    }
    p.check();
    uint32_t sum = 0;
    for (const auto& [c, list] : model) sum += static_cast<uint32_t>(list.size());
    ASSERT_EQ(p.used(), sum);
    ASSERT_LE(p.used(), p.capacity());
  }
}

}  // namespace
}  // namespace simtlm::models::finereg
