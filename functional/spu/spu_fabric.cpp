// SPU units, links and rendezvous (see spu_fabric.h).
#include "functional/spu/spu_fabric.h"

#include <sstream>

#include "functional/cta.h"
#include "functional/executor.h"

namespace simtlm::functional::spu {

const char* dir_name(Dir dir) {
  static const char* const kNames[] = {"north", "west", "south", "east"};
  return kNames[static_cast<uint8_t>(dir)];
}

const char* sync_name(SyncKind kind) {
  switch (kind) {
    case SyncKind::None: return "(none)";
    case SyncKind::Global: return "bar.blocksync";
    case SyncKind::North: return "bar.blocksync.north";
    case SyncKind::West: return "bar.blocksync.west";
    case SyncKind::South: return "bar.blocksync.south";
    case SyncKind::East: return "bar.blocksync.east";
  }
  return "?";
}

Fabric::Fabric(uint32_t gx, uint32_t gy, uint32_t cb_bytes) : gx_(gx), gy_(gy), cb_bytes_(cb_bytes) {
  units_.reserve(size_t(gx) * gy + 2 * (size_t(gx) + gy));  // Ctas point at units: no reallocation
  for (uint32_t y = 0; y < gy; ++y)
    for (uint32_t x = 0; x < gx; ++x) add_unit(false, Dir::North, 0, int32_t(x), int32_t(y));
  const auto X = static_cast<int32_t>(gx), Y = static_cast<int32_t>(gy);
  for (int32_t x = 0; x < X; ++x) add_unit(true, Dir::North, uint32_t(x), x, -1);
  for (int32_t y = 0; y < Y; ++y) add_unit(true, Dir::West, uint32_t(y), -1, y);
  for (int32_t x = 0; x < X; ++x) add_unit(true, Dir::South, uint32_t(x), x, Y);
  for (int32_t y = 0; y < Y; ++y) add_unit(true, Dir::East, uint32_t(y), X, y);
  for (int32_t x = 0; x < X; ++x)
    for (int32_t y = 0; y <= Y; ++y) add_link(unit_at(x, y - 1), unit_at(x, y), Dir::South, Dir::North);
  for (int32_t y = 0; y < Y; ++y)
    for (int32_t x = 0; x <= X; ++x) add_link(unit_at(x - 1, y), unit_at(x, y), Dir::East, Dir::West);
  unfinished_ = static_cast<uint32_t>(units_.size());
}

void Fabric::add_unit(bool is_iu, Dir dir, uint32_t lane, int32_t x, int32_t y) {
  Unit u;
  u.fabric = this;
  u.is_iu = is_iu;
  u.iu_dir = dir;
  u.lane = lane;
  u.x = x;
  u.y = y;
  u.name = is_iu ? "IU " + std::string(dir_name(dir)) + " " + std::to_string(lane)
                 : "SM (" + std::to_string(x) + "," + std::to_string(y) + ")";
  units_.push_back(std::move(u));
}

int32_t Fabric::unit_at(int32_t x, int32_t y) const {
  const auto X = static_cast<int32_t>(gx_), Y = static_cast<int32_t>(gy_);
  const bool in_x = x >= 0 && x < X, in_y = y >= 0 && y < Y;
  if (in_x && in_y) return y * X + x;
  const int32_t sms = X * Y;
  if (in_x && y == -1) return sms + x;
  if (in_y && x == -1) return sms + X + y;
  if (in_x && y == Y) return sms + X + Y + x;
  if (in_y && x == X) return sms + 2 * X + Y + y;
  return -1;  // a corner or outside
}

void Fabric::add_link(int32_t producer, int32_t consumer, Dir out, Dir in) {
  const auto index = static_cast<int32_t>(links_.size());
  Link l;
  l.producer = producer;
  l.consumer = consumer;
  l.data.assign(2 * size_t(cb_bytes_), 0);
  links_.push_back(std::move(l));
  units_[size_t(producer)].link[static_cast<uint8_t>(out)] = index;
  units_[size_t(consumer)].link[static_cast<uint8_t>(in)] = index;
}

uint8_t* Fabric::buffer(const Unit& unit, Dir dir) {
  const int32_t index = unit.link[static_cast<uint8_t>(dir)];
  if (index < 0) return nullptr;
  Link& l = links_[size_t(index)];
  const unsigned which = is_incoming(dir) ? (l.wsel ^ 1u) : l.wsel;
  return l.data.data() + size_t(which) * cb_bytes_;
}

bool Fabric::poll(Unit& unit) {
  if (unit.finished || unit.waiting != SyncKind::None || unit.warp_kind == SyncKind::None) return false;
  for (const Warp& w : unit.cta->warps())
    if (!w.finished() && !(w.waiting() && w.barrier_id() == Cta::kExternalBarrier)) return false;
  const SyncKind kind = unit.warp_kind;
  unit.warp_kind = SyncKind::None;
  return arrive(unit, kind);
}

bool Fabric::arrive(Unit& unit, SyncKind kind) {
  unit.waiting = kind;
  if (unit.waiting == SyncKind::Global) {
    ++at_global_;
    return try_global();
  }
  const Dir dir = sync_dir(unit.waiting);
  Link& l = links_[size_t(unit.link[static_cast<uint8_t>(dir)])];  // checked when the warps arrived
  (is_incoming(dir) ? l.consumer_waiting : l.producer_waiting) = true;
  if (!l.consumer_waiting || !l.producer_waiting) return false;
  l.wsel ^= 1u;
  ++l.swaps;
  l.consumer_waiting = l.producer_waiting = false;
  release(units_[size_t(l.producer)]);
  release(units_[size_t(l.consumer)]);
  return true;
}

bool Fabric::arrive_virtual(Unit& unit) {
  int32_t index = -1;
  for (int d = 0; d < 4; ++d)
    if (unit.link[d] >= 0) index = d;
  const Dir dir = static_cast<Dir>(index);  // an IU has exactly one link
  unit.viu_at_global = true;
  ++at_global_;
  if (arrive(unit, static_cast<SyncKind>(uint8_t(dir) + 2))) return true;
  return try_global();
}

bool Fabric::finish(Unit& unit) {
  if (unit.finished) return false;
  unit.finished = true;
  --unfinished_;
  withdraw_virtual_partners(unit);
  return try_global();
}

// A virtual IU's loop ends when its partner's CTA exits ($reglast, note §1.7
// Alg. 2 and §7.15): it leaves whatever rendezvous it waits at, before a
// global barrier the partner's exit may complete, so it never spills or
// restores after its partner's last synchronisation. One already released
// by that last synchronisation still spills what it received
// (Unit::partner_done; the driver then ends it).
void Fabric::withdraw_virtual_partners(const Unit& unit) {
  for (int32_t index : unit.link) {
    if (index < 0) continue;
    Link& l = links_[size_t(index)];
    Unit& v = units_[size_t(l.producer == int32_t(&unit - units_.data()) ? l.consumer : l.producer)];
    if (!v.viu || v.finished) continue;
    if (v.waiting == SyncKind::None) {  // released, its spill or restore still to do: the driver ends it
      v.partner_done = true;
      continue;
    }
    if (v.viu_at_global) --at_global_;
    v.viu_at_global = false;
    if (v.waiting != SyncKind::None) (l.producer == int32_t(&v - units_.data()) ? l.producer_waiting : l.consumer_waiting) = false;
    v.waiting = SyncKind::None;
    v.finished = true;
    --unfinished_;
  }
}

bool Fabric::try_global() {
  if (at_global_ == 0 || at_global_ != unfinished_) return false;
  for (Link& l : links_) {
    l.wsel ^= 1u;
    ++l.swaps;
  }
  for (Unit& u : units_) {
    if (u.viu_at_global) {  // released by the barrier: no longer at its rendezvous
      Link& l = links_[size_t(u.link[static_cast<uint8_t>(sync_dir(u.waiting))])];
      (is_incoming(sync_dir(u.waiting)) ? l.consumer_waiting : l.producer_waiting) = false;
      u.viu_at_global = false;
      u.waiting = SyncKind::None;
    }
    if (u.waiting == SyncKind::Global) release(u);
  }
  at_global_ = 0;
  return true;
}

void Fabric::release(Unit& unit) {
  if (unit.viu_at_global) {  // released by its rendezvous: no longer at the global barrier
    unit.viu_at_global = false;
    --at_global_;
  }
  if (unit.cta)
    for (Warp& w : unit.cta->warps())
    if (w.waiting() && w.barrier_id() == Cta::kExternalBarrier) w.clear_waiting();
  unit.waiting = SyncKind::None;
}

std::string Fabric::describe_waiting(const LaunchContext& ctx) const {
  std::ostringstream os;
  for (const Unit& u : units_) {
    if (u.finished) continue;
    os << "\n  " << u.name;
    if (u.cta) {
      const Dim3u& c = u.cta->id();
      os << " (CTA (" << c.x << "," << c.y << "," << c.z << ")) ";
    } else {
      os << " (" << (u.dma ? "DMA IU" : is_incoming(u.iu_dir) ? "restoring virtual IU" : "spilling virtual IU")
         << ") ";
    }
    if (u.waiting == SyncKind::Global) {
      os << "waits at bar.blocksync (global; " << at_global_ << " of " << unfinished_ << " active units arrived)";
    } else if (u.waiting != SyncKind::None) {
      const Dir dir = sync_dir(u.waiting);
      const Link& l = links_[size_t(u.link[static_cast<uint8_t>(dir)])];
      const Unit& partner = units_[size_t(is_incoming(dir) ? l.producer : l.consumer)];
      os << "waits at " << sync_name(u.waiting) << " for " << partner.name << ", which ";
      if (partner.finished) os << "has finished";
      else if (partner.waiting != SyncKind::None) os << "waits at " << sync_name(partner.waiting);
      else os << "has not arrived";
    } else if (u.warp_kind != SyncKind::None) {
      os << "has warps at " << sync_name(u.warp_kind) << " (line " << u.warp_line << ") while others cannot reach it:"
         << u.cta->describe_waiting(ctx);
    } else if (!u.cta) {
      os << "has nothing left to do";
    } else {
      os << "cannot make progress:" << u.cta->describe_waiting(ctx);
    }
  }
  return os.str();
}

}  // namespace simtlm::functional::spu
