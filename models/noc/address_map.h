// Address -> destination port functions for interconnects (which L2
// sub-partition / memory channel owns an address). A plain std::function so
// platforms can plug in any mapping.
#pragma once

#include <cstdint>
#include <functional>

namespace simtlm::models {

using AddressMap = std::function<unsigned(uint64_t addr)>;

// port = (addr / granule_bytes) % ports: consecutive granules (e.g. 128-byte
// lines or 256-byte chunks) rotate over the ports.
AddressMap linear_interleave(unsigned ports, uint64_t granule_bytes);

// XOR hash: the granule number is split into fields of ceil(log2(ports))
// bits that are XOR-folded together, then taken modulo ports. With a power of
// two ports every granule of an aligned group of `ports` granules still goes
// to a different port, but power-of-two strides no longer all hit one port.
AddressMap xor_interleave(unsigned ports, uint64_t granule_bytes);

}  // namespace simtlm::models
