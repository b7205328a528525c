#include "models/cache/cache.h"

#include <algorithm>

namespace simtlm::models {

const char* to_string(CacheEventKind kind) {
  switch (kind) {
    case CacheEventKind::Hit: return "hit";
    case CacheEventKind::Miss: return "miss";
    case CacheEventKind::SectorMiss: return "sector_miss";
    case CacheEventKind::MshrMerge: return "mshr_merge";
    case CacheEventKind::Fill: return "fill";
    case CacheEventKind::Evict: return "evict";
  }
  return "?";
}

namespace {
const CacheParams& checked(const CacheParams& params, const char* name) {
  params.validate(std::string("cache '") + name + "'");
  return params;
}
}  // namespace

Cache::Cache(const sc_core::sc_module_name& name, const CacheParams& params)
    : ClockedModule(name, checked(params, name).clock_period),
      up_("target_socket", *this),
      down_("initiator_socket", *this),
      target_socket(up_.socket),
      initiator_socket(down_.socket),
      p_(params),
      tags_(params),
      mshrs_(params.mshrs, params.mshr_merge_limit) {}

CacheStats& Cache::stats() {
  cycles_through_now(stats_.busy_cycles, stats_.idle_cycles);
  const uint64_t now = clock().now();
  if (now > 0) credit_blocked_through(now - 1);  // this cycle is counted by its tick
  return stats_;
}

std::string Cache::describe_state() const {
  static const char* const kFail[] = {"MSHRs full", "MSHR merge limit", "no free line", "miss queue full",
                                      "response queue full"};
  std::string s = std::string(name()) + ": " + std::to_string(requests_.size()) + " request(s) waiting for lookup";
  if (lookup_blocked_) s += std::string(" (head blocked: ") + kFail[static_cast<int>(last_fail_)] + ")";
  s += ", " + std::to_string(mshrs_.in_use()) + " MSHR(s) in use, " + std::to_string(outgoing_.size()) +
       " to the next level (port " + (down_.request_ready() ? "free" : "waiting for END_REQ") + "), " +
       std::to_string(from_below_.size()) + " response(s) from below, " + std::to_string(responses_.size()) +
       " to the requester (port " + (up_.response_ready() ? "free" : "waiting for END_RESP") + ")";
  if (up_.held_request() != nullptr) s += ", a request held (END_REQ delayed)";
  return s;
}

// ---------------------------------------------------------------- ports

bool Cache::on_request(unsigned, tlm::tlm_generic_payload& trans) {
  if (requests_.size() >= p_.request_queue) {
    ++stats_.requests_held;
    return false;  // END_REQ waits until the lookup stage drains the queue
  }
  const uint64_t ready = clock().registration_cycle_now();
  requests_.push_back({&trans, ready});
  wake_at(ready);
  return true;
}

void Cache::on_response_done(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

void Cache::on_request_accepted(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

bool Cache::on_response(unsigned, tlm::tlm_generic_payload& trans) {
  const uint64_t ready = clock().registration_cycle_now();
  // Our own fills/writebacks keep the reference taken when they were created;
  // forwarded requester transactions are held by up_ until their response ends.
  from_below_.push_back({&trans, ready});
  wake_at(ready);
  return true;
}

// ---------------------------------------------------------------- clock

uint64_t Cache::tick(uint64_t c) {
  // 1. One response from the next level: the oldest one that can be
  //    processed (an allocate-on-fill fill may have to wait for a frame whose
  //    reservation is released by a later fill, so no strict FIFO here).
  for (auto it = from_below_.begin(); it != from_below_.end() && it->ready <= c; ++it) {
    if (from_below(*it->trans, c)) {
      from_below_.erase(it);
      ++below_done_;
      break;
    }
  }
  // 2. One tag lookup (a blocked one only if something changed).
  if (!requests_.empty() && requests_.front().ready <= c) {
    if (lookup_blocked_) credit_blocked_through(c - 1);
    if (lookup_blocked_ && blocked_key_ == unblock_key()) {
      credit_blocked_through(c);
    } else if (lookup(*requests_.front().trans, c)) {
      requests_.pop_front();
      lookup_blocked_ = false;
    } else {
      lookup_blocked_ = true;
      blocked_key_ = unblock_key();
      blocked_through_ = c;
    }
  }
  // 3. Admit a held request (END_REQ now; it is looked up from the next edge).
  if (up_.held_request() != nullptr && requests_.size() < p_.request_queue) {
    tlm::tlm_generic_payload& t = up_.accept_request();
    requests_.push_back({&t, c + 1});
  }
  // 4. One request to the next level.
  if (!outgoing_.empty() && down_.request_ready()) {
    tlm::tlm_generic_payload* t = outgoing_.front();
    outgoing_.pop_front();
    ++requests_sent_;
    down_.send_request(*t);
  }
  // 5. One response to the requester (data responses may hold the port
  //    several cycles, see data_port_bytes).
  if (!responses_.empty() && responses_.front().ready <= c && response_port_free_ <= c && up_.response_ready()) {
    tlm::tlm_generic_payload* t = responses_.front().trans;
    responses_.pop_front();
    uint64_t hold = 1;
    if (p_.data_port_bytes != 0) {
      const uint64_t bytes = response_data_bytes(*t);
      if (bytes != 0) hold = std::max<uint64_t>(1, (bytes + p_.data_port_bytes - 1) / p_.data_port_bytes);
    }
    response_port_free_ = c + hold;
    ++responses_sent_;
    ++stats_.responses;
    up_.send_response(*t);
  }

  // Next edge with something to do. Waiting on END_REQ/END_RESP needs no
  // tick: the port callbacks wake us.
  uint64_t next = kSleep;
  auto consider = [&](uint64_t ready) { next = std::min(next, std::max(ready, c + 1)); };
  if (!from_below_.empty()) consider(from_below_.front().ready);
  const bool waits_for_change = lookup_blocked_ && blocked_key_ == unblock_key();
  if (!requests_.empty() && !waits_for_change) consider(requests_.front().ready);
  if (up_.held_request() != nullptr && requests_.size() < p_.request_queue) consider(c + 1);
  if (!outgoing_.empty() && down_.request_ready()) consider(c + 1);
  if (!responses_.empty() && up_.response_ready()) {
    consider(std::max(responses_.front().ready, response_port_free_));
  }
  if (next == kSleep && waits_for_change) return kWaitBusy;  // a port callback or an arrival wakes us
  return next;
}

// ---------------------------------------------------------------- lookups

uint64_t Cache::unblock_key() const {
  // Tags, MSHRs, reservations and merge slots change only by what comes from
  // below (the blocked head keeps other lookups out); the queues' room also
  // by what leaves them.
  switch (last_fail_) {
    case Fail::ResponseQueue: return below_done_ + responses_sent_;
    case Fail::MissQueue: return below_done_ + requests_sent_;
    case Fail::Mshr: case Fail::Merge: case Fail::NoLine: break;
  }
  return below_done_;
}

void Cache::credit_blocked_through(uint64_t cycle) {
  if (!lookup_blocked_ || cycle <= blocked_through_) return;
  repeat_fail(cycle - blocked_through_);
  blocked_through_ = cycle;
}

void Cache::repeat_fail(uint64_t cycles) {
  stats_.reservation_fails += cycles;
  switch (last_fail_) {
    case Fail::Mshr: stats_.fail_mshr_full += cycles; break;
    case Fail::Merge: stats_.fail_merge_limit += cycles; break;
    case Fail::NoLine: stats_.fail_no_line += cycles; break;
    case Fail::MissQueue: stats_.fail_miss_queue += cycles; break;
    case Fail::ResponseQueue: stats_.fail_response_queue += cycles; break;
  }
}

bool Cache::fail(Fail why) {
  last_fail_ = why;
  repeat_fail(1);
  return false;
}

void Cache::count_access(const tlm::tlm_generic_payload& trans, const MemExtension* ext) {
  ++stats_.accesses;
  if (ext != nullptr && ext->kind == AccessKind::Atomic) {
    ++stats_.atomics;
  } else if (trans.is_write()) {
    ++stats_.writes;
  } else {
    ++stats_.reads;
  }
}

bool Cache::lookup(tlm::tlm_generic_payload& trans, uint64_t c) {
  const uint64_t line = tags_.line_of(trans.get_address());
  MemExtension* ext = find_mem_ext(trans);
  const uint32_t mask = sector_mask_of(trans, ext, p_.line_bytes, p_.sector_bytes);
  const bool atomic = ext != nullptr && ext->kind == AccessKind::Atomic;
  if (atomic) {
    // Atomics are performed where the data is owned: a write-back cache does
    // them as a read-modify-write, the others pass them on.
    return p_.write_policy == WritePolicy::WriteBack ? read_access(trans, ext, line, mask, true, c)
                                                     : bypass_access(trans, ext, line, c);
  }
  if (trans.is_write()) {
    const bool local = ext != nullptr && ext->space == StateSpace::Local;
    const WritePolicy policy = (local && p_.local_write_back) ? WritePolicy::WriteBack : p_.write_policy;
    return write_access(trans, ext, line, mask, policy, c);
  }
  return read_access(trans, ext, line, mask, false, c);
}

CacheLine* Cache::allocate_line(uint64_t line, int32_t sm, int32_t warp, uint64_t c, bool count_fail,
                                bool evict_first) {
  CacheLine* v = tags_.victim(line);
  if (v == nullptr) {
    if (count_fail) fail(Fail::NoLine);
    return nullptr;
  }
  if (v->allocated && v->dirty != 0 && outgoing_room() < 1) {
    if (count_fail) fail(Fail::MissQueue);
    return nullptr;
  }
  evict(*v, c);
  tags_.install(*v, line, sm, warp);
  if (evict_first) tags_.demote(*v);
  return v;
}

bool Cache::read_access(tlm::tlm_generic_payload& trans, MemExtension* ext, uint64_t line, uint32_t mask,
                        bool atomic, uint64_t c) {
  const int32_t sm = ext ? ext->sm_id : -1;
  const int32_t warp = ext ? ext->warp_id : -1;
  CacheLine* l = tags_.find(line);
  if (l != nullptr && (l->valid & mask) == mask) {
    if (!response_room()) return fail(Fail::ResponseQueue);
    use_line(*l, ext);
    if (atomic) l->dirty |= mask;
    count_access(trans, ext);
    ++stats_.hits;
    if (ext != nullptr) ext->served_level = p_.level;
    notify(CacheEventKind::Hit, line, mask, &trans, l->owner_warp, c);
    respond(trans, c + p_.hit_latency);
    return true;
  }
  if (MshrEntry* m = mshrs_.find(line)) {
    // A fill is outstanding for this line: join it, fetching any sector
    // neither valid nor already requested.
    if (!mshrs_.can_merge(*m)) return fail(Fail::Merge);
    const uint32_t valid = l != nullptr ? l->valid : 0;
    const uint32_t extra = mask & ~valid & ~m->inflight;
    if (extra != 0 && outgoing_room() < 1) return fail(Fail::MissQueue);
    m->waiters.push_back({&trans, mask, atomic});
    if (extra != 0) {
      m->inflight |= extra;
      send_fill(line, extra, ext);
    }
    if (l != nullptr) use_line(*l, ext);
    if (!is_evict_first(ext)) m->evict_first = false;
    count_access(trans, ext);
    ++stats_.mshr_merges;
    notify(CacheEventKind::MshrMerge, line, mask, &trans, l != nullptr ? l->owner_warp : m->owner_warp, c);
    return true;
  }
  if (mshrs_.full()) return fail(Fail::Mshr);
  if (outgoing_room() < 1) return fail(Fail::MissQueue);
  if (l != nullptr) {
    // Sector miss: the line stays, only the missing sectors are fetched.
    const uint32_t missing = mask & ~l->valid;
    MshrEntry& m = mshrs_.allocate(line);
    m.waiters.push_back({&trans, mask, atomic});
    m.inflight = missing;
    m.owner_sm = l->owner_sm;
    m.owner_warp = l->owner_warp;
    l->reserved = true;
    use_line(*l, ext);
    send_fill(line, missing, ext);
    count_access(trans, ext);
    ++stats_.sector_misses;
    notify(CacheEventKind::SectorMiss, line, mask, &trans, l->owner_warp, c);
    return true;
  }
  if (p_.allocate_on == AllocatePolicy::OnMiss) {
    l = allocate_line(line, sm, warp, c, true, is_evict_first(ext));
    if (l == nullptr) return false;
    l->reserved = true;
  }
  MshrEntry& m = mshrs_.allocate(line);
  m.waiters.push_back({&trans, mask, atomic});
  m.inflight = mask;
  m.owner_sm = sm;
  m.owner_warp = warp;
  m.evict_first = is_evict_first(ext);
  send_fill(line, mask, ext);
  count_access(trans, ext);
  ++stats_.misses;
  notify(CacheEventKind::Miss, line, mask, &trans, warp, c);
  return true;
}

bool Cache::write_access(tlm::tlm_generic_payload& trans, const MemExtension* ext, uint64_t line, uint32_t mask,
                         WritePolicy policy, uint64_t c) {
  const int32_t sm = ext ? ext->sm_id : -1;
  const int32_t warp = ext ? ext->warp_id : -1;
  CacheLine* l = tags_.find(line);
  switch (policy) {
    case WritePolicy::WriteEvict: {
      if (outgoing_room() < 1) return fail(Fail::MissQueue);
      count_access(trans, ext);
      // Observers see the store's lookup (before the invalidation it causes).
      notify(l != nullptr ? CacheEventKind::Hit : CacheEventKind::Miss, line, mask, &trans,
             l != nullptr ? l->owner_warp : -1, c);
      if (l != nullptr) {
        ++stats_.write_hits;
        ++stats_.write_invalidations;
        if (l->reserved) {
          l->invalidate_after_fill = true;  // waiters still need the fill
        } else {
          evict(*l, c);
        }
      } else {
        ++stats_.write_misses;
        if (MshrEntry* m = mshrs_.find(line)) m->invalidate_after_fill = true;
      }
      forward(trans);
      return true;
    }
    case WritePolicy::WriteThrough: {
      if (outgoing_room() < 1) return fail(Fail::MissQueue);
      if (l != nullptr) {
        l->valid |= mask;
        use_line(*l, ext);
        ++stats_.write_hits;
        notify(CacheEventKind::Hit, line, mask, &trans, l->owner_warp, c);
      } else if (p_.write_allocate) {
        l = allocate_line(line, sm, warp, c, true, is_evict_first(ext));
        if (l == nullptr) return false;
        l->valid = mask;
        ++stats_.write_misses;
        notify(CacheEventKind::Miss, line, mask, &trans, warp, c);
      } else {
        ++stats_.write_misses;
        notify(CacheEventKind::Miss, line, mask, &trans, -1, c);
      }
      count_access(trans, ext);
      forward(trans);
      return true;
    }
    case WritePolicy::WriteBack: {
      if (l != nullptr) {
        if (!response_room()) return fail(Fail::ResponseQueue);
        l->valid |= mask;
        l->dirty |= mask;
        use_line(*l, ext);
        count_access(trans, ext);
        ++stats_.write_hits;
        notify(CacheEventKind::Hit, line, mask, &trans, l->owner_warp, c);
        respond(trans, c + p_.hit_latency);
        return true;
      }
      if (!p_.write_allocate) {
        if (outgoing_room() < 1) return fail(Fail::MissQueue);
        count_access(trans, ext);
        ++stats_.write_misses;
        notify(CacheEventKind::Miss, line, mask, &trans, -1, c);
        forward(trans);
        return true;
      }
      // Write-allocate without fetch: the written sectors become valid and
      // dirty; the others stay invalid until a read fetches them.
      if (!response_room()) return fail(Fail::ResponseQueue);
      l = allocate_line(line, sm, warp, c, true, is_evict_first(ext));
      if (l == nullptr) return false;
      l->valid = mask;
      l->dirty = mask;
      count_access(trans, ext);
      ++stats_.write_misses;
      notify(CacheEventKind::Miss, line, mask, &trans, warp, c);
      respond(trans, c + p_.hit_latency);
      return true;
    }
  }
  return true;
}

bool Cache::bypass_access(tlm::tlm_generic_payload& trans, const MemExtension* ext, uint64_t line, uint64_t c) {
  if (outgoing_room() < 1) return fail(Fail::MissQueue);
  CacheLine* l = tags_.find(line);
  if (l != nullptr) {
    ++stats_.write_invalidations;
    if (l->reserved) {
      l->invalidate_after_fill = true;
    } else {
      evict(*l, c);
    }
  } else if (MshrEntry* m = mshrs_.find(line)) {
    m->invalidate_after_fill = true;
  }
  count_access(trans, ext);
  forward(trans);
  return true;
}

// ---------------------------------------------------------------- next level

bool Cache::from_below(tlm::tlm_generic_payload& trans, uint64_t c) {
  if (!pool_.owns(trans)) {
    respond(trans, c);  // acknowledgement of a forwarded write/atomic
    return true;
  }
  const MemExtension& ext = mem_ext(trans, name());
  if (ext.kind == AccessKind::Fill && !fill(trans, c)) {
    ++stats_.fill_stalls;
    return false;
  }
  trans.release();  // our reference from send_fill/send_writeback
  return true;
}

bool Cache::fill(tlm::tlm_generic_payload& trans, uint64_t c) {
  const uint64_t line = trans.get_address();
  const MemExtension& fill_ext = mem_ext(trans, name());
  const uint32_t sectors = fill_ext.sector_mask;
  MshrEntry* m = mshrs_.find(line);
  if (m == nullptr) {
    SC_REPORT_ERROR("simtlm/cache", (std::string(name()) + ": fill for a line without an MSHR").c_str());
    return true;
  }
  CacheLine* l = tags_.find(line);
  if (l == nullptr) {
    // Allocate-on-fill (or the line was dropped meanwhile): take a frame now.
    l = allocate_line(line, m->owner_sm, m->owner_warp, c, false, m->evict_first);
    if (l == nullptr) return false;
  }
  l->reserved = true;
  l->valid |= sectors;
  m->inflight &= ~sectors;
  ++stats_.fills;
  stats_.fill_sectors += popcount32(sectors);
  notify(CacheEventKind::Fill, line, sectors, nullptr, l->owner_warp, c);
  // Release every waiter whose sectors are all present, in arrival order.
  auto& waiters = m->waiters;
  size_t kept = 0;
  for (size_t i = 0; i < waiters.size(); ++i) {
    MshrWaiter w = waiters[i];
    if ((w.sectors & ~l->valid) == 0) {
      if (w.atomic) l->dirty |= w.sectors;
      if (MemExtension* we = find_mem_ext(*w.trans)) we->served_level = fill_ext.served_level;
      respond(*w.trans, c);
    } else {
      waiters[kept++] = w;
    }
  }
  waiters.resize(kept);
  if (waiters.empty() && m->inflight == 0) {
    const bool drop = l->invalidate_after_fill || m->invalidate_after_fill;
    mshrs_.release(*m);
    l->reserved = false;
    if (drop) {
      evict(*l, c);
    }
  }
  return true;
}

void Cache::evict(CacheLine& line, uint64_t c) {
  if (!line.allocated) {
    return;
  }
  ++stats_.evictions;
  notify(CacheEventKind::Evict, line.line_addr, line.valid, nullptr, line.owner_warp, c);
  if (line.dirty != 0) {
    send_writeback(line.line_addr, line.dirty, line.owner_sm, line.owner_warp);
  }
  tags_.invalidate(line);
}

void Cache::send_fill(uint64_t line, uint32_t sectors, const MemExtension* requester) {
  tlm::tlm_generic_payload* t = pool_.allocate();
  t->acquire();
  t->set_command(tlm::TLM_READ_COMMAND);
  t->set_address(line);
  t->set_data_length(p_.line_bytes);
  t->set_streaming_width(p_.line_bytes);
  MemExtension& ext = *find_mem_ext(*t);
  ext.served_level = 0;  // the payload is reused: the level below sets it again
  if (requester != nullptr) {
    ext.sm_id = requester->sm_id;
    ext.warp_id = requester->warp_id;
    ext.cta_id = requester->cta_id;
    ext.pc = requester->pc;
    ext.space = requester->space;
    ext.evict_first = requester->evict_first;
  }
  ext.kind = AccessKind::Fill;
  ext.sector_mask = sectors;
  ext.sector_bytes = static_cast<uint16_t>(p_.sector_bytes);
  ext.request_id = next_request_id_++;
  ext.issue_time = sim_time();
  ++stats_.fill_requests;
  outgoing_.push_back(t);
}

void Cache::send_writeback(uint64_t line, uint32_t sectors, int32_t sm, int32_t warp) {
  tlm::tlm_generic_payload* t = pool_.allocate();
  t->acquire();
  t->set_command(tlm::TLM_WRITE_COMMAND);
  t->set_address(line);
  t->set_data_length(p_.line_bytes);
  t->set_streaming_width(p_.line_bytes);
  MemExtension& ext = *find_mem_ext(*t);
  ext.sm_id = sm;
  ext.warp_id = warp;
  ext.kind = AccessKind::Writeback;
  ext.sector_mask = sectors;
  ext.sector_bytes = static_cast<uint16_t>(p_.sector_bytes);
  ext.request_id = next_request_id_++;
  ext.issue_time = sim_time();
  ++stats_.writebacks;
  stats_.writeback_sectors += popcount32(sectors);
  outgoing_.push_back(t);
}

void Cache::forward(tlm::tlm_generic_payload& trans) {
  ++stats_.forwarded;
  outgoing_.push_back(&trans);
}

void Cache::respond(tlm::tlm_generic_payload& trans, uint64_t ready) {
  responses_.insert_ordered({&trans, ready}, [](const Pending& p) { return p.ready; });
  if (up_.response_ready()) {
    wake_at(ready);
  }
}

void Cache::notify(CacheEventKind kind, uint64_t line, uint32_t sectors, const tlm::tlm_generic_payload* trans,
                   int32_t owner_warp, uint64_t cycle) {
  if (observers_.empty()) {
    return;
  }
  CacheEvent ev;
  ev.kind = kind;
  ev.line_addr = line;
  ev.sectors = sectors;
  ev.owner_warp = owner_warp;
  ev.cycle = cycle;
  if (trans != nullptr) {
    if (const MemExtension* ext = trans->get_extension<MemExtension>()) {
      ev.access = ext->kind;
      ev.sm_id = ext->sm_id;
      ev.warp_id = ext->warp_id;
    } else {
      ev.access = trans->is_write() ? AccessKind::Store : AccessKind::Load;
    }
  }
  for (const CacheObserver& obs : observers_) {
    obs(ev);
  }
}

}  // namespace simtlm::models
