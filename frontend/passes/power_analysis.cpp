// GREENER power-state analysis (see power_analysis.h).
#include "frontend/passes/power_analysis.h"

#include <algorithm>
#include <string>

#include "simtlm/error.h"

namespace simtlm::frontend::passes {

const char* to_string(PowerState s) {
  switch (s) {
    case PowerState::On: return "ON";
    case PowerState::Sleep: return "SLEEP";
    case PowerState::Off: return "OFF";
  }
  return "?";
}

PowerAnalysis::PowerAnalysis(const PowerProblem& p) : window_(p.window), num_regs_(p.num_regs) {
  if (p.window == 0 || p.window > kMaxWindow) {
    throw Error(ErrorKind::Internal, "power-state analysis: window W = " + std::to_string(p.window) +
                                         " is outside 1.." + std::to_string(kMaxWindow));
  }
  const size_t n = p.insts.size();
  succs_.resize(n);
  leaves_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const PowerInst& s = p.insts[i];
    for (uint32_t t : s.succs) {
      if (t >= n) throw Error(ErrorKind::Internal, "power-state analysis: successor out of range");
    }
    for (const std::vector<uint32_t>* regs : {&s.uses, &s.defs}) {
      for (uint32_t r : *regs) {
        if (r >= num_regs_) throw Error(ErrorKind::Internal, "power-state analysis: register out of range");
      }
    }
    succs_[i] = s.succs;
    leaves_[i] = s.leaves || s.succs.empty();
  }
  solve_dist(p);
  solve_liveness(p);
  for (const PowerProblem::KeepLive& k : p.keep_live) {
    for (uint32_t i : k.insts) {
      for (uint32_t r : k.regs) {
        if (i >= n || r >= num_regs_) throw Error(ErrorKind::Internal, "power-state analysis: keep_live out of range");
        live_out_[idx(i, r)] = 1;
      }
    }
  }
}

void PowerAnalysis::solve_dist(const PowerProblem& p) {
  const size_t n = p.insts.size();
  const uint8_t inf = static_cast<uint8_t>(infinity());
  // Start from the bottom (1) and rise to the fixed point; accessed registers
  // are 1 for good.
  dist_in_.assign(n * num_regs_, 1);
  std::vector<char> accessed(n * num_regs_, 0);
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t r : p.insts[i].uses) accessed[idx(static_cast<uint32_t>(i), r)] = 1;
    for (uint32_t r : p.insts[i].defs) accessed[idx(static_cast<uint32_t>(i), r)] = 1;
  }
  std::vector<uint8_t> out(num_regs_);
  bool changed = true;
  while (changed) {
    changed = false;
    ++dist_passes_;
    for (size_t k = n; k-- > 0;) {
      const uint32_t i = static_cast<uint32_t>(k);
      // Dist(OUT(S)) = MAX over successors (INF when S leaves the function).
      std::fill(out.begin(), out.end(), leaves_[i] ? inf : uint8_t{0});
      for (uint32_t s : succs_[i]) {
        const uint8_t* in = &dist_in_[idx(s, 0)];
        for (uint32_t r = 0; r < num_regs_; ++r) out[r] = std::max(out[r], in[r]);
      }
      uint8_t* in = &dist_in_[idx(i, 0)];
      const char* acc = &accessed[idx(i, 0)];
      for (uint32_t r = 0; r < num_regs_; ++r) {
        if (acc[r]) continue;
        const uint8_t v = (out[r] >= window_) ? inf : static_cast<uint8_t>(out[r] + 1);  // INC
        if (v != in[r]) {
          in[r] = v;
          changed = true;
        }
      }
    }
  }
}

void PowerAnalysis::solve_liveness(const PowerProblem& p) {
  const size_t n = p.insts.size();
  live_in_.assign(n * num_regs_, 0);
  live_out_.assign(n * num_regs_, 0);
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = n; k-- > 0;) {
      const uint32_t i = static_cast<uint32_t>(k);
      char* out = &live_out_[idx(i, 0)];
      for (uint32_t s : succs_[i]) {
        const char* in = &live_in_[idx(s, 0)];
        for (uint32_t r = 0; r < num_regs_; ++r) out[r] |= in[r];
      }
      std::vector<char> in(out, out + num_regs_);
      const PowerInst& s = p.insts[i];
      if (!s.defs_conditional) {
        for (uint32_t r : s.defs) in[r] = 0;
      }
      for (uint32_t r : s.uses) in[r] = 1;
      char* old = &live_in_[idx(i, 0)];
      if (!std::equal(in.begin(), in.end(), old)) {
        std::copy(in.begin(), in.end(), old);
        changed = true;
      }
    }
  }
}

uint32_t PowerAnalysis::dist_out(uint32_t inst, uint32_t reg) const {
  uint32_t d = leaves_[inst] ? infinity() : 0;
  for (uint32_t s : succs_[inst]) d = std::max(d, dist_in(s, reg));
  return d;
}

PowerState PowerAnalysis::power_out(uint32_t inst, uint32_t reg) const {
  const bool sleep_off = dist_out(inst, reg) == infinity();
  if (!sleep_off) return PowerState::On;
  return live_out(inst, reg) ? PowerState::Sleep : PowerState::Off;
}

}  // namespace simtlm::frontend::passes
