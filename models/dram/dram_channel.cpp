#include "models/dram/dram_channel.h"

#include <algorithm>
#include <limits>
#include <string>

#include "simtlm/error.h"

namespace simtlm::models {

namespace {
const DramParams& checked(const DramParams& params, const char* name, unsigned ports) {
  params.validate(std::string("dram channel '") + name + "'");
  if (ports == 0 || ports > 64) {
    throw Error(ErrorKind::Config, std::string("dram channel '") + name + "': ports must be 1..64");
  }
  return params;
}

std::vector<std::unique_ptr<AtTargetPort>> make_ports(AtTargetPort::Listener& listener, unsigned ports) {
  std::vector<std::unique_ptr<AtTargetPort>> v;
  for (unsigned i = 0; i < ports; ++i) {
    const std::string name = i == 0 ? "target_socket" : "target_socket_" + std::to_string(i);
    v.push_back(std::make_unique<AtTargetPort>(name, listener, i));
  }
  return v;
}
}  // namespace

DramChannel::DramChannel(const sc_core::sc_module_name& name, const DramParams& params, unsigned ports)
    : ClockedModule(name, checked(params, name, ports).clock_period),
      up_(make_ports(*this, ports)),
      target_socket(up_[0]->socket),
      p_(params),
      map_(params),
      banks_(params.banks),
      groups_(params.bank_groups) {}

DramStats& DramChannel::stats() {
  cycles_through_now(stats_.busy_cycles, stats_.idle_cycles);
  return stats_;
}

// ---------------------------------------------------------------- port

void DramChannel::enqueue(unsigned port, tlm::tlm_generic_payload& trans, uint64_t arrival, uint64_t ready) {
  Request r;
  r.trans = &trans;
  r.port = port;
  r.addr = map_.decode(trans.get_address());
  r.write = trans.is_write();
  const uint64_t bytes = transfer_bytes(trans);
  const uint64_t burst = p_.burst_bytes();
  r.bursts = static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + burst - 1) / burst));
  r.arrival = arrival;
  r.ready = ready;
  queue_.push_back(r);
}

bool DramChannel::admit(unsigned port, tlm::tlm_generic_payload& trans, uint64_t arrival) {
  if (p_.frontend_latency == 0) {
    if (queue_.size() >= p_.queue_size) return false;
    enqueue(port, trans, arrival, arrival);
    wake_at(arrival);
    return true;
  }
  if (frontend_.size() >= p_.frontend_latency) return false;
  const uint64_t due = arrival + p_.frontend_latency;
  frontend_.push_back(InFlight{&trans, port, arrival, due});
  wake_at(due);
  return true;
}

bool DramChannel::on_request(unsigned port, tlm::tlm_generic_payload& trans) {
  if (!admit(port, trans, clock().registration_cycle_now())) {
    ++stats_.requests_held;
    return false;
  }
  admit_rr_ = port;  // the other ports go first when the queue next frees up
  return true;
}

void DramChannel::on_response_done(unsigned, tlm::tlm_generic_payload&) { wake_next(); }

// ---------------------------------------------------------------- timing checks

DramChannel::Cycle DramChannel::earliest_column(const Request& r) const {
  const DramTiming& t = p_.timing;
  const Bank& b = banks_[r.addr.bank];
  const Group& g = groups_[r.addr.bank_group];
  Cycle e = std::max({b.next_col, g.next_col, next_col_any_});
  if (r.write) {
    e = std::max({e, bus_free_ - static_cast<Cycle>(t.tWL), read_end_ + t.tRTW - static_cast<Cycle>(t.tWL)});
  } else {
    e = std::max({e, bus_free_ - static_cast<Cycle>(t.tCL), g.write_end + t.tWTR, write_end_ + t.tCDLR});
  }
  return e;
}

DramChannel::Cycle DramChannel::earliest_activate(uint32_t bank) const {
  return std::max(banks_[bank].next_act, next_act_any_);
}

DramChannel::Cycle DramChannel::earliest_precharge(uint32_t bank) const {
  return std::max(banks_[bank].next_pre, groups_[bank % p_.bank_groups].next_pre);
}

