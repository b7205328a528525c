// The one TLM extension carried by every memory transaction of the timing
// model. Payloads carry address, length, command and this extension; data
// never travels in them (the functional model owns all values), so data_ptr
// may be null everywhere on the timing path.
#pragma once

#include <cstdint>
#include <typeinfo>

#include <systemc>
#include <tlm>

namespace simtlm::models {

// PTX state space of the access that caused the transaction.
// Extra: an extra memory space of the SM (its own port; models/sm/ldst_unit.h).
enum class StateSpace : uint8_t { Global, Local, Shared, Const, Tex, Param, Generic, Extra };

// Why the transaction exists. Requesters use Load/Store/Atomic/InstFetch;
// caches create Fill (fetch of missing sectors) and Writeback (dirty sectors
// on eviction) transactions toward the next level.
enum class AccessKind : uint8_t { Load, Store, Atomic, InstFetch, Fill, Writeback };

const char* to_string(StateSpace space);
const char* to_string(AccessKind kind);

struct MemExtension : tlm::tlm_extension<MemExtension> {
  static constexpr unsigned kMaxRouteDepth = 4;

  int32_t sm_id = -1;
  int32_t warp_id = -1;
  int32_t cta_id = -1;
  uint64_t pc = 0;
  StateSpace space = StateSpace::Global;
  AccessKind kind = AccessKind::Load;
  // Bit i = sector i of the line containing the payload address (sector_bytes
  // each). 0 means "derive from address and length".
  uint32_t sector_mask = 0;
  uint16_t sector_bytes = 32;
  uint64_t request_id = 0;
  sc_core::sc_time issue_time = sc_core::SC_ZERO_TIME;
  // Streaming data (PTX ld.cs/ld.lu/st.cs): a cache that allocates a line for
  // it puts the line first in eviction order and a hit does not promote it.
  bool evict_first = false;
  // The cache level that supplied a read's data (CacheParams::level: 1 = L1D,
  // 2 = L2), 0 when none did (memory). A cache sets it on a hit and, when a
  // fill releases the reads waiting in its MSHR, copies the fill's to them.
  uint8_t served_level = 0;

  // Source routing for interconnects: a switch pushes the input port a request
  // came from and pops it to send the response back. Owned by the modules in
  // the path; requesters leave it alone.
  uint8_t route_depth = 0;
  uint16_t route[kMaxRouteDepth] = {};

  void reset() { *this = MemExtension(); }

  void route_push(uint16_t port);
  uint16_t route_top() const;
  uint16_t route_pop();

  tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemExtension&>(other);
  }
};

// The payload class of PayloadPool: it keeps a pointer to the MemExtension
// attached when it was created (which stays attached for its whole life), so
// the hot paths find the extension with a type check instead of the TLM
// library's out-of-line lookup (about 2 % of a memory-bound run).
class PooledPayload final : public tlm::tlm_generic_payload {
 public:
  PooledPayload(tlm::tlm_mm_interface* mm, MemExtension* extension)
      : tlm::tlm_generic_payload(mm), pool(mm), ext(extension) {
    set_extension(extension);
  }
  const tlm::tlm_mm_interface* const pool;  // the pool it returns to
  MemExtension* const ext;
};

// nullptr when the payload has no MemExtension.
// (GCC's -Warray-bounds sees the downcast inlined where the object is known
// to be a plain payload, in the branch the type check rules out.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
inline MemExtension* find_mem_ext(tlm::tlm_generic_payload& trans) {
  if (typeid(trans) == typeid(PooledPayload)) return static_cast<PooledPayload&>(trans).ext;
  return trans.get_extension<MemExtension>();
}
#pragma GCC diagnostic pop

// Reports an SC_ERROR (naming `who`) and throws: the payload has no MemExtension.
[[noreturn]] void missing_mem_ext(const tlm::tlm_generic_payload& trans, const char* who);

// The payload's extension; reports an SC_ERROR (naming `who`) when missing.
inline MemExtension& mem_ext(tlm::tlm_generic_payload& trans, const char* who) {
  MemExtension* ext = find_mem_ext(trans);
  if (ext == nullptr) missing_mem_ext(trans, who);
  return *ext;
}

// Sector mask covered by [addr, addr+len) inside the line of `addr`
// (bytes past the end of that line are ignored).
uint32_t sector_mask_of(uint64_t addr, uint32_t len, uint32_t line_bytes, uint32_t sector_bytes);
// Sector mask of a transaction: the extension's mask if set, else derived.
uint32_t sector_mask_of(const tlm::tlm_generic_payload& trans, const MemExtension* ext, uint32_t line_bytes,
                        uint32_t sector_bytes);
// Bytes that move for this transaction: popcount(mask) * sector_bytes when the
// extension has a mask, else the payload data length.
uint64_t transfer_bytes(tlm::tlm_generic_payload& trans);
inline unsigned popcount32(uint32_t v) { return static_cast<unsigned>(__builtin_popcount(v)); }

// transfer_bytes() when the request carries data toward memory (stores,
// atomics, writebacks) / when the response carries data back (reads,
// atomics), else 0; one extension lookup (hot path of every link and port).
uint64_t request_data_bytes(tlm::tlm_generic_payload& trans);
uint64_t response_data_bytes(tlm::tlm_generic_payload& trans);

}  // namespace simtlm::models
