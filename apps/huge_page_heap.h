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

namespace simtlm::cli {

// Call first thing in sc_main; returns only when the process keeps running as is.
void reexec_with_huge_page_heap(int argc, char* argv[]);

}  // namespace simtlm::cli
