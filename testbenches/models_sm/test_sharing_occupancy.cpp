// Occupancy with sharing (models/sm/sharing_occupancy.h) against the seed's
// published numbers: Tables 2.6 and 2.8 of Jatala's thesis (resident CTAs of
// 15 kernels at 0/10/30/50/70/90 % sharing, seed note 000 §4.2), the worked
// examples of §2.2 and the storage of §2.4 (273 and 93 bits for T = 8, W = 48).
// The tables go through occupancy_report, the function `simtlm occupancy` prints.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "models/sm/occupancy.h"
#include "models/sm/sharing_occupancy.h"
#include "models/sm/sm_params.h"
#include "simtlm/config.h"

namespace simtlm::models {
namespace {

// % sharing = (1 - t) x 100 (thesis §2.2): the tables' columns.
constexpr std::array<int, 6> kSharingPercent = {0, 10, 30, 50, 70, 90};

struct Row {
  const char* kernel;
  uint32_t threads;
  uint32_t regs;      // registers/thread (register set) or 0
  uint64_t smem;      // bytes/CTA (scratchpad set) or 0
  std::array<uint32_t, 6> ctas;  // Table 2.6 / 2.8, one per column of kSharingPercent
};

// Table 2.6 (Set-1, register-limited; 48 KB scratchpad) with Table 2.1's CTA shapes.
const Row kRegisterTable[] = {
    {"backprop", 256, 24, 0, {5, 5, 5, 5, 6, 6}}, {"b+tree", 508, 24, 0, {2, 2, 2, 3, 3, 3}},
    {"hotspot", 256, 36, 0, {3, 3, 3, 4, 4, 6}},  {"LIB", 192, 36, 0, {4, 4, 5, 5, 6, 8}},
    {"MUM", 256, 28, 0, {4, 4, 4, 5, 5, 6}},      {"mri-q", 256, 24, 0, {5, 5, 5, 5, 6, 6}},
    {"sgemm", 128, 48, 0, {5, 5, 5, 5, 6, 8}},    {"stencil", 512, 28, 0, {2, 2, 2, 2, 2, 3}},
};

// Table 2.8 (Set-2, scratchpad-limited; 16 KB scratchpad) with Table 2.2's CTA shapes.
const Row kScratchpadTable[] = {
    {"CONV1", 64, 0, 2560, {6, 6, 6, 6, 7, 8}},  {"CONV2", 128, 0, 5184, {3, 3, 3, 3, 3, 4}},
    {"lavaMD", 128, 0, 7200, {2, 2, 2, 2, 2, 4}}, {"NW1", 16, 0, 2180, {7, 7, 7, 8, 8, 8}},
    {"NW2", 16, 0, 2180, {7, 7, 7, 8, 8, 8}},     {"SRAD1", 256, 0, 6144, {2, 2, 2, 3, 4, 4}},
    {"SRAD2", 256, 0, 5120, {3, 3, 3, 3, 3, 5}},
};

// The Table 2.3 SM (tesla_c2050 preset) with the thesis's threshold for a column.
SmParams table_sm(uint64_t shared_bytes, int percent) {
  Config cfg = Config::preset("tesla_c2050");
  cfg.set("gpu.sm.shared_memory_bytes", std::to_string(shared_bytes));
  const std::string t = std::to_string((100 - percent) / 100.0);
  cfg.set("gpu.sm.regfile.sharing_threshold", percent == 0 ? "1" : t);
  cfg.set("gpu.sm.smem.sharing_threshold", percent == 0 ? "1" : t);
  return sm_params_from_config(cfg, 0);
}

// Eq. 2.1-2.3: the pairs and unshared CTAs account for the launched ones,
// never more effective CTAs than the baseline is lost, and the resource holds them.
void expect_equations(const SharingOccupancy& s, uint64_t capacity, uint64_t per_cta, double t,
                      const std::string& what) {
  if (!s.enabled) {
    EXPECT_EQ(s.pairs, 0u) << what;
    EXPECT_EQ(s.ctas, s.baseline) << what;
    return;
  }
  EXPECT_EQ(s.unshared + 2 * s.pairs, s.ctas) << what;             // 2.3
  EXPECT_EQ(s.unshared + s.pairs, s.unshared_fit) << what;         // 2.1
  EXPECT_LE(s.unshared * per_cta + s.pairs * per_cta * (1 + t), capacity + 1e-6) << what;  // 2.2
  EXPECT_LE(s.ctas, s.cap) << what;
}

TEST(SharingOccupancy, Table26RegisterSharing) {
  for (const Row& row : kRegisterTable) {
    for (size_t c = 0; c < kSharingPercent.size(); ++c) {
      const SmParams p = table_sm(49152, kSharingPercent[c]);
      const CtaShape shape = cta_shape(row.threads, 32, row.regs, row.smem);
      const OccupancyReport r = occupancy_report(p, shape);
      const std::string what = std::string(row.kernel) + " at " + std::to_string(kSharingPercent[c]) + "%";
      EXPECT_EQ(r.registers.ctas, row.ctas[c]) << what;
      EXPECT_EQ(r.baseline_ctas, row.ctas[0]) << what;
      EXPECT_EQ(r.limiter, "registers") << what;
      EXPECT_EQ(r.registers.enabled, row.ctas[c] > row.ctas[0]) << what;
      expect_equations(r.registers, p.registers, register_units(p, shape), p.register_sharing_threshold, what);
    }
  }
}

TEST(SharingOccupancy, Table28ScratchpadSharing) {
  for (const Row& row : kScratchpadTable) {
    for (size_t c = 0; c < kSharingPercent.size(); ++c) {
      const SmParams p = table_sm(16384, kSharingPercent[c]);
      const CtaShape shape = cta_shape(row.threads, 32, row.regs, row.smem);
      const OccupancyReport r = occupancy_report(p, shape);
      const std::string what = std::string(row.kernel) + " at " + std::to_string(kSharingPercent[c]) + "%";
      EXPECT_EQ(r.shared_memory.ctas, row.ctas[c]) << what;
      EXPECT_EQ(r.baseline_ctas, row.ctas[0]) << what;
      EXPECT_EQ(r.shared_memory.enabled, row.ctas[c] > row.ctas[0]) << what;
      expect_equations(r.shared_memory, p.shared_memory_bytes, row.smem, p.shared_sharing_threshold, what);
      // Registers are unused in these rows: register sharing has nothing to do.
      EXPECT_FALSE(r.registers.enabled) << what;
    }
  }
}

TEST(SharingOccupancy, WorkedExamples) {
  // Ex. 2.2.1: 35K units, 10K per CTA, t = 0.5: 2 unshared + one pair = 4 CTAs.
  SharingOccupancy s = sharing_occupancy(35000, 10000, threshold_millionths(0.5), 8);
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.pairs, 1u);
  EXPECT_EQ(s.unshared, 2u);
  // Ex. 2.2.4: R = 36, R_tb = 10, t = 0.8: the remainder 6 < t R_tb = 8, no pair.
  s = sharing_occupancy(36, 10, threshold_millionths(0.8), 8);
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.ctas, 3u);
  // §2.2 hotspot: F = 3, t R_tb = 921.6, remainder 5120 -> S = min(3, 5) = 3,
  // capped by threads (1536 / 256 = 6): 3 pairs, no unshared CTA.
  s = sharing_occupancy(32768, 9216, threshold_millionths(0.1), 6);
  EXPECT_EQ(s.pairs_fit, 3u);
  EXPECT_EQ(s.ctas, 6u);
  EXPECT_EQ(s.pairs, 3u);
  EXPECT_EQ(s.unshared, 0u);
  // The cap binds below F: never enabled, the cap is the answer.
  s = sharing_occupancy(32768, 1024, threshold_millionths(0.1), 8);
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.ctas, 8u);
  // A CTA that uses none of the resource.
  s = sharing_occupancy(32768, 0, threshold_millionths(0.1), 6);
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.ctas, 6u);
  EXPECT_EQ(s.unshared_fit, kUnbounded);
}

TEST(SharingOccupancy, ExactThresholdBoundary) {
  // t R_tb exactly divides the remainder (0.1 x 10240 = 1024; 0.1 is not a
  // binary fraction): one pair, not zero.
  const SharingOccupancy s = sharing_occupancy(3 * 10240 + 1024, 10240, threshold_millionths(0.1), 8);
  EXPECT_EQ(s.pairs_fit, 1u);
  EXPECT_EQ(s.ctas, 4u);
}

TEST(SharingOccupancy, StorageBitsOfTable23) {
  // §2.4: T = 8 CTAs, W = 48 warps: 1 + 8x4 + 96 + 24x6 = 273; 1 + 32 + 48 + 4x3 = 93.
  EXPECT_EQ(register_sharing_storage_bits(8, 48), 273u);
  EXPECT_EQ(scratchpad_sharing_storage_bits(8, 48), 93u);
  EXPECT_EQ(register_sharing_storage_bits(16, 64), 1 + 16 * 5 + 128 + 32 * 6u);
}

}  // namespace
}  // namespace simtlm::models
