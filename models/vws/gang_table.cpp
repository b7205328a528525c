#include "models/vws/gang_table.h"

#include <algorithm>
#include <sstream>

#include "simtlm/error.h"

namespace simtlm::models::vws {

namespace {

uint32_t lowest(SliceMask m) { return static_cast<uint32_t>(__builtin_ctz(m)); }
uint32_t count(SliceMask m) { return static_cast<uint32_t>(__builtin_popcount(m)); }

}  // namespace

GangTable::GangTable(uint32_t original_gangs, uint32_t slices)
    : sets_(original_gangs), slices_(slices), ways_(slices / 2), entries_(size_t(original_gangs) * (slices / 2)),
      member_of_(size_t(original_gangs) * slices, kNoGang), independent_(original_gangs, 0),
      live_(original_gangs, 0) {
  if (slices < 2 || slices > 32 || original_gangs == 0) {
    throw Error(ErrorKind::Internal, "gang table: needs 2..32 slices and at least one original gang");
  }
}

uint32_t GangTable::free_way(uint32_t set) const {
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!entries_[gang_id(set, w)].valid_entry) return w;
  }
  // Cannot happen: a set's gangs have >= 2 disjoint members among `slices`.
  throw Error(ErrorKind::Internal, "gang table: set " + std::to_string(set) + " has no free way");
}

uint32_t GangTable::units(uint32_t set) const {
  uint32_t n = static_cast<uint32_t>(__builtin_popcount(independent_[set]));
  for (uint32_t w = 0; w < ways_; ++w) n += entries_[gang_id(set, w)].valid_entry ? 1u : 0u;
  return n;
}

void GangTable::set_members(uint32_t gang, SliceMask mask) {
  const uint32_t set = set_of(gang);
  for (SliceMask m = mask; m; m &= m - 1) member_of_[set * slices_ + lowest(m)] = gang;
}

uint32_t GangTable::make_gang(uint32_t set, SliceMask mask, uint32_t pc) {
  const uint32_t id = gang_id(set, free_way(set));
  GangEntry& e = entries_[id];
  e = GangEntry();
  e.valid_entry = true;
  e.mask = mask;
  e.pc = pc;
  e.ready_mask = mask;
  set_members(id, mask);
  independent_[set] &= ~mask;
  ++in_use_;
  return id;
}

void GangTable::drop_gang(uint32_t gang) {
  GangEntry& e = entries_[gang];
  const uint32_t set = set_of(gang);
  for (SliceMask m = e.mask; m; m &= m - 1) member_of_[set * slices_ + lowest(m)] = kNoGang;
  e = GangEntry();
  --in_use_;
}

uint32_t GangTable::form(uint32_t set, SliceMask present, uint32_t pc) {
  if (live_[set] != 0) throw Error(ErrorKind::Internal, "gang table: form of a set still in use");
  live_[set] = present;
  if (count(present) < 2) {
    independent_[set] = present;
    return kNoGang;
  }
  return make_gang(set, present, pc);
}

uint32_t GangTable::split_by_pc(uint32_t gang, const std::function<uint32_t(uint32_t)>& pc_of) {
  GangEntry& e = entries_.at(gang);
  const uint32_t set = set_of(gang);
  SliceMask left = e.mask;
  // Groups by PC, in order of their lowest slice (the PC "coalescing").
  std::vector<std::pair<uint32_t, SliceMask>> groups;
  for (SliceMask m = left; m; m &= m - 1) {
    const uint32_t s = lowest(m);
    const uint32_t pc = pc_of(s);
    bool placed = false;
    for (auto& g : groups) {
      if (g.first == pc) {
        g.second |= SliceMask(1) << s;
        placed = true;
        break;
      }
    }
    if (!placed) groups.emplace_back(pc, SliceMask(1) << s);
  }
  if (groups.size() == 1) {
    e.pc = groups.front().first;
    return 1;
  }
  drop_gang(gang);
  for (const auto& [pc, mask] : groups) {
    if (count(mask) >= 2) {
      make_gang(set, mask, pc);
    } else {
      independent_[set] |= mask;
    }
  }
  ++splits_[static_cast<unsigned>(SplitCause::ControlFlow)];
  return static_cast<uint32_t>(groups.size());
}

