#include "models/sched/daws.h"

#include <algorithm>
#include <utility>

#include "frontend/ir/module.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

namespace {

uint32_t log2_of(uint32_t v) {
  uint32_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

// Storage the mechanism adds to one SM, in bits (§4.4.3): the prediction
// table (per warp a 16-bit footprint and a 32-bit loop pc) and a 32-entry
// load classification table (loop pc, load pc, diverged bit, 5-bit RepID);
// detected DAWS adds the victim tags, an owner-warp id per L1D line, the
// ILRD (line tag, load pc, warp id per entry) and an 8-entry sampling warp
// table (loop pc, warp id, 4-bit counter).
uint64_t storage_bits(const PolicyParams& p) {
  const uint64_t wid = log2_of(p.max_warps);
  uint64_t bits = uint64_t{p.max_warps} * (16 + 32) + 32 * (32 + 32 + 1 + 5);
  if (p.daws_mode == "detected") {
    const VictimTagArray vta(p.max_warps, p.vta_entries_per_warp, p.vta_ways, p.line_bytes);
    bits += vta.storage_bits() + p.l1d_lines * wid;
    bits += uint64_t{p.daws_ilrd_entries} * (48 - log2_of(p.line_bytes) + 32 + wid + 1);
    bits += 8 * (32 + wid + 4);
  }
  return bits;
}

}  // namespace

DawsPolicy::DawsPolicy(const PolicyParams& params)
    : gto_(params),
      detected_(params.daws_mode == "detected"),
      lane_aware_(params.daws_lane_aware),
      warp_size_(params.warp_size),
      line_shift_(log2_of(params.line_bytes)),
      eff_lines_(params.daws_assoc_factor * static_cast<double>(params.l1d_lines)),
      profile_path_(params.daws_profile),
      warps_(params.max_warps),
      can_load_(params.max_warps, 1),
      ilrd_(params.daws_ilrd_entries, params.daws_ilrd_ways),
      vta_(params.max_warps, params.vta_entries_per_warp, params.vta_ways, params.line_bytes) {
  if (params.daws_mode != "detected" && params.daws_mode != "profiled") {
    throw Error(ErrorKind::Config, "gpu.sm.scheduler.daws.mode '" + params.daws_mode + "': expected detected or profiled");
  }
  if (params.l1d_lines == 0) {
    throw Error(ErrorKind::Config, "policy daws sizes its footprints by the L1D: it needs gpu.l1d.enabled = true");
  }
  if (!detected_) {
    if (profile_path_.empty()) {
      throw Error(ErrorKind::Config, "gpu.sm.scheduler.daws.mode = profiled needs gpu.sm.scheduler.daws.profile");
    }
    profile_ = std::make_unique<DawsProfile>(DawsProfile::read(profile_path_));
  }
  n_.storage_bits = storage_bits(params);
}

void DawsPolicy::warp_added(const WarpInfo& warp) {
  gto_.warp_added(warp);
  if (warp.slot >= warps_.size()) {
    warps_.resize(warp.slot + 1);
    can_load_.resize(warp.slot + 1, 1);
  }
  warps_[warp.slot] = Warp{};
  warps_[warp.slot].live = true;
  warps_[warp.slot].age = warp.age;
  vta_.clear(warp.slot);
  ilrd_.clear(warp.slot);
  dirty_ = true;
}

void DawsPolicy::warp_removed(uint32_t slot) {
  gto_.warp_removed(slot);
  if (slot >= warps_.size()) return;
  Warp& w = warps_[slot];
  leave_samplers(slot, w, 0, true);
  w = Warp{};
  can_load_[slot] = 1;
  dirty_ = true;
}

uint32_t DawsPolicy::kernel_index(const void* key, const std::string& name, uint32_t instructions,
                                  DawsLoopTable loops) {
  auto it = kernel_of_.find(key);
  if (it != kernel_of_.end()) return it->second;
  auto k = std::make_unique<DawsKernel>(name, instructions, std::move(loops));
  if (!detected_) k->apply_profile(*profile_, profile_path_);
  kernels_.push_back(std::move(k));
  const auto index = static_cast<uint32_t>(kernels_.size() - 1);
  kernel_of_.emplace(key, index);
  return index;
}

uint64_t DawsPolicy::lines_for(uint32_t kernel, uint32_t loop, uint32_t lanes) {
  if (kernel == DawsLoopTable::kNone || loop == DawsLoopTable::kNone) return 0;
  return kernels_[kernel]->footprint(loop).lines(lane_aware_ ? lanes : warp_size_);
}

void DawsPolicy::clear_entry(Warp& w) {
  if (w.loop != DawsLoopTable::kNone || w.footprint != 0) dirty_ = true;
  w.loop = DawsLoopTable::kNone;
  w.footprint = 0;
}

void DawsPolicy::leave_samplers(uint32_t slot, Warp& w, uint32_t next_pc, bool all) {
  if (w.sampling.empty()) return;
  DawsKernel& k = *kernels_[w.kernel];
  auto gone = [&](uint32_t loop) {
    if (!all && k.loops().contains(loop, next_pc)) return false;
    k.sampler_left(loop, slot);
    return true;
  };
  w.sampling.erase(std::remove_if(w.sampling.begin(), w.sampling.end(), gone), w.sampling.end());
}

void DawsPolicy::issued(uint32_t slot, uint32_t kernel, const Issue& is) {
  Warp& w = warps_[slot];
  if (w.kernel != kernel) {
    leave_samplers(slot, w, 0, true);
    clear_entry(w);
    w.kernel = kernel;
  }
  DawsKernel& k = *kernels_[kernel];
  const DawsLoopTable& loops = k.loops();
  const uint32_t begun = loops.loop_begun_at(is.pc);
  if (begun != DawsLoopTable::kNone) {
    ++n_.loop_begins;
    if (detected_ && k.loop_begin(begun, slot, is.active_lanes, ilrd_)) w.sampling.push_back(begun);
    // Back in an outer loop after its inner loop: the inner loop's footprint.
    const bool inner_kept = w.loop != DawsLoopTable::kNone && w.loop != begun && loops.encloses(begun, w.loop);
    if (!inner_kept) w.loop = begun;
    const uint64_t f = lines_for(kernel, w.loop, is.active_lanes);
    if (f != w.footprint) dirty_ = true;
    w.footprint = f;
  }
  if (is.l1d_load) {
    w.sampled_loop = DawsLoopTable::kNone;
    const uint32_t in = loops.loop_at(is.pc);
    if (detected_ && in != DawsLoopTable::kNone && k.sampler(in) == static_cast<int32_t>(slot)) {
      ++n_.sampled_loads;
      k.sampled_load(in, is.pc, slot, is.exec_lanes, is.lines, ilrd_);
      w.sampled_loop = in;
    }
  }
  // Leaving loops.
  if (is.finished) {
    clear_entry(w);
    leave_samplers(slot, w, 0, true);
  } else {
    if (w.loop != DawsLoopTable::kNone && !loops.contains(w.loop, is.next_pc)) {
      const uint32_t at = loops.loop_at(is.next_pc);
      // Out of an inner loop into the loop around it: the entry stays.
      if (at == DawsLoopTable::kNone || !loops.encloses(at, w.loop)) clear_entry(w);
    }
    leave_samplers(slot, w, is.next_pc, false);
  }
  if (w.loop == DawsLoopTable::kNone && (w.pc != is.next_pc || w.lanes != is.active_lanes)) dirty_ = true;
  w.pc = is.next_pc;
  w.lanes = is.active_lanes;
}

void DawsPolicy::on_issue_detail(const IssueDetail& d) {
  const functional::ExecRecord& rec = *d.rec;
  const ir::Function& fn = *d.kernel;
  if (&fn != last_fn_) {
    auto it = kernel_of_.find(&fn);
    last_k_ = it != kernel_of_.end()
                  ? it->second
                  : kernel_index(&fn, fn.name, static_cast<uint32_t>(fn.insts.size()), DawsLoopTable::of(fn));
    last_fn_ = &fn;
  }
  const uint32_t k = last_k_;
  Issue is;
  is.pc = rec.pc;
  is.active_lanes = static_cast<uint32_t>(__builtin_popcountll(rec.active_mask));
  is.exec_lanes = static_cast<uint32_t>(__builtin_popcountll(rec.exec_mask));
  is.next_pc = rec.next_pc;
  is.finished = rec.finished;
  is.l1d_load = d.l1d_load;
  // Only a sampler's loads need their lines (the sampler may be chosen by
  // this very instruction when a load begins its loop).
  const DawsKernel& kernel = *kernels_[k];
  const uint32_t in = kernel.loops().loop_at(rec.pc);
  const bool may_sample = in != DawsLoopTable::kNone &&
                          (kernel.sampler(in) == static_cast<int32_t>(d.slot) ||
                           kernel.loops().loop_begun_at(rec.pc) != DawsLoopTable::kNone);
  if (d.l1d_load && detected_ && may_sample && rec.addresses != nullptr) {
    // Distinct lines of the executing lanes: the coalescer's accesses.
    lines_scratch_.clear();
    for (uint64_t m = rec.exec_mask; m != 0; m &= m - 1) {
      const uint64_t line = rec.addresses[__builtin_ctzll(m)] >> line_shift_;
      if (std::find(lines_scratch_.begin(), lines_scratch_.end(), line) == lines_scratch_.end()) {
        lines_scratch_.push_back(line);
      }
    }
    is.lines = lines_scratch_;
  }
  issued(d.slot, k, is);
}

void DawsPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass cls, uint64_t cycle) {
  gto_.on_issue(slot, scheduler, cls, cycle);
}