bool DramChannel::row_hit_pending(uint32_t bank, uint64_t row, uint64_t cycle) const {
  for (const Request& r : queue_) {
    if (r.ready > cycle) break;
    if (r.addr.bank == bank && r.addr.row == row) return true;
  }
  return false;
}

// ---------------------------------------------------------------- commands

void DramChannel::activate(uint32_t bank, uint64_t row, Cycle c) {
  const DramTiming& t = p_.timing;
  Bank& b = banks_[bank];
  b.open = true;
  b.row = row;
  b.next_col = c + t.tRCD;
  b.next_pre = std::max(b.next_pre, c + static_cast<Cycle>(t.tRAS));
  b.next_act = c + t.tRC;
  next_act_any_ = c + t.tRRD;
  ++stats_.activates;
  for (Request& r : queue_) {
    if (r.addr.bank == bank && r.addr.row == row && r.issued == 0) r.needed_act = true;
  }
}

void DramChannel::precharge(uint32_t bank, Cycle c) {
  Bank& b = banks_[bank];
  for (Request& r : queue_) {
    if (r.addr.bank == bank && r.addr.row != b.row && r.issued == 0) r.conflict = true;
  }
  b.open = false;
  b.next_act = std::max(b.next_act, c + static_cast<Cycle>(p_.timing.tRP));
  ++stats_.precharges;
}

void DramChannel::column(std::size_t index, Cycle c) {
  const DramTiming& t = p_.timing;
  Request& r = queue_[index];
  Bank& b = banks_[r.addr.bank];
  Group& g = groups_[r.addr.bank_group];
  const Cycle burst = p_.burst_cycles();
  Cycle data_end;
  if (r.write) {
    data_end = c + t.tWL + burst;
    write_end_ = data_end;
    g.write_end = data_end;
    b.next_pre = std::max(b.next_pre, data_end + static_cast<Cycle>(t.tWR));
    ++stats_.write_bursts;
  } else {
    data_end = c + t.tCL + burst;
    read_end_ = data_end;
    b.next_pre = std::max(b.next_pre, c + static_cast<Cycle>(t.tRTP));
    g.next_pre = std::max(g.next_pre, c + static_cast<Cycle>(t.tRTPL));
    ++stats_.read_bursts;
  }
  bus_free_ = data_end;
  g.next_col = c + t.tCCDL;
  next_col_any_ = c + t.tCCD;
  stats_.bus_busy_cycles += static_cast<uint64_t>(burst);

  if (r.issued == 0) {
    if (!r.needed_act) {
      ++stats_.row_hits;
    } else if (r.conflict) {
      ++stats_.row_conflicts;
    } else {
      ++stats_.row_misses;
    }
  }
  if (++r.issued < r.bursts) {
    return;
  }
  // Last burst: the request leaves the queue; its response goes out when the
  // data has been transferred.
  const uint64_t due = static_cast<uint64_t>(data_end) + p_.backend_latency;
  const uint64_t bytes = static_cast<uint64_t>(r.bursts) * p_.burst_bytes();
  if (r.write) {
    ++stats_.writes;
    stats_.bytes_written += bytes;
  } else {
    ++stats_.reads;
    stats_.bytes_read += bytes;
    stats_.read_latency_cycles += due - r.arrival;
  }
  responses_.insert_ordered(Response{r.trans, due, r.port}, [](const Response& x) { return x.due; });
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
}

// ---------------------------------------------------------------- scheduler

