#include "models/sched/two_level.h"

#include <algorithm>

#include "models/sched/orderings.h"
#include "simtlm/error.h"

namespace simtlm::models::sched {

namespace {
bool parse_inner(const std::string& v, const char* key) {
  if (v == "lrr") return false;
  if (v == "gto") return true;
  throw Error(ErrorKind::Config, std::string(key) + " '" + v + "' is not one of lrr, gto");
}
}  // namespace

TwoLevelPolicy::TwoLevelPolicy(const PolicyParams& params)
    : capacity_(params.active_set_size == 0 ? 1 : params.active_set_size),
      inner_gto_(parse_inner(params.inner_policy, "gpu.sm.scheduler.two_level.inner_policy")),
      outer_gto_(parse_inner(params.outer_policy, "gpu.sm.scheduler.two_level.outer_policy")),
      sched_(params.schedulers),
      owner_(params.max_warps, 0),
      age_(params.max_warps, 0),
      waiting_(params.max_warps, false) {}

std::vector<uint32_t> TwoLevelPolicy::pending(unsigned scheduler) const {
  return std::vector<uint32_t>(sched_[scheduler].pending.begin(), sched_[scheduler].pending.end());
}

void TwoLevelPolicy::promote(Sched& s, int64_t exclude) {
  while (s.active.size() < capacity_ && !s.pending.empty()) {
    // The warp just demoted is taken back only when nobody else is pending.
    auto eligible = [&](uint32_t slot) { return static_cast<int64_t>(slot) != exclude || s.pending.size() == 1; };
    // The outer order chooses among the pending warps that do not wait.
    // Only when all of them wait is one taken back, the one queued longest:
    // with the oldest instead, two old waiters swapped places forever while
    // the younger warps a barrier waited for stayed pending.
    bool any_ready = false;
    for (uint32_t slot : s.pending) any_ready = any_ready || (eligible(slot) && !waits(slot));
    const bool by_age = outer_gto_ && any_ready;
    auto pick = s.pending.end();
    for (auto it = s.pending.begin(); it != s.pending.end(); ++it) {
      if (!eligible(*it) || (any_ready && waits(*it))) continue;
      if (pick == s.pending.end() || (by_age && age_[*it] < age_[*pick])) pick = it;
      if (!by_age) break;
    }
    const uint32_t slot = *pick;
    s.pending.erase(pick);
    s.active.insert(std::upper_bound(s.active.begin(), s.active.end(), slot), slot);
  }
}

void TwoLevelPolicy::demote(Sched& s, uint32_t slot) {
  auto it = std::lower_bound(s.active.begin(), s.active.end(), slot);
  if (it == s.active.end() || *it != slot) return;
  if (s.pending.empty()) return;  // nobody to take its place: stay active
  s.active.erase(it);
  s.pending.push_back(slot);
  promote(s, slot);
  ++demotions_;
}

void TwoLevelPolicy::warp_added(const WarpInfo& warp) {
  if (warp.slot >= owner_.size()) {
    owner_.resize(warp.slot + 1, 0);
    age_.resize(warp.slot + 1, 0);
    waiting_.resize(warp.slot + 1, false);
  }
  owner_[warp.slot] = warp.scheduler;
  age_[warp.slot] = warp.age;
  waiting_[warp.slot] = false;
  Sched& s = sched_[warp.scheduler];
  s.pending.push_back(warp.slot);
  promote(s);
}

void TwoLevelPolicy::warp_removed(uint32_t slot) {
  Sched& s = sched_[owner_[slot]];
  auto it = std::lower_bound(s.active.begin(), s.active.end(), slot);
  if (it != s.active.end() && *it == slot) {
    s.active.erase(it);
  } else {
    s.pending.erase(std::remove(s.pending.begin(), s.pending.end(), slot), s.pending.end());
  }
  if (s.last == static_cast<int64_t>(slot)) s.last = -1;
  promote(s);
}

const std::vector<uint32_t>& TwoLevelPolicy::order(unsigned scheduler, uint64_t) {
  std::vector<uint32_t>& out = order_;
  out.clear();
  const Sched& s = sched_[scheduler];
  const auto& v = s.active;
  if (v.empty()) return out;
  if (inner_gto_) {
    if (s.last >= 0 && std::binary_search(v.begin(), v.end(), static_cast<uint32_t>(s.last))) {
      out.push_back(static_cast<uint32_t>(s.last));
    }
    const size_t first = out.size();
    for (uint32_t w : v) {
      if (static_cast<int64_t>(w) != s.last) out.push_back(w);
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [this](uint32_t a, uint32_t b) { return age_[a] < age_[b]; });
    return out;
  }
  round_robin_after(v, s.last, out);
  return out;
}

void TwoLevelPolicy::on_issue(uint32_t slot, unsigned scheduler, functional::ExecClass, uint64_t) {
  sched_[scheduler].last = slot;
  waiting_[slot] = false;  // it issued: what it waited for has come
}

void TwoLevelPolicy::on_stall(uint32_t slot, StallKind kind, uint64_t) {
  if (kind != StallKind::LongLatency && kind != StallKind::Barrier) return;
  waiting_[slot] = true;
  demote(sched_[owner_[slot]], slot);
}

std::string TwoLevelPolicy::describe(unsigned scheduler) const {
  const Sched& s = sched_[scheduler];
  std::string r = "two_level: active {";
  for (size_t i = 0; i < s.active.size(); ++i) r += (i ? "," : "") + std::to_string(s.active[i]);
  r += "} pending {";
  for (size_t i = 0; i < s.pending.size(); ++i) r += (i ? "," : "") + std::to_string(s.pending[i]);
  return r + "}";
}

}  // namespace simtlm::models::sched
