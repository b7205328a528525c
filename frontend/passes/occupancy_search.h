// The seed's static occupancy search (Hayes & Zhang §4.2 Fig. 5, seed note
// 001 §1.7-1.9; docs/unified-allocation.md "Occupancy search"): which number
// of resident threads per SM (a multiple of the block size) a kernel is
// transformed for, with no profiling.
//
//   concurrency-bound  AD_int (static_metrics.h, of the original kernel) >
//                      `concurrency_bound` (default 1: the seed gives no
//                      number) and the original occupancy ActTnum_org is
//                      below the most the block size allows (MaxThrd);
//                      otherwise the kernel is not transformed.
//   initial level      AD_int x cores (the threads an SM issues per cycle),
//                      rounded up to a multiple of the block size, clamped to
//                      [ActTnum_org, MaxThrd] (note fix iv).
//   a level L          getRegSmem(L) gives R (and the shared slots: the
//                      allocation of the mode, unified_alloc + shared_slots),
//                      the kernel is transformed on a copy and CI_pred
//                      (COMPUTE_inst x AD_int / MEM_inst > MAX_cmratio) of the
//                      result decides. A level whose R is at least the demand
//                      is the original kernel; one whose R is too small to
//                      allocate is not beneficial.
//   CI_pred at initial up: the largest beneficial level up to MaxThrd
//                      (inclusive, fix iii; the initial level if none above).
//   otherwise          down, while above max(SmemFitTnum, ActTnum_org) (fix
//                      ii): the first beneficial level; none -> ActTnum_org.
//                      SmemFitTnum = the largest level whose transform keeps
//                      every spill on chip (no local access added).
// choose_level is the search over an evaluator, so that it is testable on
// its own; search_kernel evaluates levels by transforming the kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/occupancy_model.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/slot_colouring.h"
#include "frontend/passes/static_metrics.h"
#include "frontend/passes/unified_alloc.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kUnifiedAutoPass = "unified_alloc_auto";

struct SearchOptions {
  OccupancyLimits limits;
  SpillTarget spill = SpillTarget::Local;
  PrunePriority priority = PrunePriority::LiveSets;  // of the shared slots' pruning
  double max_cmratio = kMaxCmRatio;
  double concurrency_bound = 1.0;
  uint32_t cores = 32;  // threads an SM issues per cycle (the seed's "SM_cores")
};

// One evaluated level.
struct LevelEval {
  uint32_t threads = 0;      // ActTnum
  uint32_t registers = 0;    // getRegSmem's R (0: no count reaches the level)
  uint32_t smem_slots = 0;   // getRegSmem's shared slots per thread
  uint32_t compute = 0, memory = 0;  // static instruction mix after the transform
  bool transformed = false;  // R below the demand
  bool feasible = true;      // the allocation fits R
  bool offchip_spills = false;  // the transform added local accesses
  double ratio = 0;          // COMPUTE x AD_int / MEM (infinite without MEM: printed as "-")
  bool ci_pred = false;
};

struct SearchInputs {
  uint32_t block = 0;          // threads per CTA (the step)
  uint32_t org_threads = 0;    // ActTnum_org
  uint32_t max_threads = 0;    // MaxThrd for this block size
  double ad_int = 1;
  bool concurrency_bound = false;
  uint32_t initial = 0;        // rounded and clamped
};

struct SearchResult {
  SearchInputs in;
  std::vector<LevelEval> table;  // every level from ActTnum_org to MaxThrd, ascending
  uint32_t smem_fit_threads = 0;
  std::string direction;         // "not concurrency-bound", "up", "down", "below SmemFitTnum"
  uint32_t chosen = 0;           // ActThrd_opt
  uint32_t registers = 0;        // R of the chosen level (the demand when not transformed)
};

// Fig. 5 over `eval` (called once per level, levels in ascending order are
// memoised by the caller's table). Deterministic; the result is a multiple
// of the block size in [org, max].
uint32_t choose_level(const SearchInputs& in, uint32_t smem_fit_threads,
                      const std::function<bool(uint32_t threads)>& ci_pred, std::string* direction);

// The whole search for the kernel module.functions[fi] (analysed) launched
// with `shape`: the table of every level, SmemFitTnum and the choice.
SearchResult search_kernel(const ir::Module& module, uint32_t fi, const LaunchShape& shape,
                           const SearchOptions& options);

// The table as text: the inputs, one line per level, the choice.
std::string format_search(const std::string& kernel, const SearchResult& r, const SearchOptions& options);

void set_search_options(PassOptions& options, const SearchOptions& search);
void add_unified_auto_pass(PassRegistry& registry);

}  // namespace simtlm::frontend::passes
