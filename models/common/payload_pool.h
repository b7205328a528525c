// Pooled memory manager for timing-path payloads (tlm::tlm_mm_interface).
// Every payload handed out already owns one MemExtension; both are reused, so
// steady-state simulation allocates nothing per transaction. The pool grows
// on demand (the high-water mark equals the most transactions ever in flight
// from its owner) and frees everything when destroyed.
//
// Usage: trans = pool.allocate(); trans->acquire(); ...send...; when the
// response has been consumed trans->release() returns it to the pool once the
// last holder has released it.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <tlm>

#include "models/common/mem_extension.h"

namespace simtlm::models {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  // A fresh payload (reference count 0, response status INCOMPLETE, no data
  // pointer) whose MemExtension has default values.
  tlm::tlm_generic_payload* allocate();
  // Called by tlm_generic_payload::release() when the count reaches zero.
  void free(tlm::tlm_generic_payload* trans) override;

  // True when `trans` was handed out by this pool (lets a module tell its own
  // transactions from ones it forwards on behalf of a requester).
  bool owns(const tlm::tlm_generic_payload& trans) const;
  std::size_t created() const { return all_.size(); }
  std::size_t in_use() const { return all_.size() - free_.size(); }

 private:
  std::vector<std::unique_ptr<PooledPayload>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

}  // namespace simtlm::models
