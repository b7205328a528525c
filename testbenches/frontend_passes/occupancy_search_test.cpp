// The seed's occupancy search (frontend/passes/occupancy_search.h; Hayes &
// Zhang Fig. 5, seed note 001 §1.9 and §6 item 18): on evaluators given by
// the test (which levels are beneficial), and on the pressure kernel.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "frontend/passes/occupancy_search.h"
#include "frontend/passes/pipeline.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend::passes {
namespace {

SearchInputs inputs(uint32_t block, uint32_t org, uint32_t max, uint32_t initial, bool bound = true) {
  SearchInputs in;
  in.block = block;
  in.org_threads = org;
  in.max_threads = max;
  in.initial = initial;
  in.concurrency_bound = bound;
  in.ad_int = 3;
  return in;
}

TEST(OccupancySearch, ANonConcurrencyBoundKernelKeepsItsOccupancy) {
  std::string d;
  std::set<uint32_t> asked;
  const auto ci = [&](uint32_t t) {
    asked.insert(t);
    return true;
  };
  EXPECT_EQ(choose_level(inputs(256, 512, 1536, 768, false), 0, ci, &d), 512u);
  EXPECT_EQ(d, "not concurrency-bound");
  EXPECT_TRUE(asked.empty());
}

TEST(OccupancySearch, ABeneficialStartGoesUpToTheLargestBeneficialLevel) {
  std::string d;
  // Beneficial at 768, 1024 and 1536, not at 1280: the largest, MaxThrd included (fix iii).
  const std::set<uint32_t> good = {768, 1024, 1536};
  const auto ci = [&](uint32_t t) { return good.count(t) != 0; };
  EXPECT_EQ(choose_level(inputs(256, 512, 1536, 768), 0, ci, &d), 1536u);
  EXPECT_EQ(d, "up");
  // Nothing above the start: the start itself (fix v).
  const auto only_start = [](uint32_t t) { return t == 768; };
  EXPECT_EQ(choose_level(inputs(256, 512, 1536, 768), 0, only_start, &d), 768u);
}

TEST(OccupancySearch, ANonBeneficialStartGoesDownToTheFirstBeneficialLevel) {
  std::string d;
  const std::set<uint32_t> good = {768, 512};
  const auto ci = [&](uint32_t t) { return good.count(t) != 0; };
  EXPECT_EQ(choose_level(inputs(256, 256, 1536, 1280), 0, ci, &d), 768u);
  EXPECT_EQ(d, "down");
  // Never at or below max(SmemFitTnum, ActTnum_org) (fix ii): with SmemFitTnum
  // 768 the walk stops above it, and nothing beneficial means ActTnum_org.
  EXPECT_EQ(choose_level(inputs(256, 256, 1536, 1280), 768, ci, &d), 256u);
  // A start below SmemFitTnum keeps the original occupancy (line 23).
  EXPECT_EQ(choose_level(inputs(256, 256, 1536, 1024), 1280, ci, &d), 256u);
  EXPECT_EQ(d, "below SmemFitTnum");
}

TEST(OccupancySearch, TheResultIsAMultipleOfTheBlockInRangeAndDeterministic) {
  for (uint32_t block : {64u, 96u, 128u, 256u}) {
    const uint32_t org = block, max = 1536 / block * block;
    for (uint32_t start = org; start <= max; start += block)
      for (uint32_t pattern = 0; pattern < 64; ++pattern) {
        const auto ci = [&](uint32_t t) { return ((pattern >> (t / block % 6)) & 1) != 0; };
        const uint32_t a = choose_level(inputs(block, org, max, start), 0, ci, nullptr);
        EXPECT_EQ(a % block, 0u);
        EXPECT_GE(a, org);
        EXPECT_LE(a, max);
        EXPECT_EQ(a, choose_level(inputs(block, org, max, start), 0, ci, nullptr));
      }
  }
}

// The pressure kernel on the seed's Fermi: its demand limits the occupancy,
// so the table runs from ActTnum_org to MaxThrd in block steps (256 threads) with R
// falling (§6 item 17: R and the shared slots do not rise with the level, the
// off-chip instructions do not fall), and the choice is one of its rows.
TEST(OccupancySearch, ThePressureKernelsTableIsMonotonicAndTheChoiceIsARow) {
  auto m = load_ptx_text(test_data::ptx("kernels/register_pressure.ptx"), "p.ptx");
  uint32_t fi = 0;
  while (!m->functions[fi].is_entry) ++fi;
  for (SpillTarget spill : {SpillTarget::Local, SpillTarget::Shared}) {
    SearchOptions o;
    o.spill = spill;
    LaunchShape shape;
    shape.block[0] = 256;
    const SearchResult r = search_kernel(*m, fi, shape, o);
    ASSERT_GE(r.table.size(), 2u);
    EXPECT_EQ(r.table.front().threads, r.in.org_threads);
    EXPECT_EQ(r.table.back().threads, r.in.max_threads);
    EXPECT_EQ(r.in.max_threads, 1536u);
    EXPECT_LT(r.in.org_threads, 1536u);
    EXPECT_GT(r.in.ad_int, 1.0);
    for (size_t i = 1; i < r.table.size(); ++i) {
      EXPECT_EQ(r.table[i].threads, r.table[i - 1].threads + 256);
      EXPECT_LE(r.table[i].registers, r.table[i - 1].registers);
      EXPECT_LE(r.table[i].smem_slots, r.table[i - 1].smem_slots);
      if (r.table[i].feasible && r.table[i - 1].feasible) {
        EXPECT_GE(r.table[i].memory, r.table[i - 1].memory);
      }
    }
    bool found = false;
    for (const LevelEval& e : r.table) found = found || e.threads == r.chosen;
    EXPECT_TRUE(found) << r.chosen;
    const std::string text = format_search("pressure", r, o);
    EXPECT_NE(text.find("chosen: " + std::to_string(r.chosen) + " threads"), std::string::npos) << text;
    EXPECT_NE(text.find("MAX_cmratio 200"), std::string::npos) << text;
  }
}

// A MAX_cmratio above every level's ratio is never beneficial: the kernel
// keeps ActTnum_org (the seed's conservative answer for memory-bound cfd);
// a tiny one makes every feasible level beneficial and the search goes up.
TEST(OccupancySearch, MaxCmRatioDecidesBetweenTheOriginalAndTheHighestLevel) {
  auto m = load_ptx_text(test_data::ptx("kernels/register_pressure.ptx"), "p.ptx");
  uint32_t fi = 0;
  while (!m->functions[fi].is_entry) ++fi;
  LaunchShape shape;
  shape.block[0] = 256;
  SearchOptions strict;
  strict.max_cmratio = 1e6;
  const SearchResult a = search_kernel(*m, fi, shape, strict);
  EXPECT_EQ(a.chosen, a.in.org_threads);
  EXPECT_EQ(a.registers, m->functions[fi].analysis.allocator_regs_per_thread);
  SearchOptions lax;
  lax.max_cmratio = 1e-3;
  const SearchResult b = search_kernel(*m, fi, shape, lax);
  EXPECT_EQ(b.direction, "up");
  uint32_t highest = 0;
  for (const LevelEval& e : b.table)
    if (e.ci_pred) highest = e.threads;
  EXPECT_EQ(b.chosen, highest);
  EXPECT_LT(b.registers, a.registers);
}

}  // namespace
}  // namespace simtlm::frontend::passes
