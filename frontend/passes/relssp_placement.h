// Placement of `relssp` (Jatala §3.2.3, seed note 000 §2.11): every active
// thread executes it exactly once, after its last access to the shared
// scratchpad region, so that a scratchpad-sharing CTA pair's lock is given
// back as early as the program allows (models/smem/sharing_allocator.h).
//
// Placements (front-end pass `relssp`, option `placement`; chosen by the
// configuration key frontend.relssp.placement):
//   opt      the backward Safe analysis, greatest fixed point:
//              SafeIN(B)  = false if B accesses the shared region, else SafeOUT(B)
//              SafeOUT(B) = true for the exit, else AND over successors of SafeIN
//              INS_OUT(B) = SafeOUT(B) and not SafeIN(B)
//              INS_IN(B)  = SafeIN(B) and not AND over predecessors of SafeOUT
//            on the CFG with every critical edge split (edge_split.h);
//            INS_OUT puts relssp right after B's last shared access, INS_IN at
//            B's start; a split edge is materialised (block + branch) only
//            when relssp goes on it, the others stay unsplit.
//   postdom  one relssp at the start of the nearest block that post-dominates
//            every block with a shared access, lies on every path to the exit
//            (dominates it), is in no loop and reaches no shared access; when
//            there is none, before every ret/exit (the exit).
// A shared access is any instruction that can touch shared memory: a
// .shared load/store/atomic/reduction, and a generic one when the kernel
// converts a shared address to a generic one (cvta). Kernels with no shared
// access get no relssp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"

namespace simtlm::frontend {
class PassRegistry;
}

namespace simtlm::frontend::passes {

enum class RelsspPlacement : uint8_t { Exit, PostDom, Opt };
// "exit", "postdom", "opt"; parse returns false for anything else.
const char* relssp_placement_name(RelsspPlacement p);
bool parse_relssp_placement(const std::string& text, RelsspPlacement& out);

// The Safe analysis on any graph (tests build the seed's examples directly).
struct SafeProblem {
  std::vector<std::vector<uint32_t>> succs, preds;
  std::vector<bool> access;  // the node holds a shared access
  uint32_t exit = 0;         // SafeOUT(exit) = true
};
struct SafeSolution {
  std::vector<bool> safe_in, safe_out, ins_in, ins_out;
};
SafeSolution solve_safe(const SafeProblem& problem);

// Per pc: true when the instruction may touch shared memory (see above).
std::vector<bool> shared_accesses(const ir::Function& fn);

struct RelsspPlacementResult {
  uint32_t relssp = 0;       // relssp instructions inserted
  uint32_t split_edges = 0;  // edges split to hold one (each adds a branch)
};

// Places relssp in an analysed kernel (Exit: nothing) and records the
// inserted instructions in the annotation column "relssp.inserted"
// (uint8_t per pc: passes::InsertKind). The function must be analysed again
// afterwards.
// `access` (per pc) replaces shared_accesses(fn) when given (the layout of
// access_range.h narrows it to the shared region).
RelsspPlacementResult place_relssp(ir::Function& fn, RelsspPlacement placement,
                                   const std::vector<bool>* access = nullptr);

// Registers the pass `relssp` (off by default). Options: `placement`
// (exit|postdom|opt), `layout` (declared|access_range: Jatala §3.2.1, the
// cheapest access range in the shared region, access_range.h; relssp then
// follows the last access to a variable that reaches the shared region) and
// `threshold` (t, the private fraction, for the layout).
void register_relssp_pass(PassRegistry& registry);

}  // namespace simtlm::frontend::passes
