#include "models/sm/fixed_latency_cache.h"

#include <algorithm>

namespace simtlm::models {

namespace {
CacheParams tag_params(const FixedLatencyCacheParams& p) {
  CacheParams c;
  c.sets = p.sets == 0 ? 1 : p.sets;
  c.ways = p.ways == 0 ? 1 : p.ways;
  c.line_bytes = p.line_bytes;
  c.sector_bytes = p.line_bytes;
  c.replacement = ReplacementPolicy::LRU;
  return c;
}
}  // namespace

FixedLatencyCache::FixedLatencyCache(const FixedLatencyCacheParams& params) : p_(params), tags_(tag_params(params)) {
  inflight_.reserve(p_.mshrs ? p_.mshrs : 16);
}

void FixedLatencyCache::retire(uint64_t cycle) {
  if (inflight_.empty()) return;
  inflight_.erase(std::remove_if(inflight_.begin(), inflight_.end(),
                                 [cycle](const std::pair<uint64_t, uint64_t>& f) { return f.second <= cycle; }),
                  inflight_.end());
}

bool FixedLatencyCache::would_block(uint64_t addr, uint64_t cycle) {
  if (p_.perfect || p_.mshrs == 0) return false;
  retire(cycle);
  return inflight_.size() >= p_.mshrs && lookup(tags_.line_of(addr)) == nullptr;
}

uint64_t FixedLatencyCache::access(uint64_t addr, uint64_t cycle) {
  if (p_.perfect) {
    ++hits;
    return cycle + p_.hit_latency;
  }
  retire(cycle);
  const uint64_t line = tags_.line_of(addr);
  if (CacheLine* l = lookup(line)) {
    tags_.touch(*l);
    for (const auto& f : inflight_) {
      if (f.first == line) {
        ++merges;
        return std::max(f.second, cycle + p_.hit_latency);
      }
    }
    ++hits;
    return cycle + p_.hit_latency;
  }
  if (p_.mshrs != 0 && inflight_.size() >= p_.mshrs) {
    ++blocked;
    return kBlocked;
  }
  CacheLine* v = tags_.victim(line);
  tags_.install(*v, line, -1, -1);
  v->valid = 1;
  ++misses;
  const uint64_t ready = cycle + p_.miss_latency;
  inflight_.emplace_back(line, ready);
  return ready;
}

uint64_t FixedLatencyCache::next_fill() const {
  uint64_t best = kBlocked;
  for (const auto& f : inflight_) best = std::min(best, f.second);
  return best;
}

}  // namespace simtlm::models
