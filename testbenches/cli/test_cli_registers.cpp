// Where the register count of CTA admission comes from, as the CLI reports
// it: the recorded ptxas counts for `simtlm run`, the launch spec's
// registers_per_thread or a ptxas run for `simtlm ptx --launch`, and the
// fallback to our allocator (with the reason) when ptxas is missing.
#include <gmock/gmock.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "apps/ptxas_run.h"
#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

const char* kFill = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry fill(.param .u64 p_out)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [p_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	ret;
}
)";

class RegistersCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    write("fill.ptx", kFill);
  }
  void TearDown() override {
    unsetenv("SIMTLM_PTXAS");
    CliTest::TearDown();
  }
  void spec(const nlohmann::json& extra = nlohmann::json::object()) {
    nlohmann::json j = {{"grid", 1},
                        {"block", 32},
                        {"args", {{{"buffer", "out"}}}},
                        {"buffers", {{"out", {{"size_bytes", 128}}}}}};
    j.update(extra);
    write("spec.json", j.dump());
  }
  CliResult launch() {
    return run({"ptx", "fill.ptx", "--kernel", "fill", "--launch", "spec.json", "--out", "o"});
  }
  nlohmann::json first_launch() { return nlohmann::json::parse(read_text(path("o/stats.json")))["per_launch"][0]; }
};

TEST_F(RegistersCliTest, LaunchSpecCountIsUsedAndReported) {
  spec({{"registers_per_thread", 40}});
  const CliResult r = launch();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("fill 40 (launch_spec: registers_per_thread of spec.json)"));
  EXPECT_EQ(first_launch()["registers_per_thread"], 40);
  EXPECT_EQ(first_launch()["register_count_source"], "launch_spec");
}

TEST_F(RegistersCliTest, LaunchSpecCountOutOfRangeIsAnError) {
  spec({{"registers_per_thread", 0}});
  const CliResult r = launch();
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("spec.json: registers_per_thread"));
}

TEST_F(RegistersCliTest, WithoutPtxasTheAllocatorIsUsedAndTheSummarySaysWhy) {
  setenv("SIMTLM_PTXAS", path("no-ptxas").c_str(), 1);
  spec();
  const CliResult r = launch();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(allocator_fallback: ptxas not found"));
  EXPECT_EQ(first_launch()["register_count_source"], "allocator_fallback");
}

TEST_F(RegistersCliTest, InstalledPtxasGivesTheCount) {
  if (cli::find_ptxas().empty()) GTEST_SKIP() << "ptxas not installed";
  spec();
  const CliResult r = launch();
  ASSERT_EQ(r.code, 0) << r.err;
  const cli::PtxasCounts direct = cli::run_ptxas(path("fill.ptx").string(), "sm_75");
  ASSERT_EQ(direct.registers.count("fill"), 1u) << direct.failure;
  EXPECT_EQ(first_launch()["register_count_source"], "ptxas");
  EXPECT_EQ(first_launch()["registers_per_thread"], direct.registers.at("fill"));
  EXPECT_THAT(r.out, HasSubstr("-arch=sm_75 -v run on fill.ptx"));
}

TEST_F(RegistersCliTest, AllocatorSourceIgnoresTheSpecCount) {
  spec({{"registers_per_thread", 40}});
  const CliResult r = run({"ptx", "fill.ptx", "--kernel", "fill", "--launch", "spec.json", "--out", "o", "-p",
                           "gpu.sm.register_count_source=allocator"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(first_launch()["register_count_source"], "allocator");
  EXPECT_NE(first_launch()["registers_per_thread"], 40);
}

TEST_F(RegistersCliTest, WorkloadRunsUseTheRecordedCounts) {
  const CliResult r = run({"run", "convolution", "--size", "small", "--backend", "functional"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(ptxas: recorded in workloads/convolution/ptxas.txt (ptxas -arch=sm_75))"));
  EXPECT_THAT(r.out, HasSubstr("conv_rows 56"));
}

TEST(PtxasLog, RegistersPerEntryFunction) {
  const auto counts = cli::parse_ptxas_registers(
      "ptxas info    : Compiling entry function 'a' for 'sm_75'\n"
      "ptxas info    : Used 12 registers, 360 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_75'\n"
      "ptxas info    : Function properties for b\n"
      "ptxas info    : Used 7 registers, 356 bytes cmem[0]\n");
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts.at("a"), 12u);
  EXPECT_EQ(counts.at("b"), 7u);
}

}  // namespace
}  // namespace simtlm::test
