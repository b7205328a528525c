// The occupancy search (see occupancy_search.h).
#include "frontend/passes/occupancy_search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "frontend/passes/budget_alloc.h"
#include "frontend/passes/shared_slots.h"
#include "simtlm/error.h"

namespace simtlm::frontend::passes {

uint32_t choose_level(const SearchInputs& in, uint32_t smem_fit_threads,
                      const std::function<bool(uint32_t threads)>& ci_pred, std::string* direction) {
  auto say = [&](const char* d) {
    if (direction) *direction = d;
  };
  if (!in.concurrency_bound || in.block == 0) {
    say("not concurrency-bound");
    return in.org_threads;
  }
  const uint32_t start = in.initial;
  if (ci_pred(start)) {
    say("up");
    uint32_t opt = start;  // fix (v): CI_pred held here
    for (uint32_t cur = start + in.block; cur <= in.max_threads; cur += in.block)  // fix (iii): <=
      if (ci_pred(cur)) opt = cur;
    return opt;
  }
  if (start < smem_fit_threads) {
    say("below SmemFitTnum");
    return in.org_threads;
  }
  say("down");
  const uint32_t lower = std::max(smem_fit_threads, in.org_threads);  // fix (ii)
  for (uint32_t cur = start; cur > lower; cur -= in.block)
    if (ci_pred(cur)) return cur;
  return in.org_threads;
}

namespace {

uint32_t user_shared(const ir::Function& fn, const LaunchShape& shape) {
  return static_cast<uint32_t>(std::min<uint64_t>(fn.static_shared_bytes + shape.dynamic_shared_bytes, 0xFFFFFFFFu));
}

uint32_t local_accesses(const ir::Function& fn) {
  return static_cast<uint32_t>(std::count_if(fn.insts.begin(), fn.insts.end(), [](const ir::Instruction& i) {
    return (i.op == ir::Opcode::Ld || i.op == ir::Opcode::St) && i.space == ir::StateSpace::Local;
  }));
}

}  // namespace

// The kernel transformed for `registers` (on a copy of the module): the
// allocation of `spill`, the shared slots sized for the occupancy of R.
static bool transform(ir::Module& m, uint32_t fi, const LaunchShape& shape, const SearchOptions& o,
                      uint32_t registers) {
  const std::string where = "frontend.unified_alloc.mode = auto (R = " + std::to_string(registers) + ")";
  try {
    if (o.spill == SpillTarget::Shared) {
      SharedSlotOptions s;
      s.registers = registers;
      s.limits = o.limits;
      s.priority = o.priority;
      s.where = where;
      unified_allocate_shared_kernel(m, fi, shape, s);
    } else {
      UnifiedAllocOptions u;
      u.registers = registers;
      u.spill = SpillTarget::Local;
      u.where = where;
      unified_allocate_kernel(m, fi, u);
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Config) throw;
    return false;  // R too small for this kernel
  }
  return true;
}

SearchResult search_kernel(const ir::Module& module, uint32_t fi, const LaunchShape& shape,
                           const SearchOptions& o) {
  const ir::Function& fn = module.functions[fi];
  const OccupancyLimits& l = o.limits;
  SearchResult r;
  SearchInputs& in = r.in;
  in.block = shape.threads();
  const uint32_t user = user_shared(fn, shape);
  const uint32_t demand = fn.analysis.allocator_regs_per_thread;
  in.org_threads = active_threads(l, in.block, demand, user);
  in.max_threads = active_threads(l, in.block, 0, user);
  in.ad_int = average_dispatch_interval(fn);
  in.concurrency_bound = in.ad_int > o.concurrency_bound && in.org_threads < in.max_threads && in.block > 0;
  const double estimate = std::ceil(in.ad_int * o.cores / std::max(1u, in.block)) * std::max(1u, in.block);
  in.initial = static_cast<uint32_t>(std::clamp<double>(estimate, in.org_threads, in.max_threads));
  r.registers = demand;
  r.chosen = in.org_threads;
  if (in.block == 0 || in.max_threads == 0) {
    r.direction = "the block does not fit an SM";
    return r;
  }
  const uint32_t orig_local = local_accesses(fn);
  const InstructionMix orig_mix = instruction_mix(fn);
  std::map<uint32_t, LevelEval> evals;
  auto eval = [&](uint32_t threads) -> const LevelEval& {
    auto it = evals.find(threads);
    if (it != evals.end()) return it->second;
    LevelEval e;
    e.threads = threads;
    const RegSmem rs = reg_smem_for(l, in.block, threads, user);
    e.registers = rs.registers;
    e.smem_slots = rs.smem_slots_per_thread;
    InstructionMix mix = orig_mix;
    if (e.registers == 0) {
      e.feasible = false;
    } else if (e.registers < demand) {
      e.transformed = true;
      ir::Module copy = module;
      e.feasible = transform(copy, fi, shape, o, e.registers);
      if (e.feasible) {
        mix = instruction_mix(copy.functions[fi]);
        e.offchip_spills = local_accesses(copy.functions[fi]) > orig_local;
      }
    }
    e.compute = mix.compute;
    e.memory = mix.memory;
    e.ratio = mix.memory ? mix.compute * in.ad_int / mix.memory : INFINITY;
    e.ci_pred = e.feasible && computation_interleaving(mix, in.ad_int, o.max_cmratio);
    return evals.emplace(threads, e).first->second;
  };
  // The table: every level from ActTnum_org up (the CLI prints it; the
  // search reads the same evaluations).
  for (uint32_t t = in.org_threads; t <= in.max_threads && in.org_threads > 0; t += in.block) {
    const LevelEval& e = eval(t);
    if (e.feasible && !e.offchip_spills) r.smem_fit_threads = std::max(r.smem_fit_threads, t);
    r.table.push_back(e);
  }
  r.chosen = choose_level(in, r.smem_fit_threads, [&](uint32_t t) { return eval(t).ci_pred; }, &r.direction);
  const LevelEval& c = eval(r.chosen);
  r.registers = c.transformed && c.feasible ? c.registers : demand;
  return r;
}

std::string format_search(const std::string& kernel, const SearchResult& r, const SearchOptions& o) {
  const SearchInputs& in = r.in;
  char line[256];
  std::string s = "kernel " + kernel + ": occupancy search (Hayes & Zhang Fig. 5)\n";
  std::snprintf(line, sizeof line,
                "  block %u threads; ActTnum_org %u; MaxThrd %u; AD_int %.2f (concurrency-bound above %.2f: %s); "
                "initial AD_int x %u cores -> %u; MAX_cmratio %.0f; SmemFitTnum %u; spill %s\n",
                in.block, in.org_threads, in.max_threads, in.ad_int, o.concurrency_bound,
                in.concurrency_bound ? "yes" : "no", o.cores, in.initial, o.max_cmratio, r.smem_fit_threads,
                spill_target_name(o.spill));
  s += line;
  s += "  threads  R  smem_slots  COMPUTE_inst  MEM_inst  ratio      CI_pred\n";
  for (const LevelEval& e : r.table) {
    char ratio[32];
    if (std::isinf(e.ratio)) std::snprintf(ratio, sizeof ratio, "-");
    else std::snprintf(ratio, sizeof ratio, "%.1f", e.ratio);
    std::snprintf(line, sizeof line, "  %7u %3u %11u %13u %9u  %-9s  %s%s\n", e.threads, e.registers, e.smem_slots,
                  e.compute, e.memory, ratio, e.ci_pred ? "true" : "false",
                  !e.feasible ? " (R too small)" : !e.transformed ? " (original kernel)" : "");
    s += line;
  }
  std::snprintf(line, sizeof line, "  chosen: %u threads (%s), R = %u\n", r.chosen, r.direction.c_str(),
                r.registers);
  s += line;
  return s;
}

void set_search_options(PassOptions& options, const SearchOptions& search) {
  const char* pass = kUnifiedAutoPass;
  options.enable(pass, true);
  set_limit_options(options, pass, search.limits);
  options.set(pass, "spill", spill_target_name(search.spill));
  options.set(pass, "priority", prune_priority_name(search.priority));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", search.max_cmratio);
  options.set(pass, "max_cmratio", buf);
  std::snprintf(buf, sizeof buf, "%.17g", search.concurrency_bound);
  options.set(pass, "concurrency_bound", buf);
  options.set(pass, "cores", std::to_string(search.cores));
}

void add_unified_auto_pass(PassRegistry& registry) {
  PassInfo p;
  p.name = kUnifiedAutoPass;
  p.description = "unified allocation with the occupancy search: per block shape, each kernel transformed for the "
                  "level Fig. 5 chooses (Hayes & Zhang)";
  p.after = {"analyze"};
  p.option_keys = limit_option_keys();
  for (const char* k : {"spill", "priority", "max_cmratio", "concurrency_bound", "cores"}) p.option_keys.push_back(k);
  p.enabled_by_default = false;
  p.needs_launch_shape = true;
  p.run = [](PassContext& c) {
    SearchOptions o;
    o.limits = limit_options(c.params);
    const uint64_t cores = c.params.u64("cores", 0);
    if (cores == 0 || cores > 65536)
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc_auto' needs the option 'cores' from 1 to 65536");
    o.cores = static_cast<uint32_t>(cores);
    const std::string spill = c.params.text("spill", "local");
    if (!parse_spill_target(spill, o.spill))
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc_auto': spill '" + spill + "' is not local or shared");
    const std::string priority = c.params.text("priority", "live_sets");
    if (!parse_prune_priority(priority, o.priority))
      throw Error(ErrorKind::Config, "front-end pass 'unified_alloc_auto': priority '" + priority +
                                         "' is not live_sets or accesses");
    o.max_cmratio = c.params.real("max_cmratio", kMaxCmRatio);
    o.concurrency_bound = c.params.real("concurrency_bound", 1.0);
    for (uint32_t fi = 0; fi < c.module.functions.size(); ++fi) {
      ir::Function& fn = c.module.functions[fi];
      if (!fn.is_entry || fn.insts.empty() || !fn.rejected.empty() || !fn.analysis.done) continue;
      const SearchResult r = search_kernel(c.module, fi, *c.launch, o);
      char head[200];
      std::snprintf(head, sizeof head,
                    "frontend.unified_alloc.mode = auto: %u threads per SM chosen (%s; ActTnum_org %u, AD_int %.2f)",
                    r.chosen, r.direction.c_str(), r.in.org_threads, r.in.ad_int);
      if (r.registers < fn.analysis.allocator_regs_per_thread) {
        transform(c.module, fi, *c.launch, o, r.registers);
        fn.analysis.regs_source_detail = std::string(head) + "; " + fn.analysis.regs_source_detail;
      } else {
        fn.analysis.regs_per_thread = fn.analysis.allocator_regs_per_thread;
        fn.analysis.regs_source = ir::RegisterCountSource::UnifiedAlloc;
        fn.analysis.regs_source_detail = std::string(head) + ": kernel " + fn.name + " not transformed";
      }
    }
  };
  registry.add(std::move(p));
}

}  // namespace simtlm::frontend::passes
