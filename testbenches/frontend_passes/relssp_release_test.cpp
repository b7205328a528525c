// The static release tail of the relssp placement (frontend/passes/
// relssp_release.h), on hand-made kernels whose counts are worked out below.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "frontend/load.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/relssp_release.h"

namespace simtlm::frontend::passes {
namespace {

std::unique_ptr<ir::Module> place(const std::string& ptx, const std::string& placement) {
  PassOptions o("test");
  o.enable("relssp", true);
  o.set("relssp", "placement", placement);
  return load_ptx_text(ptx, "release.ptx", PassPipeline(PassRegistry::global(), o));
}

// The shared store is the last shared access; a loop of 10 follows.
// Entry: ld.param, mov, st.shared, [relssp], mov = 5 with the relssp; the
// loop's three instructions 10 times = 30; ret 1. After the relssp: 1 + 30 + 1.
std::string kernel(const std::string& bound) {
  return R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u32 n)
{
  .shared .align 4 .b8 S[64];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r4, S;
  st.shared.u32 [%r4], %r1;
  mov.u32 %r2, 0;
L:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, )PTX" + bound + R"PTX(;
  @%p1 bra L;
  ret;
}
)PTX";
}

TEST(RelsspRelease, CountsWhatRunsAfterTheRelease) {
  const auto m = place(kernel("10"), "opt");
  const auto release = relssp_release(m->functions.at(0));
  ASSERT_TRUE(release.has_value());
  EXPECT_EQ(release->after, 32u);
  EXPECT_EQ(release->total, 36u);
  EXPECT_DOUBLE_EQ(release->fraction(), 32.0 / 36.0);
}

TEST(RelsspRelease, UnknownBoundsCount1024) {
  const auto m = place(kernel("%r1"), "opt");
  const auto release = relssp_release(m->functions.at(0));
  ASSERT_TRUE(release.has_value());
  EXPECT_EQ(release->after, 1u + 3u * 1024u + 1u);
  EXPECT_EQ(release->total, 5u + 3u * 1024u + 1u);
}

TEST(RelsspRelease, PostDomReleasesAfterTheLoop) {
  // postdom puts relssp at the start of the nearest post-dominator outside
  // any loop that no shared access follows: the block of `ret`, so only the
  // ret runs after it. The entry holds 4 originals, the loop 30, then relssp + ret.
  const auto m = place(kernel("10"), "postdom");
  const auto release = relssp_release(m->functions.at(0));
  ASSERT_TRUE(release.has_value());
  EXPECT_EQ(release->after, 1u);
  EXPECT_EQ(release->total, 36u);
}

TEST(RelsspRelease, NothingWithoutThePlacement) {
  const auto m = load_ptx_text(kernel("10"), "release.ptx");
  EXPECT_FALSE(relssp_release(m->functions.at(0)).has_value());
}

}  // namespace
}  // namespace simtlm::frontend::passes
