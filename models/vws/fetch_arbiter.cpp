#include "models/vws/fetch_arbiter.h"

#include <algorithm>

namespace simtlm::models::vws {

FetchArbiter::Grant FetchArbiter::arbitrate(uint32_t gang_requests, SliceMask slice_requests) {
  Grant g;
  g.gang_fetches = std::min(gang_requests, ports_);
  uint32_t left = ports_ - g.gang_fetches;
  const uint32_t start = next_slice_;
  for (uint32_t i = 0; i < slices_ && left > 0; ++i) {
    const uint32_t s = (start + i) % slices_;
    if (!((slice_requests >> s) & 1u)) continue;
    g.slices |= SliceMask(1) << s;
    --left;
    next_slice_ = (s + 1) % slices_;  // the next cycle starts after the last slice served
  }
  return g;
}

}  // namespace simtlm::models::vws
