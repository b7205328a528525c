#include "models/vws/l0_icache.h"

#include <algorithm>

namespace simtlm::models::vws {

L0ICache::Entry* L0ICache::find(uint32_t pc) {
  for (Entry& e : e_) {
    if (e.valid && e.pc == pc) return &e;
  }
  return nullptr;
}

bool L0ICache::probe(uint32_t pc, uint32_t n, uint64_t& ready) {
  uint64_t r = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Entry* e = find(pc + i);
    if (e == nullptr) return false;
    r = std::max(r, e->ready);
  }
  for (uint32_t i = 0; i < n; ++i) find(pc + i)->used = ++clock_;
  ready = r;
  return true;
}

void L0ICache::fill(uint32_t pc, uint32_t n, uint64_t ready) {
  if (e_.empty()) return;
  for (uint32_t i = 0; i < n; ++i) {
    Entry* e = find(pc + i);
    if (e == nullptr) {
      e = &*std::min_element(e_.begin(), e_.end(), [](const Entry& a, const Entry& b) {
        // Invalid entries first, then the least recently used.
        return a.valid != b.valid ? !a.valid : a.used < b.used;
      });
      e->valid = true;
      e->pc = pc + i;
      e->ready = ready;
    }
    e->used = ++clock_;
  }
}

}  // namespace simtlm::models::vws
