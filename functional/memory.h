// Device global memory: a set of allocations (base, size) over one backing
// store. Every device access is bounds-checked against the allocation it falls
// in, so an out-of-bounds access is reported instead of silently corrupting a
// neighbour. Lookups cache the last allocation hit because consecutive accesses
// almost always fall in the same buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace simtlm::functional {

class GlobalMemory {
 public:
  GlobalMemory();

  // Returns a 256-byte aligned address >= kGlobalBase (functional/launch.h);
  // the memory is zero-filled. A zero-byte allocation gets a unique address of
  // an empty buffer (any access to it faults).
  // Throws Error(Launch) when the live allocations would exceed the capacity.
  uint64_t allocate(uint64_t bytes);
  // The device's capacity (gpu.global_memory_bytes; 0 = only the address
  // space bounds it). Allocations, module variables included, count against it.
  void set_capacity(uint64_t bytes) { capacity_ = bytes; }
  uint64_t capacity() const { return capacity_; }
  // Throws Error(Launch) naming the address when `addr` is not an allocation base.
  void release(uint64_t addr);

  // True when [addr, addr+bytes) lies entirely inside one live allocation.
  bool valid(uint64_t addr, uint64_t bytes) const;
  // Host pointer to [addr, addr+bytes); nullptr when not valid(addr, bytes).
  uint8_t* translate(uint64_t addr, uint64_t bytes);
  const uint8_t* translate(uint64_t addr, uint64_t bytes) const;

  // Host-side copies; throw Error(Launch) naming the range when it is invalid.
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(void* dst, uint64_t addr, uint64_t bytes) const;
  void fill(uint64_t addr, uint8_t value, uint64_t bytes);

  uint64_t bytes_allocated() const { return bytes_live_; }

  // The live allocation containing `addr`: its base, size and host storage
  // (which stays put until the allocation is released). False when none does.
  bool allocation_at(uint64_t addr, uint64_t& base, uint64_t& size, uint8_t*& data);
  // Called with (base, size) whenever an allocation is released, before its
  // storage goes: holders of direct pointers (a TLM target granting DMI) drop
  // them. Returns a token for remove_release_observer (the holder's destructor).
  using ReleaseObserver = std::function<void(uint64_t base, uint64_t size)>;
  uint64_t add_release_observer(ReleaseObserver observer);
  void remove_release_observer(uint64_t token);

 private:
  struct Allocation {
    uint64_t size = 0;
    std::vector<uint8_t> data;
  };
  const Allocation* find(uint64_t addr, uint64_t bytes, uint64_t& base_out) const;

  std::map<uint64_t, Allocation> allocations_;  // base -> allocation
  std::vector<std::pair<uint64_t, ReleaseObserver>> release_observers_;  // (token, observer)
  uint64_t next_observer_token_ = 1;
  uint64_t next_base_;
  uint64_t bytes_live_ = 0;
  uint64_t capacity_ = 0;
  mutable uint64_t last_base_ = 0;
  mutable const Allocation* last_ = nullptr;
};

}  // namespace simtlm::functional
