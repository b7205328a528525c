// `simtlm occupancy` and `simtlm ptx --occupancy` end to end: the seed's
// hotspot and lavaMD rows (Jatala Tables 2.6 and 2.8 at 90 % sharing) as text
// and as JSON, and bad input as usage/configuration errors.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, OccupancyOfHotspotWithRegisterSharing) {
  // hotspot: 256 threads x 36 registers = 9216 per CTA: 3 fit; sharing 6 (3 pairs).
  CliResult r = run({"occupancy", "--threads", "256", "--regs", "36", "--config", source("configs/tesla_c2050.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Baseline: 3 CTAs/SM, limited by registers"));
  EXPECT_THAT(r.out, HasSubstr("Register sharing (t = 0.1): enabled, 6 CTAs launched = 3 shared pairs + 0 unshared"));
  EXPECT_THAT(r.out, HasSubstr("tables 273 bits/SM"));
  EXPECT_THAT(r.out, HasSubstr("Scratchpad sharing (t = 0.1): not enabled"));
}

TEST_F(CliTest, OccupancyJsonOfLavaMdWithScratchpadSharing) {
  // lavaMD: 7200 B per CTA on 16 KB: 2 fit; sharing 4 (2 pairs). At t = 0.3 (70 %): still 2, not enabled.
  CliResult r = run({"occupancy", "--threads", "128", "--regs", "0", "--smem", "7200", "--config",
                     source("configs/tesla_c2050.json"), "-p", "gpu.sm.shared_memory_bytes=16384", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["baseline"]["ctas"], 2);
  EXPECT_EQ(j["baseline"]["limiter"], "shared memory");
  EXPECT_EQ(j["scratchpad_sharing"]["enabled"], true);
  EXPECT_EQ(j["scratchpad_sharing"]["ctas"], 4);
  EXPECT_EQ(j["scratchpad_sharing"]["pairs"], 2);
  EXPECT_EQ(j["scratchpad_sharing"]["unshared"], 0);
  EXPECT_EQ(j["scratchpad_sharing"]["storage_bits_per_sm"], 93);
  EXPECT_EQ(j["register_sharing"]["enabled"], false);

  r = run({"occupancy", "--threads", "128", "--regs", "0", "--smem", "7200", "--config",
           source("configs/tesla_c2050.json"), "-p", "gpu.sm.shared_memory_bytes=16384", "-p",
           "gpu.sm.smem.sharing_threshold=0.3", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json k = nlohmann::json::parse(r.out);
  EXPECT_EQ(k["scratchpad_sharing"]["enabled"], false);
  EXPECT_EQ(k["scratchpad_sharing"]["ctas"], 2);
}

TEST_F(CliTest, OccupancyBadInputIsAnError) {
  CliResult r = run({"occupancy", "--regs", "36"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing --threads"));
  r = run({"occupancy", "--threads", "0", "--regs", "36"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--threads"));
  r = run({"occupancy", "--threads", "64", "--regs", "8", "-p", "gpu.sm.regfile.sharing_threshold=0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("gpu.sm.regfile.sharing_threshold"));
}

TEST_F(CliTest, PtxOccupancyReportsEveryKernel) {
  const std::string ptx = write("two.ptx", R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry small()
{
  ret;
}
.visible .entry withshared()
{
  .shared .align 4 .b8 tile[7200];
  .reg .b32 %r<2>;
  mov.u32 %r1, tile;
  st.shared.u32 [%r1], %r1;
  ret;
}
)");
  CliResult r = run({"ptx", ptx, "--occupancy", "--threads", "128", "--config", source("configs/tesla_c2050.json"),
                     "-p", "gpu.sm.shared_memory_bytes=16384", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("small") && j.contains("withshared")) << r.out;
  EXPECT_EQ(j["withshared"]["cta"]["shared_bytes"], 7200);
  EXPECT_EQ(j["withshared"]["scratchpad_sharing"]["ctas"], 4);
  EXPECT_EQ(j["small"]["scratchpad_sharing"]["enabled"], false);
  r = run({"ptx", ptx, "--occupancy"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--occupancy needs --threads"));
}

}  // namespace
}  // namespace simtlm::test
