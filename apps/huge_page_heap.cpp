#include "apps/huge_page_heap.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace simtlm::cli {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

std::string kernel_thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(in, line) ? thp_mode_of(line) : "";
}

bool env_contains(const char* name, const char* text) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strstr(value, text) != nullptr;
}

}  // namespace

std::string thp_mode_of(const std::string& enabled_line) {
  const size_t open = enabled_line.find('[');
  const size_t close = enabled_line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return enabled_line.substr(open + 1, close - open - 1);
}

std::string tunables_with_huge_pages(const char* current) {
  const std::string tunable = std::string(kTunable) + "=1";
  return current == nullptr || *current == '\0' ? tunable : std::string(current) + ":" + tunable;
}

void reexec_with_huge_page_heap(int argc, char* argv[]) {
  const char* opt = std::getenv("SIMTLM_HUGE_PAGES");
  if (opt != nullptr && std::strcmp(opt, "0") == 0) return;
  if (env_contains("GLIBC_TUNABLES", kTunable)) return;
  if (env_contains("LD_PRELOAD", "vgpreload")) return;  // running under valgrind
  if (kernel_thp_mode() != "madvise") return;

  const char* old = std::getenv("GLIBC_TUNABLES");
  const std::string saved = old != nullptr ? old : "";
  if (::setenv("GLIBC_TUNABLES", tunables_with_huge_pages(old).c_str(), 1) != 0) return;
  std::vector<char*> args(argv, argv + argc);
  args.push_back(nullptr);
  ::execv("/proc/self/exe", args.data());
  // Still here: exec failed; carry on with the environment as it was.
  if (old != nullptr) {
    ::setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  } else {
    ::unsetenv("GLIBC_TUNABLES");
  }
}

}  // namespace simtlm::cli
