// Testbench modules for the memory-side models (used by models_cache,
// models_noc and models_dram):
//   TestInitiator      - scripted traffic generator: sends requests no earlier
//                        than their scheduled time, one BEGIN_REQ at a time
//                        (AT base protocol), and records when each request
//                        was sent, accepted (END_REQ) and answered (BEGIN_RESP).
//   FixedLatencyMemory - unclocked target answering every request exactly
//                        `latency` after it arrives, with an optional limit on
//                        outstanding requests (END_REQ delayed beyond it), and
//                        a log of what it saw.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/at_initiator_port.h"
#include "models/common/at_target_port.h"
#include "models/common/mem_extension.h"
#include "models/common/payload_pool.h"

namespace simtlm::tb {

using models::AccessKind;
using models::MemExtension;

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

struct TbRequest {
  sc_core::sc_time at = sc_core::SC_ZERO_TIME;  // earliest send time
  tlm::tlm_command cmd = tlm::TLM_READ_COMMAND;
  uint64_t addr = 0;
  uint32_t len = 32;
  uint32_t mask = 0;  // sector mask (0: derived from addr/len by the receiver)
  AccessKind kind = AccessKind::Load;
  models::StateSpace space = models::StateSpace::Global;
  int32_t sm = 0;
  int32_t warp = 0;
  bool evict_first = false;  // MemExtension::evict_first (PTX .cs/.lu)
};

struct TbRecord {
  TbRequest req;
  bool sent = false, accepted = false, responded = false;
  sc_core::sc_time sent_at, accepted_at, responded_at;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

class TestInitiator : public sc_core::sc_module, private models::AtInitiatorPort::Listener {
 private:
  models::AtInitiatorPort port_;

 public:
  models::AtInitiatorPort::socket_type& socket;
  std::vector<TbRecord> records;
  std::vector<std::size_t> response_order;  // record indices in the order responses arrived
  sc_core::sc_time response_hold = sc_core::SC_ZERO_TIME;  // END_RESP delay per response

  SC_HAS_PROCESS(TestInitiator);
  explicit TestInitiator(const sc_core::sc_module_name& name)
      : sc_core::sc_module(name), port_("socket", static_cast<Listener&>(*this)), socket(port_.socket) {
    SC_METHOD(pump);
    sensitive << pump_ev_;
    SC_METHOD(release_held);
    sensitive << hold_ev_;
    dont_initialize();
  }

  std::size_t add(const TbRequest& r) {
    TbRecord rec;
    rec.req = r;
    records.push_back(rec);
    if (sc_core::sc_is_running()) pump_ev_.notify(sc_core::SC_ZERO_TIME);
    return records.size() - 1;
  }
  std::size_t read(sc_core::sc_time at, uint64_t addr, uint32_t len = 32, uint32_t mask = 0, int32_t warp = 0) {
    TbRequest r;
    r.at = at;
    r.addr = addr;
    r.len = len;
    r.mask = mask;
    r.warp = warp;
    return add(r);
  }
  std::size_t write(sc_core::sc_time at, uint64_t addr, uint32_t len = 32, uint32_t mask = 0, int32_t warp = 0) {
    TbRequest r;
    r.at = at;
    r.cmd = tlm::TLM_WRITE_COMMAND;
    r.kind = AccessKind::Store;
    r.addr = addr;
    r.len = len;
    r.mask = mask;
    r.warp = warp;
    return add(r);
  }
  bool all_responded() const {
    for (const TbRecord& r : records) {
      if (!r.responded) return false;
    }
    return true;
  }
  const TbRecord& operator[](std::size_t i) const { return records.at(i); }

