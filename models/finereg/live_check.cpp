#include "models/finereg/live_check.h"

#include <cstdio>
#include <map>
#include <string>

#include "frontend/analysis/regalloc.h"
#include "simtlm/error.h"

namespace simtlm::models::finereg {

namespace {

// Physical register and 32-bit units of virtual register `r`; units 0 when
// it takes no register of the file (predicate, constant bank, unused).
std::pair<uint32_t, uint32_t> placement(const ir::Function& kernel, uint32_t r) {
  const uint32_t p = kernel.analysis.phys_regs.at(r);
  const uint32_t units = frontend::analysis::reg_units(kernel.regs[r]);
  if (units == 0 || p == ir::kNoPhysReg || p == ir::kConstantBank) return {0, 0};
  return {p, units};
}

uint64_t poison_of(const ir::Register& reg) {
  const unsigned bytes = ir::type_size(reg.type);
  return bytes >= 8 || bytes == 0 ? LiveCheck::kPoison : LiveCheck::kPoison & ((uint64_t{1} << (8 * bytes)) - 1);
}

// Live virtual registers of a warp with, for each, the lanes it is live in:
// the lanes resuming at a PC that has it live (effective_pcs). Under divergence two
// registers may share a physical register on different paths (they never
// live at the same point), so a physical register's lanes come from
// different virtual registers.
std::map<uint32_t, uint64_t> live_lanes(const LiveVectorTable& table, const functional::Warp& warp) {
  std::map<uint32_t, uint64_t> out;
  for (const auto& [pc, lanes] : LiveVectorTable::effective_pcs(warp.stack())) {
    for (uint32_t r : table.live_virtual(pc)) out[r] |= lanes;
  }
  return out;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::vector<PcrfItem> live_items(const ir::Function& kernel, const LiveVectorTable& table,
                                 const functional::Warp& warp, uint32_t warp_in_cta, bool with_data) {
  std::map<uint32_t, PcrfItem> by_reg;
  const LiveVector vec = table.of_stack(warp.stack());
  for (uint32_t b = 0; b < kVectorBits; ++b) {
    if ((vec >> b) & 1u) by_reg[b] = PcrfItem{warp_in_cta, b, {}};
  }
  if (with_data) {
    const unsigned lanes = warp.width();
    for (auto& [p, item] : by_reg) item.lanes.assign(lanes, 0);
    std::map<uint32_t, std::pair<uint32_t, uint64_t>> owner;  // physical -> (virtual, lanes) written so far
    for (const auto& [r, mask] : live_lanes(table, warp)) {
      const auto [p, units] = placement(kernel, r);
      const uint64_t* v = warp.reg(r);
      for (uint32_t k = 0; k < units && k < 2; ++k) {
        auto it = by_reg.find(p + k);
        if (it == by_reg.end()) {
          throw Error(ErrorKind::Internal, "FineReg check: kernel '" + kernel.name + "' register " +
                                               kernel.regs[r].name + " is live but its physical register " +
                                               std::to_string(p + k) + " is not in the live vector");
        }
        auto [o, fresh] = owner.emplace(p + k, std::make_pair(r, mask));
        if (!fresh && (o->second.second & mask & warp.live_mask())) {
          throw Error(ErrorKind::Internal, "FineReg check: kernel '" + kernel.name + "' registers " +
                                               kernel.regs[o->second.first].name + " and " + kernel.regs[r].name +
                                               " are live in the same lanes (" +
                                               hex(o->second.second & mask & warp.live_mask()) +
                                               ") of physical register " + std::to_string(p + k) + " at pcs " +
                                               [&] {
                                                 std::string pcs;
                                                 for (const auto& e : warp.stack()) pcs += std::to_string(e.pc) + " ";
                                                 return pcs;
                                               }());
        }
        o->second.second |= mask;
        for (unsigned l = 0; l < lanes; ++l) {
          if ((mask >> l) & 1u) it->second.lanes[l] = static_cast<uint32_t>(v[l] >> (32 * k));
        }
      }
    }
  }
  std::vector<PcrfItem> out;
  out.reserve(by_reg.size());
  for (auto& [p, item] : by_reg) out.push_back(std::move(item));
  return out;
}

void LiveCheck::switch_out(uint32_t slot, const ir::Function& kernel, const LiveVectorTable& table,
                           const std::vector<functional::Warp*>& warps) {
  std::vector<Saved>& saved = saved_.at(slot);
  saved.clear();
  for (size_t i = 0; i < warps.size(); ++i) {
    functional::Warp& w = *warps[i];
    if (w.finished()) continue;
    const unsigned lanes = w.width();
    for (const auto& [r, mask] : live_lanes(table, w)) {
      saved.push_back(Saved{static_cast<uint32_t>(i), r, mask, std::vector<uint64_t>(w.reg(r), w.reg(r) + lanes)});
    }
    for (uint32_t r = 0; r < kernel.regs.size(); ++r) {
      if (placement(kernel, r).second == 0) continue;
      const uint64_t poison = poison_of(kernel.regs[r]);
      uint64_t* v = w.reg(r);
      for (unsigned l = 0; l < lanes; ++l) v[l] = poison;
    }
  }
}

void LiveCheck::switch_in(uint32_t slot, uint64_t cta_id, const ir::Function& kernel,
                          const std::vector<functional::Warp*>& warps, const std::vector<PcrfItem>& items) {
  // Index the PCRF's items by (warp, physical register).
  std::map<std::pair<uint32_t, uint32_t>, const PcrfItem*> by_key;
  for (const PcrfItem& it : items) by_key[{it.warp, it.reg}] = &it;
  std::vector<Saved>& saved = saved_.at(slot);
  for (const Saved& s : saved) {
    functional::Warp& w = *warps.at(s.warp);
    const auto [p, units] = placement(kernel, s.reg);
    uint64_t* v = w.reg(s.reg);
    const unsigned lanes = w.width();
    for (uint32_t k = 0; k < units && k < 2; ++k) {
      auto it = by_key.find({s.warp, p + k});
      if (it == by_key.end() || it->second->lanes.size() != lanes) continue;  // stays poisoned: caught below
      for (unsigned l = 0; l < lanes; ++l) {
        if (!((s.lanes_live >> l) & 1u)) continue;  // another register's lane of this physical register
        const uint64_t part = uint64_t(it->second->lanes[l]) << (32 * k);
        const uint64_t mask = uint64_t{0xFFFFFFFFu} << (32 * k);
        v[l] = (v[l] & ~mask) | part;
      }
    }
    if (units == 1) {
      // A 32-bit (or narrower) register: the upper half is zero by the
      // functional model's convention; the PCRF moves 32 bits.
      for (unsigned l = 0; l < lanes; ++l) {
        if ((s.lanes_live >> l) & 1u) v[l] &= 0xFFFFFFFFu;
      }
    }
  }
  for (const Saved& s : saved) {
    const uint64_t* v = warps.at(s.warp)->reg(s.reg);
    // The register file holds 32 bits per unit: a lane of a 32-bit register
    // that its thread never wrote may hold anything above them.
    const uint64_t mask = placement(kernel, s.reg).second >= 2 ? ~uint64_t{0} : 0xFFFFFFFFull;
    for (size_t l = 0; l < s.lanes.size(); ++l) {
      if (((s.lanes_live >> l) & 1u) && (v[l] & mask) != (s.lanes[l] & mask)) {
        throw Error(ErrorKind::Internal, "FineReg check: CTA " + std::to_string(cta_id) + " (slot " +
                                             std::to_string(slot) + ") warp " + std::to_string(s.warp) +
                                             " register " + kernel.regs[s.reg].name + " lane " + std::to_string(l) +
                                             ": restored " + hex(v[l]) + ", saved " + hex(s.lanes[l]));
      }
    }
    ++checked_;
  }
  saved.clear();
}

}  // namespace simtlm::models::finereg