void DawsPolicy::on_barrier(uint32_t slot, BarrierEvent event, uint64_t) {
  if (slot >= warps_.size()) return;
  Warp& w = warps_[slot];
  w.at_barrier = event == BarrierEvent::Arrive;
  if (w.at_barrier) clear_entry(w);
  dirty_ = true;
}

void DawsPolicy::admit() {
  bool any = false;
  for (const Warp& w : warps_) any = any || (w.live && w.footprint > 0);
  candidates_.clear();
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const Warp& w = warps_[s];
    if (!w.live) continue;
    uint64_t f = w.footprint;
    if (any && !w.at_barrier && w.loop == DawsLoopTable::kNone && w.kernel != DawsLoopTable::kNone) {
      // Outside any loop: as if in the next loop in program order (not
      // while waiting at a barrier: the younger warps it waits for could
      // otherwise be blocked by its prediction).
      const DawsLoopTable& loops = kernels_[w.kernel]->loops();
      const uint32_t next = w.pc < loops.next_loop.size() ? loops.next_loop[w.pc] : DawsLoopTable::kNone;
      f = lines_for(w.kernel, next, w.lanes);
    }
    candidates_.push_back(DawsCandidate{s, w.age, f});
  }
  const std::vector<uint8_t> can = daws_admit(candidates_, eff_lines_);
  std::fill(can_load_.begin(), can_load_.end(), 1);
  blocked_ = 0;
  for (size_t i = 0; i < candidates_.size(); ++i) {
    can_load_[candidates_[i].slot] = can[i];
    blocked_ += can[i] ? 0 : 1;
  }
  dirty_ = false;
}

