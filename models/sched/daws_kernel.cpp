#include "models/sched/daws_kernel.h"

#include <utility>

#include "models/sched/daws_repetition.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

DawsKernel::DawsKernel(std::string name, uint32_t instructions, DawsLoopTable loops)
    : name_(std::move(name)), instructions_(instructions), loops_(std::move(loops)) {
  const size_t n = loops_.loops.size();
  profile_.assign(n, DawsLoopFootprint{});
  locality_.assign(n, 0);
  sampler_.assign(n, -1);
  sampled_before_.assign(n, 0);
  summary_stale_.assign(n, 1);
  summary_.assign(n, DawsLoopFootprint{});
}

void DawsKernel::apply_profile(const DawsProfile& profile, const std::string& path) {
  auto it = profile.kernels.find(name_);
  if (it == profile.kernels.end()) {
    throw Error(ErrorKind::Input, "DAWS profile '" + path + "' has no kernel '" + name_ +
                                      "' (profile it with a detected-DAWS run and gpu.sm.scheduler.daws.profile_out)");
  }
  if (it->second.instructions != instructions_) {
    throw Error(ErrorKind::Input, "DAWS profile '" + path + "': kernel '" + name_ + "' was profiled with " +
                                      std::to_string(it->second.instructions) + " instructions, it has " +
                                      std::to_string(instructions_) + " (a stale profile)");
  }
  for (const auto& [pc, f] : it->second.loops) {
    const uint32_t l = loops_.loop_begun_at(pc);
    if (l == DawsLoopTable::kNone) {
      throw Error(ErrorKind::Input, "DAWS profile '" + path + "': kernel '" + name_ + "' has no loop beginning at pc " +
                                        std::to_string(pc));
    }
    profile_[l] = f;
  }
  profiled_ = true;
}

DawsLoopFootprint DawsKernel::footprint(uint32_t loop) {
  if (profiled_) return profile_[loop];
  if (locality_[loop] <= 0) return DawsLoopFootprint{};
  if (summary_stale_[loop]) {
    std::vector<DawsLoad> loads;
    for (const auto& [pc, l] : loads_) {
      if (l.loop == loop) loads.push_back(DawsLoad{pc, l.divergence > 1, rep_of(pc)});
    }
    summary_[loop] = summarize_loads(loads);
    summary_stale_[loop] = 0;
  }
  return summary_[loop];
}

bool DawsKernel::loop_begin(uint32_t loop, uint32_t slot, uint32_t lanes, RepetitionDetector& ilrd) {
  if (sampler_[loop] == static_cast<int32_t>(slot)) {
    ilrd.clear(slot);  // the sampler branched back: a new iteration
    return false;
  }
  if (sampler_[loop] >= 0 || lanes <= (sampled_before_[loop] ? 1u : 2u)) return false;
  sampler_[loop] = static_cast<int32_t>(slot);
  sampled_before_[loop] = 1;
  ilrd.clear(slot);
  return true;
}

void DawsKernel::sampler_left(uint32_t loop, uint32_t slot) {
  if (sampler_[loop] == static_cast<int32_t>(slot)) sampler_[loop] = -1;
}

void DawsKernel::bump(int32_t& counter, bool up) {
  if (up && counter < kCounterMax) ++counter;
  if (!up && counter > kCounterMin) --counter;
}

uint32_t DawsKernel::rep_of(uint32_t pc) {
  auto it = loads_.find(pc);
  if (it == loads_.end()) return pc;
  uint32_t root = pc;
  while (loads_.at(root).rep != root) root = loads_.at(root).rep;
  for (uint32_t p = pc; p != root;) {  // path compression
    Load& l = loads_.at(p);
    p = l.rep;
    l.rep = root;
  }
  return root;
}

void DawsKernel::sampled_load(uint32_t loop, uint32_t pc, uint32_t slot, uint32_t lanes,
                              const std::vector<uint64_t>& lines, RepetitionDetector& ilrd) {
  auto [it, added] = loads_.try_emplace(pc, Load{loop, 0, pc});
  if (lanes > 2) bump(it->second.divergence, lines.size() > 2);
  for (uint64_t line : lines) {
    uint32_t other = 0;
    if (!ilrd.touch(slot, line, pc, other) || other == pc) continue;
    const Load* o = load(other);
    if (o == nullptr || o->loop != loop) continue;
    const uint32_t a = rep_of(pc), b = rep_of(other);
    if (a != b) loads_.at(a).rep = b;
  }
  (void)added;
  summary_stale_[loop] = 1;
}

void DawsKernel::feedback(uint32_t loop, bool intra_warp_locality) {
  const bool before = locality_[loop] > 0;
  bump(locality_[loop], intra_warp_locality);
  if (before != (locality_[loop] > 0)) summary_stale_[loop] = 1;
}

const DawsKernel::Load* DawsKernel::load(uint32_t pc) const {
  auto it = loads_.find(pc);
  return it == loads_.end() ? nullptr : &it->second;
}

DawsProfile::Kernel DawsKernel::learned() {
  DawsProfile::Kernel k;
  k.instructions = instructions_;
  for (uint32_t l = 0; l < loops_.loops.size(); ++l) {
    const DawsLoopFootprint f = footprint(l);
    if (!f.empty()) k.loops[loops_.loops[l].begin_pc] = f;
  }
  return k;
}

}  // namespace simtlm::models::sched
