#include "models/sched/daws_repetition.h"

#include "simtlm/error.h"

namespace simtlm::models::sched {

RepetitionDetector::RepetitionDetector(uint32_t entries, uint32_t ways)
    : sets_(ways == 0 ? 0 : entries / ways), ways_(ways), entries_(entries) {
  if (ways == 0 || entries == 0 || entries % ways != 0) {
    throw Error(ErrorKind::Config, "DAWS repetition detector: gpu.sm.scheduler.daws.ilrd_entries (" +
                                       std::to_string(entries) + ") must be a non-zero multiple of "
                                       "gpu.sm.scheduler.daws.ilrd_ways (" + std::to_string(ways) + ")");
  }
}

bool RepetitionDetector::touch(uint32_t warp, uint64_t line, uint32_t pc, uint32_t& other_pc) {
  Entry* set = &entries_[(line % sets_) * ways_];
  Entry* victim = set;
  ++clock_;
  for (uint32_t w = 0; w < ways_; ++w) {
    Entry& e = set[w];
    if (e.valid && e.line == line && e.warp == warp) {
      other_pc = e.pc;
      e.stamp = clock_;
      return true;
    }
    if (!e.valid) {
      if (victim->valid) victim = &e;
    } else if (victim->valid && e.stamp < victim->stamp) {
      victim = &e;
    }
  }
  *victim = Entry{line, clock_, pc, warp, true};
  return false;
}

void RepetitionDetector::clear(uint32_t warp) {
  for (Entry& e : entries_) {
    if (e.warp == warp) e.valid = false;
  }
}

uint32_t RepetitionDetector::valid_entries() const {
  uint32_t n = 0;
  for (const Entry& e : entries_) n += e.valid ? 1 : 0;
  return n;
}

}  // namespace simtlm::models::sched
