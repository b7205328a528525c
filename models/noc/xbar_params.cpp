#include "models/noc/xbar_params.h"

#include "simtlm/error.h"

namespace simtlm::models {

void XbarParams::validate(const std::string& who) const {
  auto bad = [&](const std::string& field, const std::string& why) {
    throw Error(ErrorKind::Config, who + ": " + field + " " + why);
  };
  if (ports_in == 0) bad("ports_in", "must be at least 1");
  if (ports_out == 0) bad("ports_out", "must be at least 1");
  if (ports_in > 65535 || ports_out > 65535) bad("ports", "must be at most 65535");
  if (latency == 0) bad("latency", "must be at least 1 cycle");
  if (flit_bytes == 0) bad("flit_bytes", "must be at least 1");
  if (flits_per_cycle == 0) bad("flits_per_cycle", "must be at least 1");
  if (input_buffer_flits == 0) bad("input_buffer_flits", "must be at least 1");
  if (output_buffer_flits == 0) bad("output_buffer_flits", "must be at least 1");
  if (clock_period == sc_core::SC_ZERO_TIME) bad("clock_period", "must be positive");
}

}  // namespace simtlm::models
