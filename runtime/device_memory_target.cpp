#include "simtlm/device_memory_target.h"

#include <algorithm>
#include <cstring>

#include "runtime/device_impl.h"

namespace simtlm {

DeviceMemoryTarget::DeviceMemoryTarget(const sc_core::sc_module_name& name, Device& device,
                                       const sc_core::sc_time& latency, uint64_t address_offset)
    : sc_core::sc_module(name),
      socket("socket"),
      device_(device),
      latency_(latency),
      address_offset_(address_offset) {
  socket.bind(*this);
  // A DMI grant covers one allocation: withdraw it before the allocation goes.
  release_token_ = device_.impl().memory().add_release_observer([this](uint64_t base, uint64_t size) {
    if (base < address_offset_ || size == 0) return;  // never granted: not addressable through this target
    socket->invalidate_direct_mem_ptr(base - address_offset_, base - address_offset_ + size - 1);
  });
}

DeviceMemoryTarget::~DeviceMemoryTarget() { device_.impl().memory().remove_release_observer(release_token_); }

bool DeviceMemoryTarget::access(tlm::tlm_generic_payload& trans) {
  const tlm::tlm_command cmd = trans.get_command();
  const unsigned len = trans.get_data_length();
  if (cmd == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  if (trans.get_data_ptr() == nullptr && len != 0) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  // A streaming width below the length repeats the same `width` bytes.
  const unsigned width = trans.get_streaming_width() == 0 ? len : std::min(trans.get_streaming_width(), len);
  const uint64_t addr = trans.get_address() + address_offset_;
  functional::GlobalMemory& mem = device_.impl().memory();
  uint8_t* dev = len == 0 ? nullptr : mem.translate(addr, width);
  if (len != 0 && (dev == nullptr || addr < trans.get_address())) {  // outside an allocation, or wrapped
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  uint8_t* data = trans.get_data_ptr();
  const uint8_t* be = trans.get_byte_enable_ptr();
  const unsigned be_len = trans.get_byte_enable_length();
  const bool reading = cmd == tlm::TLM_READ_COMMAND;
  if ((be == nullptr || be_len == 0) && width == len) {  // the common case: one plain block
    if (len != 0) std::memcpy(reading ? data : dev, reading ? dev : data, len);
  } else {
    for (unsigned i = 0; i < len; ++i) {
      if (be != nullptr && be_len != 0 && be[i % be_len] != TLM_BYTE_ENABLED) continue;
      uint8_t& d = dev[i % width];
      if (reading) {
        data[i] = d;
      } else {
        d = data[i];
      }
    }
  }
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void DeviceMemoryTarget::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (!access(trans)) {
    ++errors_;
  } else if (trans.is_write()) {
    ++writes_;
  } else if (trans.is_read()) {
    ++reads_;
  }
  delay += latency_;
}

tlm::tlm_sync_enum DeviceMemoryTarget::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                       sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    // END_RESP of a transaction completed on the return path: nothing left to do.
    return tlm::TLM_COMPLETED;
  }
  b_transport(trans, delay);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

unsigned int DeviceMemoryTarget::transport_dbg(tlm::tlm_generic_payload& trans) {
  return access(trans) && trans.get_command() != tlm::TLM_IGNORE_COMMAND ? trans.get_data_length() : 0;
}

bool DeviceMemoryTarget::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address() + address_offset_;
  uint64_t base = 0, size = 0;
  uint8_t* data = nullptr;
  if (addr < trans.get_address() ||
      !device_.impl().memory().allocation_at(addr, base, size, data) || base < address_offset_) {
    // No grant: tell the initiator it may not ask again for this address.
    dmi.allow_none();
    dmi.set_start_address(trans.get_address());
    dmi.set_end_address(trans.get_address());
    return false;
  }
  dmi.set_dmi_ptr(data);
  dmi.set_start_address(base - address_offset_);
  dmi.set_end_address(base - address_offset_ + size - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

}  // namespace simtlm