bool GangTable::split_by_ready(uint32_t gang, SliceMask now_ready, bool impatient) {
  GangEntry& e = entries_.at(gang);
  const SliceMask ready = now_ready & e.mask;
  if (ready == 0 || ready == e.mask) return false;  // nobody or everybody: no divergence
  const uint32_t set = set_of(gang);
  const uint32_t pc = e.pc;
  const SliceMask members = e.mask;
  drop_gang(gang);
  if (impatient) {
    independent_[set] |= members;
    ++splits_[static_cast<unsigned>(SplitCause::MemoryImpatient)];
    return true;
  }
  for (SliceMask part : {members & ~ready, ready}) {
    if (count(part) >= 2) {
      make_gang(set, part, pc);
    } else {
      independent_[set] |= part;
    }
  }
  ++splits_[static_cast<unsigned>(SplitCause::MemoryGroup)];
  return true;
}

uint32_t GangTable::reform_one(const std::function<uint32_t(uint32_t, uint32_t)>& pc_of,
                               const std::function<bool(uint32_t, uint32_t)>& mergeable) {
  for (uint32_t tried = 0; tried < sets_; ++tried) {
    const uint32_t set = reform_rr_;
    reform_rr_ = reform_rr_ + 1 == sets_ ? 0 : reform_rr_ + 1;
    // Units of the set: each gang (by its mask) and each mergeable independent warp.
    std::vector<SliceMask> units;
    for (uint32_t w = 0; w < ways_; ++w) {
      const GangEntry& e = entries_[gang_id(set, w)];
      if (e.valid_entry) units.push_back(e.mask);
    }
    for (SliceMask m = independent_[set]; m; m &= m - 1) {
      if (mergeable(set, lowest(m))) units.push_back(SliceMask(1) << lowest(m));
    }
    if (units.size() < 2) continue;  // nothing to compare: the next original gang
    // Units in slice order, so that the pair chosen does not depend on way numbers.
    std::sort(units.begin(), units.end(), [](SliceMask a, SliceMask b) { return lowest(a) < lowest(b); });
    for (size_t i = 0; i < units.size(); ++i) {
      for (size_t j = i + 1; j < units.size(); ++j) {
        const uint32_t pc = pc_of(set, lowest(units[i]));
        if (pc_of(set, lowest(units[j])) != pc) continue;
        const SliceMask merged = units[i] | units[j];
        for (SliceMask u : {units[i], units[j]}) {
          const uint32_t g = member_of_[set * slices_ + lowest(u)];
          if (g != kNoGang) drop_gang(g);
        }
        ++reformations_;
        return make_gang(set, merged, pc);
      }
    }
    return kNoGang;  // this cycle's original gang had no pair at one PC
  }
  return kNoGang;
}

void GangTable::retire(uint32_t set, uint32_t slice) {
  const SliceMask bit = SliceMask(1) << slice;
  if (!(live_[set] & bit)) throw Error(ErrorKind::Internal, "gang table: retire of a warp that is not live");
  live_[set] &= ~bit;
  independent_[set] &= ~bit;
  const uint32_t g = member_of_[set * slices_ + slice];
  if (g == kNoGang) return;
  GangEntry& e = entries_[g];
  member_of_[set * slices_ + slice] = kNoGang;
  e.mask &= ~bit;
  e.ready_mask &= ~bit;
  if (count(e.mask) < 2) {
    const SliceMask rest = e.mask;
    drop_gang(g);
    independent_[set] |= rest;
  }
}

std::string GangTable::check() const {
  std::ostringstream err;
  uint32_t used = 0;
  for (uint32_t set = 0; set < sets_; ++set) {
    SliceMask ganged = 0;
    uint32_t gangs = 0;
    for (uint32_t w = 0; w < ways_; ++w) {
      const uint32_t id = gang_id(set, w);
      const GangEntry& e = entries_[id];
      if (!e.valid_entry) continue;
      ++gangs;
      if (count(e.mask) < 2) err << "gang " << id << " has fewer than 2 members; ";
      if (e.mask & ganged) err << "gang " << id << " shares a slice with another gang of set " << set << "; ";
      if (e.mask & ~live_[set]) err << "gang " << id << " holds a warp that is not live; ";
      for (SliceMask m = e.mask; m; m &= m - 1) {
        if (member_of_[set * slices_ + lowest(m)] != id) err << "slice " << lowest(m) << " of gang " << id << " points elsewhere; ";
      }
      ganged |= e.mask;
    }
    used += gangs;
    if (ganged & independent_[set]) err << "set " << set << ": a warp is both ganged and independent; ";
    if ((ganged | independent_[set]) != live_[set]) err << "set " << set << ": a live warp is neither ganged nor independent; ";
  }
  if (used != in_use_) err << "gangs in use " << in_use_ << " but " << used << " valid entries; ";
  return err.str();
}

}  // namespace simtlm::models::vws
