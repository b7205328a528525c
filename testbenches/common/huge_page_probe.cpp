// Test probe for the huge-page start-up step: runs it as `simtlm` does, then
// prints the GLIBC_TUNABLES the process ended up with (empty line if none)
// and whether the re-executed process's malloc honoured it.
#include <cstdio>
#include <cstdlib>

#include "apps/huge_page_heap.h"

int main(int argc, char* argv[]) {
  simtlm::cli::reexec_with_huge_page_heap(argc, argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("%s\n", tunables != nullptr ? tunables : "");
  return 0;
}
