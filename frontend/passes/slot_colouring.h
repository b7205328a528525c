// Memory-slot assignment of the unified on-chip allocation (seed note 001
// §1.2, §1.4, §1.5): spilled values share a slot when they never live at
// the same time, so a kernel's per-thread spill space is the number of
// slots its colouring needs, not the number of spilled values.
//
//   prune_to_slots   §1.4 Steps 1-4 for one procedure (calls are inlined, so
//                    every composition instruction is one instruction): the
//                    over-limit points are those whose live set exceeds the
//                    N slots; while the largest live set exceeds N, one
//                    variable leaves for local memory. Priority (decision,
//                    docs/unified-allocation.md): the variable in the most
//                    over-limit live sets leaves first (ties: lowest id),
//                    counted once before the loop as Step 3 says. The seed's
//                    "lowest priority ... frequency" read the other way
//                    (fewest occurrences first) keeps 2 values out of shared
//                    memory in its own Fig. 2, where 1 is the optimum it
//                    states. PrunePriority::Accesses is the seed's other
//                    reading (note §1.4 [ambig]): among the variables of
//                    the over-limit live sets, the one with the fewest
//                    accesses (the caller's weights: a static estimate of
//                    the dynamic frequency) leaves first (ties: more
//                    over-limit live sets, then lowest id), so that a
//                    scarce slot holds what is accessed most.
//   colour_slots     §1.5: greedy colouring within a budget, reusing a slot
//                    already given to some variable before opening a new one
//                    (lowest index first); a variable with no free slot is
//                    demoted to local memory. Order (decision): maximum
//                    cardinality search (the variable with the most coloured
//                    neighbours next; ties by degree, then id), which is
//                    optimal on chordal graphs, so that the seed's claim
//                    "chordal graph -> no spills" holds; `Degree` is the
//                    seed's highest-degree-first order.
//   widths           a variable may need 2 slots (a 64-bit value in two
//                    4-byte rows, docs/unified-allocation.md): live sets
//                    then count 2 for it, pruning removes both at once (its
//                    priority measured per slot: over-limit occurrences x
//                    width, accesses / width), and
//                    colouring gives it two distinct slots free of every
//                    neighbour's (any two: the rows need not be adjacent),
//                    or none (demoted whole). Empty widths: all 1.
//   place_unified    §1.2 / Fig. 2: registers first (colour_slots with R
//                    colours over all variables), then shared-memory slots
//                    for the rest (prune, colour), the remainder local.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtlm::frontend::passes {

// Variables are 0..n-1; adjacency lists are symmetric without self-loops.
struct SlotGraph {
  std::vector<std::vector<uint32_t>> adj;
  // The edges of "both live at one point", from a list of live sets.
  static SlotGraph from_live_sets(uint32_t n, const std::vector<std::vector<uint32_t>>& live_sets);
};

// Largest live set restricted to `member` (per variable), each member
// counted with its width (widths[v], 1 when missing).
uint32_t max_live(const std::vector<std::vector<uint32_t>>& live_sets, const std::vector<char>& member,
                  const std::vector<uint8_t>& widths = {});

struct PruneResult {
  std::vector<uint32_t> kept;    // candidates for slots, ascending
  std::vector<uint32_t> pruned;  // to local memory, in the order eliminated
  uint32_t max_live_before = 0, max_live_after = 0;
};
enum class PrunePriority : uint8_t { LiveSets, Accesses };
const char* prune_priority_name(PrunePriority p);
bool parse_prune_priority(const std::string& text, PrunePriority& out);

// `candidates` (ascending ids) are the variables the live sets are about.
// With PrunePriority::Accesses, `accesses[v]` is v's access frequency
// (missing entries count 0). `widths[v]` (1 or 2, missing: 1) is the slots
// v needs: the live sets are measured in slots.
PruneResult prune_to_slots(const std::vector<std::vector<uint32_t>>& live_sets,
                           const std::vector<uint32_t>& candidates, uint32_t slots,
                           PrunePriority priority = PrunePriority::LiveSets,
                           const std::vector<double>& accesses = {}, const std::vector<uint8_t>& widths = {});

inline constexpr int32_t kLocalSlot = -1;
enum class SlotOrder : uint8_t { MaxCardinality, Degree };

struct SlotColouring {
  std::vector<int32_t> slot;  // per variable of the graph: slot index, or kLocalSlot (also for non-nodes)
  std::vector<int32_t> slot2; // its second slot when its width is 2, else kLocalSlot
  uint32_t slots_used = 0;
  uint32_t demoted = 0;       // nodes that found no slot within the budget
};
// Colours `nodes` of `g` with at most `budget` slots (0xFFFFFFFF: unbounded);
// a node of width 2 gets two slots (slot, slot2).
SlotColouring colour_slots(const SlotGraph& g, const std::vector<uint32_t>& nodes, uint32_t budget,
                           SlotOrder order = SlotOrder::MaxCardinality, const std::vector<uint8_t>& widths = {});

enum class Location : uint8_t { Register, SharedSlot, Local };
struct UnifiedPlacement {
  std::vector<Location> where;
  std::vector<int32_t> index;  // register or shared slot number; -1 for local
  uint32_t locals = 0;
};
UnifiedPlacement place_unified(const std::vector<std::vector<uint32_t>>& live_sets, uint32_t n, uint32_t registers,
                               uint32_t smem_slots, SlotOrder order = SlotOrder::MaxCardinality);

}  // namespace simtlm::frontend::passes
