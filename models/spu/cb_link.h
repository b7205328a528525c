// The communication buffers (CBs) of one directed SPU link (Rajasree §5.2.1,
// seed note 003 §1.3; docs/spu.md): a pair of CBs between a producer (the
// unit west or north of the link) and its consumer, as one clocked TLM target
// with two sockets. The producer's LD/ST unit is bound to producer_socket()
// (its `cb_south`/`cb_east` memory space), the consumer's to
// consumer_socket() (`cb_north`/`cb_west`). The thesis models a CB "exactly
// like the shared memory": pure multi-banked SRAM, so an access takes the
// shared memory's latency, and each side has its own port (the producer only
// writes buf[wsel], the consumer only reads the other buffer, so the two never
// compete). A transaction is one warp access to one 128-byte row of the 32
// four-byte banks (the LD/ST unit sends one per row a warp touches), taking
// the side's port for one cycle: accesses spread over several rows serialise
// like bank conflicts. Timing payloads carry no data: the functional model
// (functional/spu/spu_fabric.h) reads and writes the buffers at issue, and
// swaps them at bar.blocksync. Counts reads and writes (the thesis's CB_ACC).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/common/at_target_port.h"
#include "models/common/clock_domain.h"
#include "simtlm/stats.h"

namespace simtlm::models::spu {

struct CbParams {
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
  uint32_t latency = 26;  // core cycles from the access to its response (the SM's shared-memory latency)
};

class CbLink final : public ClockedModule, private AtTargetPort::Listener {
 public:
  CbLink(const sc_core::sc_module_name& name, const CbParams& params);

  AtTargetPort::socket_type& producer_socket() { return producer_.socket; }
  AtTargetPort::socket_type& consumer_socket() { return consumer_.socket; }
  const CbParams& params() const { return p_; }

  uint64_t writes() const { return writes_; }
  uint64_t reads() const { return reads_; }
  // A DMA interface unit (models/spu/dma_iu.h) reaches its CB directly, not
  // through an LD/ST unit's socket: its bank-row accesses count here
  // (writes on the producer side, reads on the consumer side).
  void count_direct(bool write, uint64_t rows) { (write ? writes_ : reads_) += rows; }
  // <g>.writes, .reads (transactions) and .accesses (their sum).
  void register_stats(const stats::Group& g);

 private:
  static constexpr unsigned kProducer = 0, kConsumer = 1;
  struct Side {
    std::deque<std::pair<tlm::tlm_generic_payload*, uint64_t>> responses;  // payload, cycle it is due
    uint64_t port_free = 0;                                                // first cycle the port is free
  };

  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  void on_response_done(unsigned port, tlm::tlm_generic_payload& trans) override;
  uint64_t tick(uint64_t cycle) override;
  AtTargetPort& port(unsigned side) { return side == kProducer ? producer_ : consumer_; }

  CbParams p_;
  AtTargetPort producer_;
  AtTargetPort consumer_;
  Side sides_[2];
  uint64_t writes_ = 0;
  uint64_t reads_ = 0;
};

// Target for the CB memory-space ports of an interface unit that has no link
// in that direction (an IU has only the link into the grid). The functional
// model refuses such an access before it is timed, so a request here is
// Error(Internal).
class CbNoLink final : public sc_core::sc_module, private AtTargetPort::Listener {
 public:
  // `ports` sockets, one per unused CB port.
  CbNoLink(const sc_core::sc_module_name& name, unsigned ports);
  AtTargetPort::socket_type& socket(unsigned i) { return ports_.at(i)->socket; }

 private:
  bool on_request(unsigned port, tlm::tlm_generic_payload& trans) override;
  std::vector<std::unique_ptr<AtTargetPort>> ports_;
};

}  // namespace simtlm::models::spu
