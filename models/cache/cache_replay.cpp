#include "models/cache/cache_replay.h"

#include <unordered_map>

#include "models/cache/tag_array.h"

namespace simtlm::models {

namespace {

constexpr uint64_t kNever = ~0ull;

uint64_t replay_lru(const CacheParams& p, const std::vector<ReplayAccess>& accesses, bool evict_on_store) {
  CacheParams lru = p;
  lru.replacement = ReplacementPolicy::LRU;
  TagArray tags(lru);
  uint64_t misses = 0;
  for (const ReplayAccess& a : accesses) {
    const uint64_t line = tags.line_of(a.line_addr);
    CacheLine* l = tags.find(line);
    if (a.store) {
      if (l != nullptr && evict_on_store) tags.invalidate(*l);
      continue;
    }
    if (l != nullptr) {
      tags.touch(*l);
      continue;
    }
    ++misses;
    CacheLine* v = tags.victim(line);  // never null: nothing is reserved here
    if (v->allocated) tags.invalidate(*v);
    tags.install(*v, line, -1, -1);
  }
  return misses;
}

uint64_t replay_opt(const CacheParams& p, const std::vector<ReplayAccess>& accesses, bool evict_on_store) {
  const TagArray index(p);  // set_of / line_of only
  // next[i]: position of the next read of access i's line before a store
  // invalidates it (kNever if none).
  std::vector<uint64_t> next(accesses.size(), kNever);
  std::unordered_map<uint64_t, uint64_t> upcoming;
  for (size_t i = accesses.size(); i-- > 0;) {
    const uint64_t line = index.line_of(accesses[i].line_addr);
    if (accesses[i].store) {
      if (evict_on_store) upcoming[line] = kNever;
      continue;
    }
    const auto it = upcoming.find(line);
    next[i] = it == upcoming.end() ? kNever : it->second;
    upcoming[line] = i;
  }
  struct Resident {
    uint64_t line;
    uint64_t next;
  };
  std::vector<std::vector<Resident>> sets(p.sets);
  uint64_t misses = 0;
  for (size_t i = 0; i < accesses.size(); ++i) {
    const uint64_t line = index.line_of(accesses[i].line_addr);
    std::vector<Resident>& set = sets[index.set_of(line)];
    auto it = set.begin();
    while (it != set.end() && it->line != line) ++it;
    if (accesses[i].store) {
      if (it != set.end() && evict_on_store) set.erase(it);
      continue;
    }
    if (it != set.end()) {
      it->next = next[i];
      continue;
    }
    ++misses;
    if (set.size() < p.ways) {
      set.push_back({line, next[i]});
      continue;
    }
    auto victim = set.begin();
    for (auto r = set.begin(); r != set.end(); ++r) {
      if (r->next > victim->next) victim = r;
    }
    *victim = {line, next[i]};
  }
  return misses;
}

}  // namespace

ReplayResult replay_cache(const CacheParams& params, const std::vector<ReplayAccess>& accesses) {
  const bool evict_on_store = params.write_policy == WritePolicy::WriteEvict;
  ReplayResult r;
  for (const ReplayAccess& a : accesses) r.reads += a.store ? 0 : 1;
  r.lru_misses = replay_lru(params, accesses, evict_on_store);
  r.opt_misses = replay_opt(params, accesses, evict_on_store);
  return r;
}

}  // namespace simtlm::models
