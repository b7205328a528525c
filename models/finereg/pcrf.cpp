#include "models/finereg/pcrf.h"

#include <string>

#include "simtlm/error.h"

namespace simtlm::models::finereg {

namespace {

[[noreturn]] void fail(const std::string& what) { throw Error(ErrorKind::Internal, "FineReg PCRF: " + what); }

uint32_t bits_for(uint64_t n) {
  uint32_t b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b;
}

}  // namespace

Pcrf::Pcrf(uint32_t entries, uint32_t cta_slots)
    : tags_(entries), data_(entries), free_map_((entries + 63) / 64, 0), lines_(cta_slots) {}

uint32_t Pcrf::take_free() {
  for (size_t w = 0; w < free_map_.size(); ++w) {
    const uint64_t word = free_map_[w];
    if (word == ~uint64_t{0}) continue;
    const uint32_t e = static_cast<uint32_t>(w * 64 + __builtin_ctzll(~word));
    if (e >= capacity()) break;
    free_map_[w] |= uint64_t{1} << (e % 64);
    ++used_;
    return e;
  }
  fail("no free entry");
}

void Pcrf::store(uint32_t cta, std::vector<PcrfItem> items, uint32_t warps, uint32_t regs) {
  Line& line = lines_.at(cta);
  if (line.present) fail("CTA slot " + std::to_string(cta) + " already has a list");
  if (items.size() > free_entries()) {
    fail("CTA slot " + std::to_string(cta) + " needs " + std::to_string(items.size()) + " entries, " +
         std::to_string(free_entries()) + " free (the RMU must check before moving)");
  }
  std::vector<uint64_t> seen((static_cast<size_t>(warps) * regs + 63) / 64, 0);
  for (const PcrfItem& it : items) {
    if (it.warp >= warps || it.reg >= regs) {
      fail("CTA slot " + std::to_string(cta) + ": warp " + std::to_string(it.warp) + " register " +
           std::to_string(it.reg) + " is outside its shape");
    }
    const size_t k = static_cast<size_t>(it.warp) * regs + it.reg;
    if ((seen[k / 64] >> (k % 64)) & 1u) {
      fail("CTA slot " + std::to_string(cta) + ": warp " + std::to_string(it.warp) + " register " +
           std::to_string(it.reg) + " twice");
    }
    seen[k / 64] |= uint64_t{1} << (k % 64);
  }
  line = Line{true, 0, static_cast<uint32_t>(items.size()), warps, regs};
  uint32_t prev = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const uint32_t e = take_free();
    tags_[e] = Tag{true, false, 0, items[i].warp, items[i].reg};
    data_[e] = std::move(items[i].lanes);
    if (i == 0) {
      line.ptr = e;
    } else {
      tags_[prev].next = e;
    }
    prev = e;
  }
  if (!items.empty()) tags_[prev].end = true;
}

std::vector<PcrfItem> Pcrf::restore(uint32_t cta) {
  Line& line = lines_.at(cta);
  if (!line.present) fail("restore of CTA slot " + std::to_string(cta) + ", which has no list");
  std::vector<PcrfItem> out;
  out.reserve(line.count);
  uint32_t e = line.ptr;
  for (uint32_t i = 0; i < line.count; ++i) {
    Tag& t = tags_[e];
    out.push_back(PcrfItem{t.warp, t.reg, std::move(data_[e])});
    data_[e].clear();
    t.valid = false;
    free_map_[e / 64] &= ~(uint64_t{1} << (e % 64));
    --used_;
    if (t.end) break;
    e = t.next;
  }
  if (out.size() != line.count) fail("CTA slot " + std::to_string(cta) + ": list ended early");
  line = Line{};
  return out;
}

std::vector<uint32_t> Pcrf::chain(uint32_t cta) const {
  std::vector<uint32_t> out;
  const Line& line = lines_.at(cta);
  uint32_t e = line.ptr;
  for (uint32_t i = 0; line.present && i < line.count; ++i) {
    out.push_back(e);
    if (tags_[e].end) break;
    e = tags_[e].next;
  }
  return out;
}

void Pcrf::check() const {
  uint64_t occupied = 0;
  for (uint64_t w : free_map_) occupied += static_cast<uint64_t>(__builtin_popcountll(w));
  uint64_t counted = 0;
  std::vector<int32_t> owner(capacity(), -1);
  for (uint32_t c = 0; c < lines_.size(); ++c) {
    const Line& line = lines_[c];
    if (!line.present) continue;
    counted += line.count;
    std::vector<bool> pairs(static_cast<size_t>(line.warps) * line.regs, false);
    uint32_t e = line.ptr;
    for (uint32_t i = 0; i < line.count; ++i) {
      const std::string at = "CTA slot " + std::to_string(c) + " entry " + std::to_string(e);
      if (e >= capacity()) fail(at + ": pointer out of range");
      const Tag& t = tags_[e];
      if (!t.valid || !((free_map_[e / 64] >> (e % 64)) & 1u)) fail(at + ": not valid / not marked occupied");
      if (owner[e] != -1) fail(at + ": also in the list of CTA slot " + std::to_string(owner[e]));
      owner[e] = static_cast<int32_t>(c);
      if (t.end != (i + 1 == line.count)) fail(at + ": end bit on entry " + std::to_string(i + 1) + " of " +
                                                std::to_string(line.count));
      if (t.warp >= line.warps || t.reg >= line.regs) fail(at + ": warp/register outside the CTA's shape");
      const size_t k = static_cast<size_t>(t.warp) * line.regs + t.reg;
      if (pairs[k]) fail(at + ": (warp, register) repeated");
      pairs[k] = true;
      e = t.next;
    }
  }
  if (counted != occupied || occupied != used_) {
    fail("pointer-table counts sum to " + std::to_string(counted) + " but the free monitor has " +
         std::to_string(occupied) + " occupied entries");
  }
}

uint32_t Pcrf::tag_bits() const { return bits_for(capacity()) + 5 + 6; }

uint64_t Pcrf::pointer_table_bits() const {
  return uint64_t(lines_.size()) * (bits_for(capacity()) + bits_for(uint64_t(capacity()) + 1));
}

}  // namespace simtlm::models::finereg
