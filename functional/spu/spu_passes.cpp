// Multi-pass SPU launches, shared by both backends (see spu_passes.h).
#include "functional/spu/spu_passes.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "functional/memory.h"
#include "simtlm/error.h"

namespace simtlm::functional::spu {

PassPlan PassPlan::of(uint32_t p, uint32_t gx, uint32_t gy) {
  PassPlan plan;
  plan.p = p;
  plan.gx = gx;
  plan.gy = gy;
  plan.npx = (gx + p - 1) / p;
  plan.npy = (gy + p - 1) / p;
  return plan;
}

uint32_t PassPlan::width(uint32_t px) const { return std::min(p, gx - px * p); }
uint32_t PassPlan::height(uint32_t py) const { return std::min(p, gy - py * p); }

std::vector<uint64_t> PassPlan::cta_order() const {
  std::vector<uint64_t> order;
  order.reserve(uint64_t(gx) * gy);
  for (uint32_t py = 0; py < npy; ++py)
    for (uint32_t px = 0; px < npx; ++px)
      for (uint32_t y = 0; y < height(py); ++y)
        for (uint32_t x = 0; x < width(px); ++x) order.push_back(uint64_t(py * p + y) * gx + px * p + x);
  return order;
}

void place_unit(Unit& u, const PassPlan& plan, uint32_t px, uint32_t py, uint32_t w, uint32_t h) {
  const uint32_t p = plan.p;
  u.pass_x = px;
  u.pass_y = py;
  u.npass_x = plan.npx;
  u.npass_y = plan.npy;
  if (!u.is_iu) {
    u.name = "SM (" + std::to_string(u.x) + "," + std::to_string(u.y) + ")";
    return;
  }
  const bool vertical = u.iu_dir == Dir::North || u.iu_dir == Dir::South;
  u.lane += vertical ? px * p : py * p;
  switch (u.iu_dir) {
    case Dir::North: u.viu = py > 0; break;
    case Dir::West: u.viu = px > 0; break;
    case Dir::South: u.viu = py + 1 < plan.npy; break;
    case Dir::East: u.viu = px + 1 < plan.npx; break;
  }
  if (u.iu_dir == Dir::East && w < p) u.host_sm = int32_t(uint32_t(u.y) * p + w);
  if (u.iu_dir == Dir::South && h < p) u.host_sm = int32_t(h * p + uint32_t(u.x));
  u.name = std::string(u.viu ? "VIU " : "IU ") + dir_name(u.iu_dir) + " " + std::to_string(u.lane);
}

uint64_t unit_cta(const Unit& u, const PassPlan& plan, uint32_t px, uint32_t py) {
  const int32_t x = int32_t(px * plan.p) + u.x, y = int32_t(py * plan.p) + u.y;
  const uint32_t cx = std::min(plan.gx - 1, uint32_t(std::max<int32_t>(0, x)));
  const uint32_t cy = std::min(plan.gy - 1, uint32_t(std::max<int32_t>(0, y)));
  return uint64_t(cy) * plan.gx + cx;
}

size_t physical_iu(const Unit& u, uint32_t p) {
  const bool vertical = u.iu_dir == Dir::North || u.iu_dir == Dir::South;
  return size_t(static_cast<uint8_t>(u.iu_dir)) * p + uint32_t(vertical ? u.x : u.y);
}

SpillSlots::~SpillSlots() {
  for (auto& channel : channels_)
    for (uint64_t a : channel.second.slots) memory_.release(a);
}

VirtualIu make_virtual_iu(Unit& u, uint32_t px, uint32_t py, SpillSlots& spills) {
  const bool vertical = u.iu_dir == Dir::North || u.iu_dir == Dir::South;
  const uint32_t producer =
      vertical ? (u.iu_dir == Dir::North ? py - 1 : py) : (u.iu_dir == Dir::West ? px - 1 : px);
  VirtualIu v;
  v.unit = &u;
  v.channel = &spills.channel(vertical, u.lane, producer);
  v.producer_pass = producer;
  return v;
}

namespace {

Dir link_dir_of(const Unit& iu) {  // the side on which an IU's one link leaves it
  switch (iu.iu_dir) {
    case Dir::North: return Dir::South;
    case Dir::West: return Dir::East;
    case Dir::South: return Dir::North;
    case Dir::East: return Dir::West;
  }
  return Dir::North;
}

}  // namespace

uint32_t viu_move(VirtualIu& v, Fabric& fabric, SpillSlots& spills, bool scoreboard) {
  Unit& u = *v.unit;
  if (u.finished || u.waiting != SyncKind::None) return 0;
  const uint32_t cb = fabric.cb_bytes();
  const Dir dir = link_dir_of(u);
  GlobalMemory& memory = spills.memory();
  SpillChannel& ch = *v.channel;
  if (viu_spills(v)) {
    if (!v.started) return 0;  // released by a completed sync: the face just received
    const uint64_t addr = memory.allocate(cb);
    std::memcpy(memory.translate(addr, cb), fabric.buffer(u, dir), cb);
    ch.slots.push_back(addr);
    v.last_addr = addr;
    ++v.spills;
    return cb;
  }
  if (v.started && !v.blocked) ++v.next;
  v.blocked = false;
  if ((v.next >= ch.slots.size() && ch.closed) || u.partner_done) {
    fabric.finish(u);
    return 0;
  }
  if (v.next >= ch.completed) {  // invariant 12: spill `next` of the producer pass is not done yet
    if (!scoreboard) {
      const bool vertical = u.iu_dir == Dir::North;
      throw Error(ErrorKind::Fault,
                  "SPU spill->restore order violated (invariant 12; spu.spill_scoreboard = false): " + u.name +
                      " of pass (" + std::to_string(u.pass_x) + "," + std::to_string(u.pass_y) + ") restores face " +
                      std::to_string(v.next) + " of " + (vertical ? "column " : "row ") + std::to_string(u.lane) +
                      " before the " + (vertical ? "south" : "east") + " VIU of pass " +
                      (vertical ? "(" + std::to_string(u.pass_x) + "," + std::to_string(v.producer_pass) + ")"
                                : "(" + std::to_string(v.producer_pass) + "," + std::to_string(u.pass_y) + ")") +
                      " has spilled it (" + std::to_string(ch.completed) + " spills complete)");
    }
    v.blocked = true;
    return 0;
  }
  v.last_addr = ch.slots[v.next];
  std::memcpy(fabric.buffer(u, dir), memory.translate(v.last_addr, cb), cb);
  ++v.restores;
  return cb;
}

bool viu_sync(VirtualIu& v, Fabric& fabric) {
  Unit& u = *v.unit;
  if (u.finished) return false;
  if (u.partner_done) return fabric.finish(u);
  v.started = true;
  return fabric.arrive_virtual(u);
}

}  // namespace simtlm::functional::spu