 private:
  void pump() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (next_ < records.size() && port_.request_ready()) {
      TbRecord& rec = records[next_];
      if (rec.req.at > now) {
        pump_ev_.notify(rec.req.at - now);
        return;
      }
      tlm::tlm_generic_payload* t = pool_.allocate();
      t->acquire();
      t->set_command(rec.req.cmd);
      t->set_address(rec.req.addr);
      t->set_data_length(rec.req.len);
      t->set_streaming_width(rec.req.len);
      MemExtension& ext = *t->get_extension<MemExtension>();
      ext.kind = rec.req.kind;
      ext.space = rec.req.space;
      ext.sector_mask = rec.req.mask;
      ext.sm_id = rec.req.sm;
      ext.warp_id = rec.req.warp;
      ext.evict_first = rec.req.evict_first;
      ext.request_id = next_;
      ext.issue_time = now;
      rec.sent = true;
      rec.sent_at = now;
      ++next_;
      port_.send_request(*t);
      if (port_.request_ready()) {
        rec.accepted = true;  // END_REQ returned at once
        rec.accepted_at = now;
      }
    }
  }
  void on_request_accepted(unsigned, tlm::tlm_generic_payload& trans) override {
    TbRecord& rec = records.at(trans.get_extension<MemExtension>()->request_id);
    rec.accepted = true;
    rec.accepted_at = sc_core::sc_time_stamp();
    pump_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  bool on_response(unsigned, tlm::tlm_generic_payload& trans) override {
    const std::size_t id = trans.get_extension<MemExtension>()->request_id;
    TbRecord& rec = records.at(id);
    rec.responded = true;
    rec.responded_at = sc_core::sc_time_stamp();
    rec.status = trans.get_response_status();
    response_order.push_back(id);
    trans.release();  // our reference; the port keeps one until END_RESP
    if (response_hold == sc_core::SC_ZERO_TIME) return true;
    hold_ev_.notify(response_hold);
    return false;
  }
  void release_held() { port_.accept_response(); }

  models::PayloadPool pool_;
  std::size_t next_ = 0;
  sc_core::sc_event pump_ev_;
  sc_core::sc_event hold_ev_;
};

struct SeenRequest {
  sc_core::sc_time at;  // when the request was accepted (END_REQ)
  uint64_t addr = 0;
  tlm::tlm_command cmd = tlm::TLM_IGNORE_COMMAND;
  AccessKind kind = AccessKind::Load;
  uint32_t mask = 0;
  int32_t sm = -1;
  int32_t warp = -1;
  uint64_t id = 0;  // MemExtension::request_id
};

class FixedLatencyMemory : public sc_core::sc_module, private models::AtTargetPort::Listener {
 private:
  models::AtTargetPort port_;

 public:
  models::AtTargetPort::socket_type& socket;
  std::vector<SeenRequest> seen;
  uint64_t held = 0;  // requests whose END_REQ was delayed
  // END_REQ of every request this long after its BEGIN_REQ (a slow-accepting
  // target whose acceptances do not coincide with responses); zero: at once.
  sc_core::sc_time accept_delay = sc_core::SC_ZERO_TIME;

  SC_HAS_PROCESS(FixedLatencyMemory);
  FixedLatencyMemory(const sc_core::sc_module_name& name, sc_core::sc_time latency,
                     std::size_t max_outstanding = 1u << 20)
      : sc_core::sc_module(name),
        port_("socket", static_cast<Listener&>(*this)),
        socket(port_.socket),
        latency_(latency),
        max_outstanding_(max_outstanding) {
    SC_METHOD(respond);
    sensitive << ev_;
    dont_initialize();
    SC_METHOD(accept_delayed);
    sensitive << accept_ev_;
    dont_initialize();
  }

  std::size_t count(tlm::tlm_command cmd) const {
    std::size_t n = 0;
    for (const SeenRequest& s : seen) n += s.cmd == cmd ? 1 : 0;
    return n;
  }
  std::size_t count(AccessKind kind) const {
    std::size_t n = 0;
    for (const SeenRequest& s : seen) n += s.kind == kind ? 1 : 0;
    return n;
  }

 private:
  struct Pending {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time due;
  };
  bool on_request(unsigned, tlm::tlm_generic_payload& trans) override {
    if (accept_delay != sc_core::SC_ZERO_TIME) {
      accept_ev_.notify(accept_delay);
      return false;
    }
    if (outstanding_ >= max_outstanding_) {
      ++held;
      return false;
    }
    take(trans);
    return true;
  }
  void on_response_done(unsigned, tlm::tlm_generic_payload&) override { ev_.notify(sc_core::SC_ZERO_TIME); }
  void take(tlm::tlm_generic_payload& trans) {
    SeenRequest s;
    s.at = sc_core::sc_time_stamp();
    s.addr = trans.get_address();
    s.cmd = trans.get_command();
    if (const MemExtension* ext = trans.get_extension<MemExtension>()) {
      s.kind = ext->kind;
      s.mask = ext->sector_mask;
      s.sm = ext->sm_id;
      s.warp = ext->warp_id;
      s.id = ext->request_id;
    }
    seen.push_back(s);
    ++outstanding_;
    pending_.push_back({&trans, s.at + latency_});
    if (pending_.size() == 1) ev_.notify(latency_);
  }
  void respond() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!pending_.empty() && pending_.front().due <= now && port_.response_ready()) {
      tlm::tlm_generic_payload* t = pending_.front().trans;
      pending_.pop_front();
      --outstanding_;
      port_.send_response(*t);
      if (port_.held_request() != nullptr && outstanding_ < max_outstanding_) {
        take(port_.accept_request());
      }
    }
    if (!pending_.empty() && pending_.front().due > now) ev_.notify(pending_.front().due - now);
  }

  void accept_delayed() {
    if (port_.held_request() != nullptr) take(port_.accept_request());
  }

  sc_core::sc_time latency_;
  sc_core::sc_event accept_ev_;
  std::size_t max_outstanding_;
  std::size_t outstanding_ = 0;
  std::deque<Pending> pending_;
  sc_core::sc_event ev_;
};

}  // namespace simtlm::tb
