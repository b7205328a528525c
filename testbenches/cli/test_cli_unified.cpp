// `simtlm ptx FILE --max-registers R [--spill local|shared --threads T]
// --print` and `--occupancy-search` (apps/ptx_unified.h,
// docs/unified-allocation.md): the rewritten kernel, a summary line per
// kernel, marked spill code, text that parses again; the search's table;
// usage mistakes exit 2.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>
#include <string>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, PtxMaxRegistersPrintsTheSpilledKernelWhichReparses) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure.ptx");
  const CliResult r = run({"ptx", ptx, "--max-registers", "12", "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("// frontend.unified_alloc.registers = 12: kernel pressure: "));
  EXPECT_THAT(r.out, HasSubstr("values spilled to local memory"));
  EXPECT_THAT(r.out, HasSubstr("// kernel pressure: AD_int "));
  EXPECT_THAT(r.out, HasSubstr(", CI_pred (MAX_cmratio 200) "));
  EXPECT_THAT(r.out, HasSubstr(".local .align 8 .b8 __unialloc_local["));
  EXPECT_THAT(r.out, HasSubstr("\t// unified_alloc: spill load"));
  EXPECT_THAT(r.out, HasSubstr("\t// unified_alloc: spill store"));
  write("printed.ptx", r.out);
  const CliResult again = run({"ptx", "printed.ptx"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("pressure"));
  // The same with --kernel and the explicit (only) spill target.
  const CliResult k = run({"ptx", ptx, "--kernel", "pressure", "--max-registers", "12", "--spill", "local", "--print"});
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.out, r.out);
}

TEST_F(CliTest, PtxMaxRegistersMistakesAreUsageErrors) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure.ptx");
  const CliResult no_print = run({"ptx", ptx, "--max-registers", "12"});
  EXPECT_EQ(no_print.code, 2);
  EXPECT_THAT(no_print.err, HasSubstr("--max-registers R and --print go together"));
  const CliResult shared = run({"ptx", ptx, "--max-registers", "12", "--spill", "shared", "--print"});
  EXPECT_EQ(shared.code, 2);
  EXPECT_THAT(shared.err, HasSubstr("--spill shared needs --threads T"));
  const CliResult other = run({"ptx", ptx, "--max-registers", "12", "--spill", "global", "--print"});
  EXPECT_EQ(other.code, 2);
  EXPECT_THAT(other.err, HasSubstr("--spill 'global' is not local or shared"));
  const CliResult search = run({"ptx", ptx, "--occupancy-search"});
  EXPECT_EQ(search.code, 2);
  EXPECT_THAT(search.err, HasSubstr("--occupancy-search needs --threads T"));
  const CliResult tiny = run({"ptx", ptx, "--max-registers", "4", "--print"});
  EXPECT_EQ(tiny.code, 2);
  const CliResult unfit = run({"ptx", ptx, "--max-registers", "6", "--print"});
  EXPECT_NE(unfit.code, 0);
  EXPECT_THAT(unfit.err, HasSubstr("does not fit"));
}

TEST_F(CliTest, PtxSpillSharedPrintsTheVariantWhichReparses) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure_smem.ptx");
  const CliResult r =
      run({"ptx", ptx, "--kernel", "pressure_smem", "--max-registers", "10", "--spill", "shared", "--threads", "32",
           "--config", source("configs/tesla_c2050.json"), "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("shared slots for 32 threads per CTA: "));
  EXPECT_THAT(r.out, HasSubstr("\t// unified_alloc: slot pointer"));
  EXPECT_THAT(r.out, HasSubstr("ld.shared.b32 %ua_t"));
  EXPECT_THAT(r.out, HasSubstr("st.shared.b32 [%ua_sp"));
  write("printed_shared.ptx", r.out);
  const CliResult again = run({"ptx", "printed_shared.ptx"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("pressure_smem"));
}

// The spill-target ablation at one R on the timing backend (seed note 001
// §6 items 9, 21), one process per target: shared slots move spills out of
// local memory, add no bank conflict, keep the SM's resident CTAs and do not
// add L1D misses.
TEST_F(CliTest, SharedSpillsLeaveLocalMemoryAtTheSameOccupancy) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure_smem.ptx");
  write("spec.json", R"({"grid": 40, "block": 32, "dynamic_shared_bytes": 130,
    "args": [{"buffer": "in"}, {"buffer": "out"}, {"type": "u32", "value": 5}],
    "buffers": {"in": {"size_bytes": 61440, "init": {"random": 3, "type": "f32"}}, "out": {"size_bytes": 5120}}})");
  auto stats = [&](const std::string& spill) {
    const CliResult r = run({"ptx", ptx, "--kernel", "pressure_smem", "--launch", "spec.json", "--stats", "-p",
                             "gpu.num_sms=2", "-p", "frontend.unified_alloc.mode=fixed", "-p",
                             "frontend.unified_alloc.registers=10", "-p", "frontend.unified_alloc.spill=" + spill});
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out).flatten();
  };
  const nlohmann::json local = stats("local"), shared = stats("shared");
  auto sum = [](const nlohmann::json& flat, const std::string& suffix) {
    uint64_t n = 0;
    for (auto it = flat.begin(); it != flat.end(); ++it) {
      const std::string& k = it.key();
      if (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          it->is_number_unsigned())
        n += it->get<uint64_t>();
    }
    return n;
  };
  EXPECT_GT(sum(local, ".local_load_instructions"), 0u);
  EXPECT_LT(sum(shared, ".local_load_instructions"), sum(local, ".local_load_instructions"));
  EXPECT_LT(sum(shared, ".local_store_instructions"), sum(local, ".local_store_instructions"));
  EXPECT_GT(sum(shared, ".smem_instructions"), sum(local, ".smem_instructions"));
  EXPECT_EQ(sum(shared, ".smem_bank_conflicts"), sum(local, ".smem_bank_conflicts"));
  EXPECT_GT(sum(local, ".max_resident_ctas"), 0u);
  EXPECT_EQ(sum(shared, ".max_resident_ctas"), sum(local, ".max_resident_ctas"));
  EXPECT_LE(sum(shared, "l1d_total.misses"), sum(local, "l1d_total.misses"));
}

TEST_F(CliTest, PtxOccupancySearchPrintsTheLevelsThePredicatesInputsAndTheChoice) {
  const std::string ptx = source("testbenches/data/kernels/register_pressure.ptx");
  const CliResult r = run({"ptx", ptx, "--occupancy-search", "--threads", "256", "--spill", "shared", "--config",
                           source("configs/tesla_c2050.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kernel pressure: occupancy search (Hayes & Zhang Fig. 5)"));
  EXPECT_THAT(r.out, HasSubstr("block 256 threads; ActTnum_org "));
  EXPECT_THAT(r.out, HasSubstr("MaxThrd 1536; AD_int "));
  EXPECT_THAT(r.out, HasSubstr("MAX_cmratio 200"));
  EXPECT_THAT(r.out, HasSubstr("threads  R  smem_slots  COMPUTE_inst  MEM_inst  ratio      CI_pred"));
  EXPECT_THAT(r.out, HasSubstr("     1536  20 "));  // Fermi's full-occupancy count at 256 threads
  EXPECT_THAT(r.out, HasSubstr("  chosen: "));
}

}  // namespace
}  // namespace simtlm::test
