// The start-up step that puts the heap on transparent huge pages
// (apps/huge_page_heap.h): its parsing, its environment handling end to end
// through a probe process, and that simulation results do not depend on it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "apps/huge_page_heap.h"
#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {
namespace {

using cli::thp_mode_of;
using cli::tunables_with_huge_pages;

TEST(HugePages, ThpModeIsTheBracketedWord) {
  EXPECT_EQ(thp_mode_of("always [madvise] never"), "madvise");
  EXPECT_EQ(thp_mode_of("[always] madvise never"), "always");
  EXPECT_EQ(thp_mode_of("always madvise [never]"), "never");
  EXPECT_EQ(thp_mode_of("no selection here"), "");
  EXPECT_EQ(thp_mode_of(""), "");
}

TEST(HugePages, TunableIsAddedToExistingOnes) {
  EXPECT_EQ(tunables_with_huge_pages(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tunables_with_huge_pages(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tunables_with_huge_pages("glibc.malloc.check=3"), "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
}

// This host's mode, read here independently of the code under test.
bool host_grants_on_request() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(in, line) && line.find("[madvise]") != std::string::npos;
}

// The probe's GLIBC_TUNABLES after start-up (one line, newline stripped).
std::string probe_tunables() {
  FILE* p = ::popen(HUGE_PAGE_PROBE, "r");
  if (p == nullptr) return "<popen failed>";
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int status = ::pclose(p);
  if (status != 0) return "<probe exited with " + std::to_string(status) + ">";
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Each test runs in its own process (gtest_discover_tests), so changing the
// environment here affects only this test's children.
TEST(HugePages, ProgramRestartsWithTheTunableWhereTheKernelWantsARequest) {
  ::unsetenv("SIMTLM_HUGE_PAGES");
  ::unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(probe_tunables(), host_grants_on_request() ? "glibc.malloc.hugetlb=1" : "");
}

TEST(HugePages, ExistingTunablesAreKept) {
  ::unsetenv("SIMTLM_HUGE_PAGES");
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.check=0", 1);
  EXPECT_EQ(probe_tunables(),
            host_grants_on_request() ? "glibc.malloc.check=0:glibc.malloc.hugetlb=1" : "glibc.malloc.check=0");
}

TEST(HugePages, ZeroTurnsItOff) {
  ::setenv("SIMTLM_HUGE_PAGES", "0", 1);
  ::unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(probe_tunables(), "");
}

TEST(HugePages, AnExplicitChoiceIsLeftAlone) {
  ::unsetenv("SIMTLM_HUGE_PAGES");
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0", 1);
  EXPECT_EQ(probe_tunables(), "glibc.malloc.hugetlb=0");
}

class HugePagesCli : public CliTest {};

TEST_F(HugePagesCli, ResultsAreTheSameWithAndWithout) {
  ::unsetenv("GLIBC_TUNABLES");
  ::setenv("SIMTLM_HUGE_PAGES", "1", 1);
  const CliResult on = run({"run", "bfs", "--size", "small", "--out", "on"});
  ::setenv("SIMTLM_HUGE_PAGES", "0", 1);
  const CliResult off = run({"run", "bfs", "--size", "small", "--out", "off"});
  ASSERT_EQ(on.code, 0) << on.err;
  ASSERT_EQ(off.code, 0) << off.err;
  const std::string a = read_text(path("on/stats.json"));
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, read_text(path("off/stats.json")));
}

}  // namespace
}  // namespace simtlm::test