const std::vector<uint32_t>& DawsPolicy::order(unsigned scheduler, uint64_t cycle) {
  if (updated_ != cycle) {
    if (dirty_) admit();
    n_.blocked_warp_cycles += blocked_;
    updated_ = cycle;
  }
  return gto_.order(scheduler, cycle);
}

void DawsPolicy::on_cache_event(const CacheEvent& e) {
  if (e.kind == CacheEventKind::Evict) {
    if (e.owner_warp >= 0) vta_.insert(static_cast<uint32_t>(e.owner_warp), e.line_addr);
    return;
  }
  if (e.warp_id < 0 || static_cast<size_t>(e.warp_id) >= warps_.size() || e.access != AccessKind::Load) return;
  const auto slot = static_cast<uint32_t>(e.warp_id);
  Warp& w = warps_[slot];
  bool locality = false;
  if (e.kind == CacheEventKind::Hit) {
    locality = e.owner_warp == e.warp_id;
  } else if (e.kind == CacheEventKind::Miss) {
    locality = vta_.probe(slot, e.line_addr);
    n_.vta_hits += locality ? 1 : 0;
  } else {
    return;
  }
  if (w.sampled_loop == DawsLoopTable::kNone || w.kernel == DawsLoopTable::kNone) return;
  (locality ? n_.locality_votes : n_.no_locality_votes) += 1;
  kernels_[w.kernel]->feedback(w.sampled_loop, locality);
  dirty_ = true;  // a loop may gain or lose its prediction (taken at the next loop begin)
}

DawsProfile DawsPolicy::profile() {
  DawsProfile p;
  for (auto& k : kernels_) p.kernels[k->name()] = k->learned();
  return p;
}

void DawsPolicy::register_stats(const stats::Group& group) {
  const stats::Group g = group.child("daws");
  g.counter("loop_begins", &n_.loop_begins, "instructions", "first instructions of loops issued (prediction updates)");
  g.counter("sampled_loads", &n_.sampled_loads, "instructions", "loads of sampling warps classified (detected DAWS)");
  g.counter("locality_votes", &n_.locality_votes, "accesses",
            "L1D accesses of sampled loads with intra-warp locality (own hit or victim-tag hit)");
  g.counter("no_locality_votes", &n_.no_locality_votes, "accesses",
            "L1D accesses of sampled loads without intra-warp locality");
  g.counter("vta_hits", &n_.vta_hits, "hits", "victim tag hits of L1D load misses (lost intra-warp locality)");
  g.counter("blocked_warp_cycles", &n_.blocked_warp_cycles, "warp-cycles",
            "sum over evaluated cycles of the warps whose loads were throttled");
  g.level("storage_bits", &n_.storage_bits, "bits",
          "prediction and classification tables; detected: + victim tags, owner-warp ids, ILRD, sampling table");
}

std::string DawsPolicy::describe(unsigned scheduler) const {
  uint64_t total = 0;
  for (const Warp& w : warps_) total += w.live ? w.footprint : 0;
  return std::string("daws (") + (detected_ ? "detected" : "profiled") + "): " + std::to_string(blocked_) +
         " warps load-throttled, predicted " + std::to_string(total) + " of " +
         std::to_string(static_cast<uint64_t>(eff_lines_)) + " lines; " + gto_.describe(scheduler);
}

}  // namespace simtlm::models::sched
