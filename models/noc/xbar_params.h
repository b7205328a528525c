// Parameters of one direction of the crossbar (DRAMSys-style plain struct).
// The Crossbar module uses one instance for the request network
// (SM/L1 -> L2, ports_in = requesters) and one for the reply network
// (L2 -> SM/L1, ports_in = memory-side ports).
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

namespace simtlm {
class Config;
}

namespace simtlm::models {

struct XbarParams {
  uint32_t ports_in = 1;
  uint32_t ports_out = 1;
  // Cycles from the grant of a packet's last flit to the packet being ready
  // at the output port (>= 1).
  uint32_t latency = 1;
  uint32_t flit_bytes = 32;
  uint32_t header_bytes = 0;         // added to every packet (a read request is the header alone)
  uint32_t flits_per_cycle = 1;      // bandwidth of every input and output port
  uint32_t input_buffer_flits = 8;   // per input port
  uint32_t output_buffer_flits = 8;  // per output port
  // Ideal network: fixed latency, no serialisation, no port conflicts, no
  // buffer limits (every ready packet is granted at once).
  bool ideal = false;
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  // The same network seen from the other side (ports_in <-> ports_out).
  XbarParams reversed() const {
    XbarParams r = *this;
    r.ports_in = ports_out;
    r.ports_out = ports_in;
    return r;
  }
  // Flits of a packet carrying `bytes` of data: ceil((header_bytes + bytes) /
  // flit_bytes), at least 1.
  uint32_t flits_for(uint64_t bytes) const {
    const uint64_t total = header_bytes + bytes;
    return total == 0 ? 1 : static_cast<uint32_t>((total + flit_bytes - 1) / flit_bytes);
  }
  // Cycles a packet of `flits` occupies an input and an output port.
  uint32_t serialization(uint32_t flits) const { return (flits + flits_per_cycle - 1) / flits_per_cycle; }
  // Throws simtlm::Error(Config) naming `who` and the offending field.
  void validate(const std::string& who) const;
};

// The crossbar from gpu.noc.* (xbar_config.cpp) for `requesters` SMs and
// `memory_ports` memory-side ports.
XbarParams xbar_params_from_config(const Config& cfg, unsigned requesters, unsigned memory_ports);

}  // namespace simtlm::models
