// One DRAM channel: controller + banks, behind a TLM target socket.
//
//   target_socket        <- L2 slice (port 0)
//   target_socket_at(i)  <- further L2 sub-partitions sharing the channel
//
// With several ports, held requests enter the shared queue round-robin and
// each response goes back through the port its request came in on.
//
// With frontend_latency > 0 an accepted request first crosses a fixed-latency
// front-end pipeline (at most frontend_latency requests in it; END_REQ is
// delayed while it is full) and enters the queue when its latency has passed
// and the queue has room: requests in flight in the front end do not occupy
// scheduler queue entries (GPGPU-Sim's DRAM latency queue).
// Requests wait in a bounded queue (END_REQ is delayed while it is full). Each
// DRAM cycle the scheduler issues at most one command (ACT, PRE, RD, WR) on
// the command bus, obeying the bank, bank-group and channel timing
// constraints of DramTiming, with an open-row policy. A request moves
// ceil(bytes / burst_bytes) bursts (bytes = sectors * sector_bytes when the
// MemExtension has a sector mask); each burst is one column command and holds
// the data bus for burst_cycles(). The response is sent at the edge where the
// last burst's data ends (+ backend_latency). Refresh is not modelled.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/at_target_port.h"
#include "models/common/clock_domain.h"
#include "models/common/fifo.h"
#include "models/common/mem_extension.h"
#include "models/dram/dram_address.h"
#include "models/dram/dram_params.h"
#include "simtlm/stats.h"

namespace simtlm::models {

struct DramStats {
  uint64_t reads = 0;             // read requests completed
  uint64_t writes = 0;            // write requests completed
  uint64_t read_bursts = 0;
  uint64_t write_bursts = 0;
  uint64_t activates = 0;
  uint64_t precharges = 0;
  uint64_t row_hits = 0;          // requests served from the row open when they arrived
  uint64_t row_misses = 0;        // needed an ACT on a closed bank
  uint64_t row_conflicts = 0;     // needed a PRE of another row, then an ACT
  uint64_t bus_busy_cycles = 0;   // data-bus cycles carrying data
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t requests_held = 0;     // END_REQ delayed: queue full
  uint64_t return_queue_stalls = 0;  // cycles column commands waited for the return queue
  uint64_t read_latency_cycles = 0;  // sum over reads of (response cycle - registration cycle)
  uint64_t busy_cycles = 0;       // controller had work (see ClockedModule)
  uint64_t idle_cycles = 0;
};

class DramChannel : public ClockedModule, private AtTargetPort::Listener {
 private:
  std::vector<std::unique_ptr<AtTargetPort>> up_;

 public:
  using Params = DramParams;
  using Stats = DramStats;
  DramChannel(const sc_core::sc_module_name& name, const DramParams& params, unsigned ports = 1);

  AtTargetPort::socket_type& target_socket;  // port 0
  AtTargetPort::socket_type& target_socket_at(unsigned i) { return up_.at(i)->socket; }
  unsigned ports() const { return static_cast<unsigned>(up_.size()); }

  const DramParams& params() const { return p_; }
  const DramAddressMap& address_map() const { return map_; }
  // Live counters; busy_cycles/idle_cycles are brought up to date by each call.
  DramStats& stats();
  // Registers the channel's counters and row hit rate under `g` (gpu.dram[c]).
  void register_stats(const stats::Group& g);
  std::size_t queued() const { return queue_.size(); }
  std::size_t in_frontend() const { return frontend_.size(); }

 private:
  using Cycle = int64_t;
  static constexpr Cycle kNever = -(static_cast<Cycle>(1) << 40);

  struct Request {
    tlm::tlm_generic_payload* trans = nullptr;
    unsigned port = 0;
    DramAddress addr;
    bool write = false;
    uint32_t bursts = 1;
    uint32_t issued = 0;          // column commands issued
    uint64_t ready = 0;           // first cycle it may be scheduled
    uint64_t arrival = 0;         // registration cycle (latency statistics)
    bool needed_act = false;
    bool conflict = false;
  };
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    Cycle next_act = 0;
    Cycle next_col = 0;
    Cycle next_pre = 0;
  };
  struct Group {
    Cycle next_col = 0;     // tCCDL
    Cycle next_pre = 0;     // tRTPL
    Cycle write_end = kNever;  // end of the last write data in this group (tWTR)
  };
  struct InFlight {  // in the front-end pipeline
    tlm::tlm_generic_payload* trans;
    unsigned port;
    uint64_t arrival;  // registration cycle
    uint64_t due;      // first cycle it may enter the queue
  };
  struct Response {
    tlm::tlm_generic_payload* trans;
    uint64_t due;
    unsigned port;
  };

  uint64_t tick(uint64_t cycle) override;
  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) override;
  // A request registered at `arrival` enters the front end (or the queue
  // directly without a front-end latency); false if there is no room.
  bool admit(unsigned port, tlm::tlm_generic_payload& trans, uint64_t arrival);
  void enqueue(unsigned port, tlm::tlm_generic_payload& trans, uint64_t arrival, uint64_t ready);
  bool return_queue_full() const {
    return p_.return_queue_size != 0 && responses_.size() >= p_.return_queue_size;
  }

  // Scheduling: issue at most one command; `next` gets the earliest future
  // cycle at which a blocked candidate becomes legal.
  bool schedule(uint64_t cycle, Cycle& next);
  Cycle earliest_column(const Request& r) const;
  Cycle earliest_activate(uint32_t bank) const;
  Cycle earliest_precharge(uint32_t bank) const;
  bool row_hit_pending(uint32_t bank, uint64_t row, uint64_t cycle) const;
  void activate(uint32_t bank, uint64_t row, Cycle c);
  void precharge(uint32_t bank, Cycle c);
  void column(std::size_t index, Cycle c);

  DramParams p_;
  DramAddressMap map_;
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  Cycle next_act_any_ = 0;    // tRRD
  Cycle next_col_any_ = 0;    // tCCD
  Cycle bus_free_ = 0;        // first cycle the data bus is free
  Cycle read_end_ = kNever;   // end of the last read data (tRTW)
  Cycle write_end_ = kNever;  // end of the last write data (tCDLR)
  Fifo<InFlight> frontend_;  // front-end pipeline, due order
  Fifo<Request> queue_;      // arrival order
  Fifo<Response> responses_; // ordered by due cycle
  unsigned admit_rr_ = 0;          // port admitted last (round-robin)
  DramStats stats_;
};

}  // namespace simtlm::models
