// The recorded ptxas counts (workloads/<name>/ptxas.txt, written by
// scripts/regen_ptx.sh) that CTA admission uses by default: every kernel of
// every workload PTX has exactly one record, and, where the recording ptxas is
// installed, running it now (through the same code as `simtlm ptx --launch`)
// gives the recorded counts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "apps/ptxas_run.h"
#include "frontend/load.h"
#include "workloads/ptxas_record.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

std::set<std::string> ptx_names() {
  std::set<std::string> out;
  for (const std::string& name : WorkloadRegistry::names()) {
    const WorkloadInfo info = WorkloadRegistry::create(name)->info();
    out.insert(info.ptx_name.empty() ? info.name : info.ptx_name);
  }
  return out;
}

TEST(PtxasRecord, EveryWorkloadKernelHasExactlyOneRecord) {
  const std::set<std::string> names = ptx_names();
  ASSERT_GT(names.size(), 30u);
  for (const std::string& ptx : names) {
    const auto module = frontend::load_ptx_text(embedded_ptx(ptx), ptx + ".ptx");
    std::set<std::string> entries;
    for (const ir::Function& f : module->functions)
      if (f.is_entry) entries.insert(f.name);
    const auto record = ptxas_record(ptx);
    std::set<std::string> recorded;
    for (const auto& [kernel, k] : record) {
      recorded.insert(kernel);
      EXPECT_GT(k.registers, 0u) << ptx << ": " << kernel;
    }
    EXPECT_EQ(entries, recorded) << "workloads/" << ptx << "/ptxas.txt does not list the kernels of kernel.ptx "
                                 << "(regenerate with scripts/regen_ptx.sh)";
  }
}

TEST(PtxasRecord, LookupServesTheDriversModuleNames) {
  const RegisterCountLookup lookup = recorded_register_counts();
  const auto conv = lookup("convolution.ptx", "conv_rows");
  ASSERT_TRUE(conv.has_value());
  EXPECT_EQ(conv->registers, ptxas_record("convolution").at("conv_rows").registers);
  EXPECT_FALSE(conv->from_launch_spec);
  EXPECT_NE(conv->detail.find("workloads/convolution/ptxas.txt"), std::string::npos);
  EXPECT_FALSE(lookup("convolution.ptx", "no_such_kernel").has_value());
  EXPECT_FALSE(lookup("user.ptx", "conv_rows").has_value());
  EXPECT_FALSE(lookup("convolution", "conv_rows").has_value());
}

TEST(PtxasRecord, RecordedCountsAreWhatTheInstalledPtxasSays) {
  const std::string ptxas = cli::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not installed";
  // The record names the ptxas release it was made with; others allocate differently.
  const std::string header = embedded_ptxas("vectorAdd");
  FILE* p = popen(("'" + ptxas + "' --version").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string version;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) version += buf;
  pclose(p);
  const size_t at = header.find("(release ");
  ASSERT_NE(at, std::string::npos);
  const std::string release = header.substr(at + 1, header.find(')', at) - at - 1);  // "release 13.0"
  if (version.find(release + ",") == std::string::npos) GTEST_SKIP() << "installed ptxas is not " << release;
  for (const std::string& ptx : ptx_names()) {
    const std::string file = std::string(SIMTLM_SOURCE_DIR) + "/workloads/" + ptx + "/kernel.ptx";
    const cli::PtxasCounts now = cli::run_ptxas(file, "sm_75");
    ASSERT_TRUE(now.failure.empty()) << now.failure;
    for (const auto& [kernel, k] : ptxas_record(ptx)) EXPECT_EQ(now.registers.at(kernel), k.registers) << kernel;
  }
}

}  // namespace
}  // namespace simtlm::workloads
