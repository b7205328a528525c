#include "models/noc/address_map.h"

#include "simtlm/error.h"

namespace simtlm::models {

namespace {
void check(unsigned ports, uint64_t granule_bytes) {
  if (ports == 0) throw Error(ErrorKind::Config, "address map: ports must be at least 1");
  if (granule_bytes == 0) throw Error(ErrorKind::Config, "address map: granule_bytes must be at least 1");
}
}  // namespace

AddressMap linear_interleave(unsigned ports, uint64_t granule_bytes) {
  check(ports, granule_bytes);
  return [ports, granule_bytes](uint64_t addr) { return static_cast<unsigned>((addr / granule_bytes) % ports); };
}

AddressMap xor_interleave(unsigned ports, uint64_t granule_bytes) {
  check(ports, granule_bytes);
  unsigned bits = 0;
  while ((1ull << bits) < ports) {
    ++bits;
  }
  if (bits == 0) {
    return [](uint64_t) { return 0u; };
  }
  const uint64_t field = (1ull << bits) - 1;
  return [ports, granule_bytes, bits, field](uint64_t addr) {
    uint64_t v = addr / granule_bytes;
    uint64_t h = 0;
    while (v != 0) {
      h ^= v & field;
      v >>= bits;
    }
    return static_cast<unsigned>(h % ports);
  };
}

}  // namespace simtlm::models
