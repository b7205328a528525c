// Configuration keys of the front-end pass pipeline (frontend.*). The front
// end itself has no Config: the runtime turns these keys into its
// PassOptions (runtime/pass_config.cpp). Declared here because every binary
// with a Config needs the whole table.
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void frontend_keys(std::vector<ConfigKey>& t) {
  t.push_back(S("frontend.passes", "",
                "Options of the front-end pass pipeline: 'pass.key=value' items separated by ';' "
                "(e.g. 'name.enabled=true; name.limit=4'). 'enabled' switches a pass on or off; other keys are "
                "the pass's own. Unknown passes and keys are errors. Built-in passes: inline_calls, "
                "layout_memory, analyze (required, no options). Passes of mechanisms are chosen by the "
                "mechanism's own key instead (reorder_registers: gpu.sm.regfile.sharing_reorder; relssp: "
                "frontend.relssp.*; unified_alloc, unified_alloc_shared, unified_alloc_auto: frontend.unified_alloc.*).",
                kDecision));
  t.push_back(E("frontend.relssp.placement", "exit", {"exit", "postdom", "opt"},
                "Where the front end puts Jatala's relssp (release of the shared scratchpad region): exit = none "
                "(the lock is released when the CTA completes), postdom = at a post-dominator of the shared "
                "accesses, opt = right after the last shared access by the Safe analysis (with critical-edge "
                "splitting). Needs gpu.sm.smem.alloc_policy = sharing.",
                "Jatala thesis §3.2.3 (seed note 000 §2.11)"));
  t.push_back(E("frontend.relssp.layout", "declared", {"declared", "access_range"},
                "Layout of a kernel's static shared variables: declared = declaration order, access_range = the "
                "subset with the smallest access range (loops counted 1024 times) at the high offsets that form the "
                "shared region of scratchpad sharing, the rest below. Needs gpu.sm.smem.alloc_policy = sharing.",
                "Jatala thesis §3.2.1 (seed note 000 §2.9)"));
  t.push_back(E("frontend.unified_alloc.mode", "off", {"off", "fixed", "auto"},
                "Unified register/scratchpad allocation (docs/unified-allocation.md): off = kernels keep their "
                "registers; fixed = every kernel gets at most frontend.unified_alloc.registers registers per "
                "thread, the values that do not fit are spilled with real spill code (executed and timed), and CTA "
                "admission uses the rewritten kernel's count; auto = per launch shape, the seed's static occupancy "
                "search (Fig. 5: AD_int, CI_pred with frontend.unified_alloc.max_cmratio, levels in block-size "
                "steps) chooses each kernel's level and R.",
                "Hayes & Zhang ICS'14 §3.1, §4.2 (seed note 001 §1.2, §1.9)"));
  t.push_back(U("frontend.unified_alloc.registers", 0, "registers per thread", 0, 255,
                "The budget R with mode = fixed, in the units of the registers a kernel reports (our allocator's "
                "colours + 4 reserved, rounded up to even); at least 6 and at most "
                "gpu.sm.max_registers_per_thread. 0 with mode = off or auto (the search chooses R).",
                "Hayes & Zhang ICS'14 §3.1 (seed note 001 §1.2, §5.5)"));
  t.push_back(E("frontend.unified_alloc.spill", "local", {"local", "shared"},
                "Where values that do not fit in the budget go with mode = fixed: local = the thread's local "
                "memory (cached in the L1D); shared = first into per-thread slots in the shared memory the kernel "
                "does not use (above its static + dynamic shared memory, address base + (slot x threadsPerCTA + "
                "tid) x 4, as many slots as keep the occupancy R gives; one register of R is the slot pointer when "
                "slots are used, per block shape), the rest (and 64-bit values) into local memory. Needs the "
                "baseline GPU platform and allocators.",
                "Hayes & Zhang ICS'14 §3.2 (seed note 001 §1.2, §5.1)"));
  t.push_back(E("frontend.unified_alloc.prune_priority", "live_sets", {"live_sets", "accesses"},
                "With spill = shared, which spill slot leaves for local memory first when the live slots exceed the "
                "shared slots per thread (the seed's 'variable frequency'): live_sets = the one in the most "
                "over-limit live sets; accesses = the one with the fewest spill accesses, weighted 10x per loop "
                "level (at most 3), a static estimate of the dynamic access frequency.",
                "Hayes & Zhang ICS'14 §3.2.2 (seed note 001 §1.4 [ambig])"));
  t.push_back(D("frontend.unified_alloc.max_cmratio", 200.0, "cycles", 1.0, 1.0e6,
                "MAX_cmratio of the occupancy search (mode = auto): a level is beneficial when COMPUTE_inst x "
                "AD_int / MEM_inst of the transformed kernel exceeds it (the compute issue cycles needed to hide "
                "one off-chip access; the seed's 300-400 cycle latency halved for overlapped reads and writes).",
                "Hayes & Zhang ICS'14 §4.2 Eq. 1, §5 (seed note 001 §1.8)"));
  t.push_back(D("frontend.unified_alloc.concurrency_bound", 1.0, "cycles", 0.0, 1000.0,
                "The occupancy search (mode = auto) transforms a kernel only when its AD_int (average static "
                "dispatch interval, list-scheduled for one warp) exceeds this: the seed's 'concurrency-bound' has "
                "no number.",
                "Hayes & Zhang ICS'14 §4.1 (seed note 001 §1.7, §5.5)"));
}

const Registration kFrontend(kRankFrontend, "frontend", &frontend_keys);

}  // namespace
}  // namespace simtlm::config_keys
