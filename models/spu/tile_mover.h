// The engine that moves one communication-buffer face between a CB and global
// memory for a virtual interface unit (Rajasree §2.2.2, note §1.7: a VIU
// spills the face its sync released to "a pre-allocated region in the global
// memory" and restores it into the CB of the consumer pass). One per physical
// interface unit, on its own crossbar port. The runtime's VIU code does not
// depend on the program (Alg. 2), so it is modelled as what it does: a
// contiguous transfer, an FSM without instruction fetch (the shape of the
// thesis's DMA engine, Table 7.1), not as PTX on the IU's pipeline.
//
// A transfer of `bytes` (spu.cb_bytes) is bytes / 128 transactions of one
// 128-byte line each (all four 32-byte sectors), sent one per core cycle as
// the crossbar accepts them: writes for a spill, reads for a restore. It ends
// when every response is back; the CB side adds its access latency
// (gpu.sm.smem.latency: a CB is timed like shared memory) once, before a
// spill's first write (reading the CB) and after a restore's last read
// (writing it). Timing payloads carry no data: the functional model moved the
// face when the transfer started (functional/spu/spu_passes.h).
#pragma once

#include <cstdint>
#include <functional>

#include "models/common/at_initiator_port.h"
#include "models/common/clock_domain.h"
#include "models/common/payload_pool.h"
#include "simtlm/stats.h"

namespace simtlm::models::spu {

class TileMover final : public ClockedModule, private AtInitiatorPort::Listener {
 public:
  // `node`: the MemExtension::sm_id of its transactions; `cb_latency`: core
  // cycles of the CB access.
  TileMover(const sc_core::sc_module_name& name, const sc_core::sc_time& period, int32_t node, uint32_t cb_latency);

  AtInitiatorPort::socket_type& socket() { return port_.socket; }
  bool busy() const { return busy_; }
  // Starts moving `bytes` (a multiple of 128) at global address `addr`:
  // to memory (`to_memory`, a spill) or from it (a restore); `done` runs at
  // the cycle the transfer ends. Requires !busy().
  void start(uint64_t addr, uint32_t bytes, bool to_memory, std::function<void()> done);
  // A DMA IU's transfer: the bytes of `spans`, in order, line by line.
  struct Span {
    uint64_t addr;
    uint32_t bytes;
  };
  void start_spans(const std::vector<Span>& spans, bool to_memory, std::function<void()> done);

  // <g>.viu_transfers, .viu_transactions, .viu_transfer_cycles.
  void register_stats(const stats::Group& g);
  // <g>.dma_transfers, .dma_transactions, .dma_transfer_cycles (spu.iu.kind = dma only).
  void register_dma_stats(const stats::Group& g);

 private:
  void begin(bool to_memory, bool dma, std::function<void()> done);
  uint64_t tick(uint64_t cycle) override;
  void on_request_accepted(unsigned port, tlm::tlm_generic_payload& trans) override;
  bool on_response(unsigned port, tlm::tlm_generic_payload& trans) override;

  AtInitiatorPort port_;
  PayloadPool pool_;
  int32_t node_;
  uint32_t cb_latency_;
  // The transfer in progress.
  bool busy_ = false;
  bool to_memory_ = false;
  bool dma_ = false;
  std::vector<std::pair<uint64_t, uint32_t>> lines_;  // (line address, sector mask), in order
  size_t next_line_ = 0;
  uint32_t outstanding_ = 0;
  uint64_t send_from_ = 0;  // first cycle a request may go out
  uint64_t ends_at_ = 0;    // restore: cycle the CB write ends (after the last response)
  uint64_t started_at_ = 0;
  std::function<void()> done_;
  // Statistics.
  uint64_t transfers_ = 0, transactions_ = 0, cycles_ = 0;
  uint64_t dma_transfers_ = 0, dma_transactions_ = 0, dma_cycles_ = 0;
};

}  // namespace simtlm::models::spu
