// Transparent huge pages for the simulator's heap.
//
// A timing run touches tens of megabytes of model state in an irregular
// pattern every simulated cycle, so with 4 KB pages a good share of its host
// time goes to TLB misses (bfs at default size ran 4.5 % faster in paired runs
// with its heap on 2 MB pages, docs/performance.md). Where the kernel grants
// huge pages only on request (transparent_hugepage = madvise, Debian's
// default), glibc's malloc asks for them when its tunable
// glibc.malloc.hugetlb=1 is set; tunables are read only at process start, so
// the program re-executes itself once with the tunable added.
//
// Nothing happens when SIMTLM_HUGE_PAGES=0, when the kernel mode is not
// `madvise` (always: already granted; never: cannot be), when the tunable is
// already set (also what stops a second re-execution), under valgrind (its
// tools follow the first process only), or when re-execution fails (the run
// continues on normal pages).
#pragma once

#include <string>

namespace simtlm::cli {

// Call first thing in sc_main; returns only when the process keeps running as is.
void reexec_with_huge_page_heap(int argc, char* argv[]);

// The pieces, for tests.
// The selected mode in a line of /sys/kernel/mm/transparent_hugepage/enabled
// ("always [madvise] never" -> "madvise"), or "" when there is none.
std::string thp_mode_of(const std::string& enabled_line);
// GLIBC_TUNABLES with the huge-page tunable added (`current` may be null).
std::string tunables_with_huge_pages(const char* current);

}  // namespace simtlm::cli
