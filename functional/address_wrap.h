// The 32-bit wrap of `[%r32 + imm]` addresses in the 32-bit windows (shared,
// local, param; AddrOperand::wrap32). The memory paths compute 64-bit sums
// and call these only when a sum is out of bounds, so the in-bounds path does
// no extra work; out of line and cold for the same reason.
#pragma once

#include <cstdint>

namespace simtlm::functional::detail {

// Reduces the executing lanes' addresses to 32 bits and recomputes their
// range [lo, hi]. Alignment is unchanged by the wrap.
void wrap_to_32_bits(uint64_t exec, uint64_t* addrs, uint64_t& lo, uint64_t& hi);

// The lanes of `bad` whose 32-bit address is at most `limit` and has none of
// the bits of `reject` (alignment) get it; returns the lanes still bad.
uint64_t wrap_bad_lanes_to_32_bits(uint64_t bad, uint64_t* addrs, uint64_t limit, uint64_t reject);

}  // namespace simtlm::functional::detail
