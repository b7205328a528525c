// The VWS SM's global fetch arbiter for the shared L1 I-cache (seed 002
// §6.2.6, notes §10.6): `ports` fetches per cycle; the gang fetch scheduler
// is served first (it serves the most lanes per fetch), the remaining ports
// go to the per-slice fetch schedulers in a fair round-robin among the
// slices that ask (no slice waits more than slices / ports cycles while it
// asks and no gang fetch takes the ports). Plain data, no SystemC.
#pragma once

#include <cstdint>

#include "models/vws/gang_table.h"

namespace simtlm::models::vws {

class FetchArbiter {
 public:
  FetchArbiter(uint32_t ports, uint32_t slices) : ports_(ports), slices_(slices) {}

  struct Grant {
    uint32_t gang_fetches = 0;  // granted to the gang fetch scheduler
    SliceMask slices = 0;       // slices granted one fetch each
  };
  // One cycle: `gang_requests` fetches the gang fetch scheduler wants,
  // `slice_requests` the slices whose fetch scheduler wants one.
  Grant arbitrate(uint32_t gang_requests, SliceMask slice_requests);

 private:
  uint32_t ports_;
  uint32_t slices_;
  uint32_t next_slice_ = 0;  // round-robin start
};

}  // namespace simtlm::models::vws
