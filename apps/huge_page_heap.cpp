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

// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled
// ("always [madvise] never"), or "" when unreadable.
std::string kernel_thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return "";
  const size_t open = line.find('[');
  const size_t close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

bool env_contains(const char* name, const char* text) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strstr(value, text) != nullptr;
}

}  // namespace

void reexec_with_huge_page_heap(int argc, char* argv[]) {
  const char* opt = std::getenv("SIMTLM_HUGE_PAGES");
  if (opt != nullptr && std::strcmp(opt, "0") == 0) return;
  if (env_contains("GLIBC_TUNABLES", kTunable)) return;
  if (env_contains("LD_PRELOAD", "vgpreload")) return;  // running under valgrind
  if (kernel_thp_mode() != "madvise") return;

  const char* old = std::getenv("GLIBC_TUNABLES");
  const std::string saved = old != nullptr ? old : "";
  const std::string value = saved.empty() ? std::string(kTunable) + "=1" : saved + ":" + kTunable + "=1";
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
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