bool DramChannel::schedule(uint64_t cycle, Cycle& next) {
  const Cycle c = static_cast<Cycle>(cycle);
  const bool fcfs = p_.scheduler == DramScheduler::Fcfs;
  // Pass 1: column commands to open rows (row hits), oldest first; none while
  // the return queue is full.
  const bool columns_allowed = !return_queue_full();
  if (!columns_allowed && !queue_.empty()) ++stats_.return_queue_stalls;
  for (std::size_t i = 0; columns_allowed && i < queue_.size(); ++i) {
    const Request& r = queue_[i];
    if (r.ready > cycle) {
      next = std::min(next, static_cast<Cycle>(r.ready));
      break;
    }
    const Bank& b = banks_[r.addr.bank];
    if (b.open && b.row == r.addr.row) {
      const Cycle e = earliest_column(r);
      if (e <= c) {
        column(i, c);
        return true;
      }
      next = std::min(next, e);
    }
    if (fcfs) break;
  }
  // Pass 2: row commands for the oldest requests whose row is not open.
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const Request& r = queue_[i];
    if (r.ready > cycle) break;
    const Bank& b = banks_[r.addr.bank];
    if (!b.open) {
      const Cycle e = earliest_activate(r.addr.bank);
      if (e <= c) {
        activate(r.addr.bank, r.addr.row, c);
        return true;
      }
      next = std::min(next, e);
    } else if (b.row != r.addr.row) {
      // Open-row policy: never close a row that queued requests still hit
      // (under FCFS the oldest request decides alone).
      if (fcfs || !row_hit_pending(r.addr.bank, b.row, cycle)) {
        const Cycle e = earliest_precharge(r.addr.bank);
        if (e <= c) {
          precharge(r.addr.bank, c);
          return true;
        }
        next = std::min(next, e);
      }
    }
    if (fcfs) break;
  }
  // Pass 3 (close-page policy): precharge open rows no queued request hits.
  if (p_.page_policy == PagePolicy::Close) {
    for (uint32_t bank = 0; bank < banks_.size(); ++bank) {
      const Bank& b = banks_[bank];
      if (!b.open || row_hit_pending(bank, b.row, cycle)) continue;
      const Cycle e = earliest_precharge(bank);
      if (e <= c) {
        precharge(bank, c);
        return true;
      }
      next = std::min(next, e);
    }
  }
  return false;
}

uint64_t DramChannel::tick(uint64_t c) {
  Cycle next = std::numeric_limits<Cycle>::max();
  // Front end -> queue: requests whose latency has passed, while there is room.
  while (!frontend_.empty() && frontend_.front().due <= c && queue_.size() < p_.queue_size) {
    const InFlight f = frontend_.front();
    frontend_.pop_front();
    enqueue(f.port, *f.trans, f.arrival, c);
  }
  const bool columns_blocked = return_queue_full();
  const bool issued = schedule(c, next);
  // Admit held requests where there is room, round-robin over the ports.
  const unsigned n = static_cast<unsigned>(up_.size());
  for (unsigned k = 1; k <= n; ++k) {
    const unsigned i = (admit_rr_ + k) % n;
    tlm::tlm_generic_payload* held = up_[i]->held_request();
    if (held != nullptr && admit(i, *held, c + 1)) {
      up_[i]->accept_request();
      admit_rr_ = i;
    }
  }
  // Responses whose data has been transferred: one per port per cycle.
  uint64_t ports_used = 0;
  for (auto it = responses_.begin(); it != responses_.end() && it->due <= c;) {
    const uint64_t bit = 1ull << it->port;
    if ((ports_used & bit) == 0 && up_[it->port]->response_ready()) {
      tlm::tlm_generic_payload* t = it->trans;
      ports_used |= bit;
      const unsigned port = it->port;
      it = responses_.erase(it);
      up_[port]->send_response(*t);
    } else {
      ++it;
    }
  }

  uint64_t wake = kSleep;
  auto consider = [&](uint64_t at) { wake = std::min(wake, std::max(at, c + 1)); };
  if (issued) consider(c + 1);
  // Column commands were held back by a full return queue that has drained
  // in this tick: schedule again next cycle.
  if (columns_blocked && !queue_.empty() && !return_queue_full()) consider(c + 1);
  if (next != std::numeric_limits<Cycle>::max()) consider(static_cast<uint64_t>(std::max<Cycle>(next, 0)));
  const bool room = p_.frontend_latency == 0 ? queue_.size() < p_.queue_size
                                              : frontend_.size() < p_.frontend_latency;
  for (unsigned i = 0; i < n && room; ++i) {
    if (up_[i]->held_request() != nullptr) consider(c + 1);
  }
  // The front end's head enters the queue when due (a full queue frees an
  // entry only when a command issues, which wakes the channel anyway).
  if (!frontend_.empty() && queue_.size() < p_.queue_size) consider(frontend_.front().due);
  for (const Response& r : responses_) {
    if (up_[r.port]->response_ready()) {
      consider(r.due);
      break;  // ordered by due: the first sendable one is the earliest
    }
  }
  return wake;
}

}  // namespace simtlm::models
