#include "models/common/payload_pool.h"

#include <typeinfo>

namespace simtlm::models {

PayloadPool::~PayloadPool() = default;

tlm::tlm_generic_payload* PayloadPool::allocate() {
  tlm::tlm_generic_payload* trans = nullptr;
  if (free_.empty()) {
    all_.push_back(std::make_unique<PooledPayload>(this, new MemExtension()));
    trans = all_.back().get();
  } else {
    trans = free_.back();
    free_.pop_back();
    static_cast<PooledPayload*>(trans)->ext->reset();
  }
  trans->set_command(tlm::TLM_IGNORE_COMMAND);
  trans->set_address(0);
  trans->set_data_ptr(nullptr);
  trans->set_data_length(0);
  trans->set_streaming_width(0);
  trans->set_byte_enable_ptr(nullptr);
  trans->set_byte_enable_length(0);
  trans->set_dmi_allowed(false);
  trans->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return trans;
}

void PayloadPool::free(tlm::tlm_generic_payload* trans) {
  trans->reset();  // drops auto extensions only; the MemExtension stays attached
  free_.push_back(trans);
}

bool PayloadPool::owns(const tlm::tlm_generic_payload& trans) const {
  // An exact type check (PooledPayload is final) is much cheaper than a
  // dynamic_cast, and this is asked for every response a cache receives.
  return typeid(trans) == typeid(PooledPayload) && static_cast<const PooledPayload&>(trans).pool == this;
}

}  // namespace simtlm::models
