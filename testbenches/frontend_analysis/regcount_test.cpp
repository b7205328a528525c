// Register counts of our allocator against ptxas on real nvcc output.
//
// The kernels are testbenches/data/nvcc/regcount_kernels.cu, compiled with
//   nvcc -arch=compute_75 -ptx regcount_kernels.cu -o regcount_kernels_sm75.ptx
// (CUDA 13.0, V13.0.88), and the reference counts are the "Used N registers"
// lines of
//   ptxas -arch=sm_75 -v regcount_kernels_sm75.ptx -o /dev/null
// recorded in kPtxasCounts. The PTX is kept in testbenches/data so the test
// needs no CUDA installation; when ptxas is on the machine, the test re-runs
// it to confirm the recorded counts, and it also reports every
// workloads/*/kernel.ptx. The printed table is the one in
// docs/register-allocation.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include "frontend/load.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend {
namespace {

const char* const kKernels = "nvcc/regcount_kernels_sm75.ptx";

struct Reference {
  const char* kernel;
  unsigned ptxas;
};
const Reference kPtxasCounts[] = {
    {"_Z4vaddPKfS0_Pfi", 12},
    {"_Z5saxpyifPKfPf", 12},
    {"_Z10reduce_sumPKfPfi", 10},
    {"_Z12matmul_tiledPKfS0_Pfi", 64},
    {"_Z8stencil5PKfPfii", 16},
    {"_Z9histogramPKhPji", 8},
    {"_Z9transposePKfPfii", 24},
    {"_Z9daxpy_dotPKdS0_Pdi", 14},
    {"_Z8bfs_stepPKiS0_S0_Piii", 14},
    {"_Z10unrolled16PKiPi", 24},
    {"_Z5callsPKfPfii", 9},
    {"_Z10scan_blockPKiPi", 12},
    {"_Z11warp_reducePKfPf", 14},
};

// Kernels where ptxas uses many more registers than the values need: it
// hoists the loads of fully unrolled loops ahead of their uses to hide memory
// latency. Our count follows the PTX order and is a lower bound there.
bool scheduling_outlier(const std::string& k) {
  return k.find("matmul_tiled") != std::string::npos || k.find("transpose") != std::string::npos;
}

const char* kPtxas = "/usr/local/cuda/bin/ptxas";

// Runs ptxas -v on `path`; kernel -> "Used N registers". Empty without ptxas.
std::map<std::string, unsigned> run_ptxas(const std::string& path) {
  std::map<std::string, unsigned> out;
  if (!std::filesystem::exists(kPtxas)) return out;
  std::string cmd = std::string(kPtxas) + " -arch=sm_75 -v '" + path + "' -o /dev/null 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char line[1024];
  std::string current;
  while (fgets(line, sizeof line, p)) {
    std::string s(line);
    auto k = s.find("Compiling entry function '");
    if (k != std::string::npos) {
      auto b = k + 26, e = s.find('\'', b);
      current = s.substr(b, e - b);
    }
    auto u = s.find("Used ");
    if (u != std::string::npos && !current.empty()) {
      out[current] = static_cast<unsigned>(std::strtoul(s.c_str() + u + 5, nullptr, 10));
      current.clear();
    }
  }
  pclose(p);
  return out;
}

void print_row(const std::string& k, const ir::Function& f, long ptxas) {
  std::printf("| %-28s | %5zu | %8u | %4u | %5ld | %+4ld |\n", k.c_str(), f.regs.size(),
              f.analysis.max_live_regs32, f.analysis.regs_per_thread, ptxas,
              ptxas < 0 ? 0L : static_cast<long>(f.analysis.regs_per_thread) - ptxas);
}

void print_header() {
  std::printf("| %-28s | %5s | %8s | %4s | %5s | %4s |\n", "kernel", "vregs", "max live", "ours", "ptxas",
              "diff");
}

TEST(RegCount, CompareWithPtxas) {
  auto m = load_ptx_text(test_data::ptx(kKernels), kKernels);
  print_header();
  for (const Reference& r : kPtxasCounts) {
    const ir::Function* f = m->find_kernel(r.kernel);
    ASSERT_NE(f, nullptr) << r.kernel;
    print_row(r.kernel, *f, r.ptxas);
    long diff = static_cast<long>(f->analysis.regs_per_thread) - static_cast<long>(r.ptxas);
    if (scheduling_outlier(r.kernel))
      EXPECT_LE(diff, 0) << r.kernel;
    else
      EXPECT_LE(std::labs(diff), 4) << r.kernel;
  }
}

// Output of `ptxas --version` for `cmd`, or "" when it cannot run.
std::string tool_version(const std::string& tool) {
  if (!std::filesystem::exists(tool)) return "";
  FILE* p = popen((tool + " --version 2>&1").c_str(), "r");
  if (!p) return "";
  std::string text;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) text += buf;
  pclose(p);
  return text;
}

TEST(RegCount, RecordedPtxasCountsAreCurrent) {
  // Other ptxas versions allocate differently; only the recorded one is checked.
  if (tool_version(kPtxas).find("V13.0.88") == std::string::npos)
    GTEST_SKIP() << "ptxas V13.0.88 not available";
  const std::string path = test_data::path(kKernels);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  auto counts = run_ptxas(path);
  for (const Reference& r : kPtxasCounts) EXPECT_EQ(counts[r.kernel], r.ptxas) << r.kernel;
}

TEST(RegCount, Workloads) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(SIMTLM_SOURCE_DIR) / "workloads";
  std::vector<fs::path> files;
  if (fs::exists(root))
    for (const auto& d : fs::directory_iterator(root))
      if (fs::exists(d.path() / "kernel.ptx")) files.push_back(d.path() / "kernel.ptx");
  std::sort(files.begin(), files.end());
  if (files.empty()) GTEST_SKIP() << "no workloads/*/kernel.ptx yet";
  print_header();
  for (const auto& file : files) {
    auto m = load_ptx_file(file.string());
    auto ref = run_ptxas(file.string());
    for (const ir::Function& f : m->functions) {
      if (!f.is_entry) continue;
      auto it = ref.find(f.name);
      std::string label = file.parent_path().filename().string() + ":" + f.name;
      print_row(label, f, it == ref.end() ? -1 : static_cast<long>(it->second));
      EXPECT_TRUE(f.analysis.done);
      EXPECT_GT(f.analysis.regs_per_thread, 0u);
    }
  }
}

}  // namespace
}  // namespace simtlm::frontend
