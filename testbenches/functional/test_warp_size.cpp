// WARP_SZ (CUDA's warpSize in nvcc's PTX) reads as the width of the warp a
// program sees: the configured warp size up to 32, and 32 above (collectives,
// %laneid and warpSize work on 32-lane segments, functional/warp.h), so a
// reduction written with warpSize is right at every width.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/nvcc/warp_size_sm75.ptx, compiled from warp_size.cu beside it.
const char* const kFile = "nvcc/warp_size_sm75.ptx";

TEST(SimtWarpSize, WarpSzIsTheProgramVisibleWarpWidth) {
  for (unsigned w : {1u, 8u, 16u, 24u, 32u, 48u, 64u}) {
    SCOPED_TRACE(w);
    Harness h(test_data::ptx(kFile));
    const unsigned threads = 96;
    const uint64_t out = h.alloc(threads * 4);
    h.run("warp_size_probe", dim(1), dim(threads), Args().add(out), w);
    const std::vector<unsigned> got = h.download<unsigned>(out, threads);
    for (unsigned t = 0; t < threads; ++t) ASSERT_EQ(got[t], std::min(w, 32u)) << "thread " << t;
  }
}

TEST(SimtWarpSize, WarpSizeGenericReductionIsRightAtEveryPowerOfTwoWidth) {
  const unsigned threads = 128;
  std::vector<int> in(threads);
  for (unsigned t = 0; t < threads; ++t) in[t] = static_cast<int>(t * t % 97) - 40;
  for (unsigned w : {2u, 4u, 8u, 16u, 32u, 64u}) {
    SCOPED_TRACE(w);
    Harness h(test_data::ptx(kFile));
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.upload(std::vector<int>(threads, 0x7777));
    h.run("warp_sums", dim(1), dim(threads), Args().add(din).add(dout), w);
    const std::vector<int> got = h.download<int>(dout, threads);
    const unsigned group = std::min(w, 32u);
    for (unsigned g = 0; g < threads / group; ++g) {
      int sum = 0;
      for (unsigned t = g * group; t < (g + 1) * group; ++t) sum += in[t];
      EXPECT_EQ(got[g], sum) << "group " << g;
    }
    for (unsigned g = threads / group; g < threads; ++g) EXPECT_EQ(got[g], 0x7777) << "untouched " << g;
  }
}

}  // namespace
}  // namespace simtlm::functional::test
