// Device global memory (see memory.h). Allocations are handed out from a
// monotonically growing address range starting at kGlobalBase, each rounded up
// to 256 bytes and followed by a 256-byte unmapped guard gap, so a small
// overrun past the end of one buffer faults instead of landing in the next one
// and a freed address is never handed out again (a stale pointer faults).
#include "functional/memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "functional/launch.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace {

constexpr uint64_t kAlign = 256;
constexpr uint64_t kGuard = 256;
// Global allocations must stay below the generic-address windows.
constexpr uint64_t kGlobalLimit = std::min(kLocalWindowBase, kSharedWindowBase);

std::string hex(uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string range_text(uint64_t addr, uint64_t bytes) {
  return "[" + hex(addr) + ", " + hex(addr + bytes) + ") (" + std::to_string(bytes) + " bytes)";
}

}  // namespace

GlobalMemory::GlobalMemory() : next_base_(kGlobalBase) {}

uint64_t GlobalMemory::allocate(uint64_t bytes) {
  // Reserve at least one alignment unit so every allocation has a unique base.
  uint64_t reserved = (std::max<uint64_t>(bytes, 1) + kAlign - 1) / kAlign * kAlign;
  if (bytes > kGlobalLimit || reserved + kGuard > kGlobalLimit - next_base_)
    throw Error(ErrorKind::Launch, "device malloc of " + std::to_string(bytes) +
                                       " bytes: out of device address space");
  if (capacity_ != 0 && bytes > capacity_ - std::min(bytes_live_, capacity_)) {
    throw Error(ErrorKind::Launch, "device malloc of " + std::to_string(bytes) + " bytes: " +
                                       std::to_string(bytes_live_) + " bytes are allocated already and the device "
                                       "holds gpu.global_memory_bytes = " + std::to_string(capacity_));
  }
  Allocation alloc;
  alloc.size = bytes;
  try {
    alloc.data.assign(bytes, 0);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::Launch, "device malloc of " + std::to_string(bytes) +
                                       " bytes: host out of memory");
  }
  uint64_t base = next_base_;
  next_base_ += reserved + kGuard;
  allocations_.emplace(base, std::move(alloc));
  bytes_live_ += bytes;
  return base;
}

void GlobalMemory::release(uint64_t addr) {
  auto it = allocations_.find(addr);
  if (it == allocations_.end()) {
    std::string msg = "device free of " + hex(addr) + ": not the base of a live allocation";
    auto after = allocations_.upper_bound(addr);
    if (after != allocations_.begin() &&
        addr - std::prev(after)->first < std::prev(after)->second.size) {
      auto inside = std::prev(after);
      msg += " (it lies inside the allocation " + range_text(inside->first, inside->second.size) +
             "; free takes the base address)";
    } else if (addr >= kGlobalBase && addr < next_base_ && addr % kAlign == 0) {
      msg += " (already freed?)";
    }
    throw Error(ErrorKind::Launch, msg);
  }
  for (const auto& [token, observer] : release_observers_) observer(it->first, it->second.size);
  if (last_ == &it->second) {
    last_ = nullptr;
    last_base_ = 0;
  }
  bytes_live_ -= it->second.size;
  allocations_.erase(it);
}

const GlobalMemory::Allocation* GlobalMemory::find(uint64_t addr, uint64_t bytes,
                                                   uint64_t& base_out) const {
  auto fits = [&](uint64_t base, const Allocation& a) {
    // Written to avoid overflow for addresses near 2^64.
    if (addr < base) return false;
    uint64_t off = addr - base;
    if (bytes == 0) return off < a.size;
    return off < a.size && bytes <= a.size - off;
  };
  if (last_ && fits(last_base_, *last_)) {
    base_out = last_base_;
    return last_;
  }
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  if (!fits(it->first, it->second)) return nullptr;
  last_base_ = it->first;
  last_ = &it->second;
  base_out = it->first;
  return last_;
}

uint64_t GlobalMemory::add_release_observer(ReleaseObserver observer) {
  release_observers_.emplace_back(next_observer_token_, std::move(observer));
  return next_observer_token_++;
}

void GlobalMemory::remove_release_observer(uint64_t token) {
  release_observers_.erase(std::remove_if(release_observers_.begin(), release_observers_.end(),
                                          [&](const auto& entry) { return entry.first == token; }),
                           release_observers_.end());
}

bool GlobalMemory::allocation_at(uint64_t addr, uint64_t& base, uint64_t& size, uint8_t*& data) {
  const Allocation* a = find(addr, 0, base);
  if (a == nullptr) return false;
  size = a->size;
  data = const_cast<uint8_t*>(a->data.data());  // owned by this non-const object, as in translate()
  return true;
}

bool GlobalMemory::valid(uint64_t addr, uint64_t bytes) const {
  uint64_t base = 0;
  return find(addr, bytes, base) != nullptr;
}

uint8_t* GlobalMemory::translate(uint64_t addr, uint64_t bytes) {
  uint64_t base = 0;
  const Allocation* a = find(addr, bytes, base);
  if (!a) return nullptr;
  // The allocation is owned by this (non-const) object; find() is const only
  // so that the const overload can share it.
  return const_cast<uint8_t*>(a->data.data()) + (addr - base);
}

const uint8_t* GlobalMemory::translate(uint64_t addr, uint64_t bytes) const {
  uint64_t base = 0;
  const Allocation* a = find(addr, bytes, base);
  return a ? a->data.data() + (addr - base) : nullptr;
}

namespace {

// The Error(Launch) for an invalid host copy. Names the allocation the range
// starts in (if any) so the user sees by how much it overruns. A template so
// it can take the private allocation map without naming its element type.
template <typename AllocationMap>
[[noreturn]] void throw_bad_copy(const char* what, uint64_t addr, uint64_t bytes,
                                 const AllocationMap& allocations) {
  std::string msg = std::string(what) + ": device range " + range_text(addr, bytes);
  auto it = allocations.upper_bound(addr);
  if (it != allocations.begin() && addr - std::prev(it)->first < std::prev(it)->second.size) {
    --it;
    msg += " overruns the allocation " + range_text(it->first, it->second.size);
  } else {
    msg += " is not inside any live allocation";
  }
  throw Error(ErrorKind::Launch, msg);
}

}  // namespace

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = translate(addr, bytes);
  if (!p) throw_bad_copy("copy to device", addr, bytes, allocations_);
  std::memcpy(p, src, bytes);
}

void GlobalMemory::read(void* dst, uint64_t addr, uint64_t bytes) const {
  if (bytes == 0) return;
  const uint8_t* p = translate(addr, bytes);
  if (!p) throw_bad_copy("copy to host", addr, bytes, allocations_);
  std::memcpy(dst, p, bytes);
}

void GlobalMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = translate(addr, bytes);
  if (!p) throw_bad_copy("memset", addr, bytes, allocations_);
  std::memset(p, value, bytes);
}

}  // namespace simtlm::functional
