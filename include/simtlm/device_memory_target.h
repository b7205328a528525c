// A TLM-2.0 target onto a Device's global memory, for virtual platforms: bind
// a bus or a CPU model's initiator socket to `socket`, and the platform's
// software reads and writes the simulated GPU's buffers with ordinary bus
// transactions (b_transport, nb_transport_fw, transport_dbg), while it
// allocates, loads modules and launches kernels through the Device API.
//
// Addresses: the device address of a transaction is its payload address plus
// `address_offset` (0: the target sees device addresses, DevicePtr values, as
// a bus decoder that forwards the GPU's window unchanged delivers them). A
// transaction must fall entirely inside one live allocation, as any device
// access must; otherwise it gets TLM_ADDRESS_ERROR_RESPONSE and nothing is
// copied. Byte enables and streaming widths are honoured.
//
// DMI: get_direct_mem_ptr grants read/write access to the whole allocation
// containing the address (its host storage, which does not move), with
// `latency` as the read and write latency; freeing that allocation
// (Device::free) invalidates the grant on the backward path first.
//
// The Device must outlive the target.
//
// Timing: every transaction adds `latency` to its annotated delay (b_transport)
// or returns TLM_COMPLETED with BEGIN_RESP `latency` later (nb_transport_fw);
// it does not contend with the GPU's own memory traffic (device memory is the
// functional backing store, which the timing model's payloads do not carry).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

#include "simtlm/device.h"

namespace simtlm {

class DeviceMemoryTarget final : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  DeviceMemoryTarget(const sc_core::sc_module_name& name, Device& device,
                     const sc_core::sc_time& latency = sc_core::SC_ZERO_TIME, uint64_t address_offset = 0);
  ~DeviceMemoryTarget() override;

  tlm::tlm_target_socket<32> socket;

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t errors() const { return errors_; }

 private:
  // The copy a transaction asks for; false (and no byte copied) when its
  // range is not inside one allocation or its command/attributes are unsupported.
  bool access(tlm::tlm_generic_payload& trans);

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;

  Device& device_;
  sc_core::sc_time latency_;
  uint64_t address_offset_;
  uint64_t release_token_ = 0;  // this target's observer of the device's frees (DMI invalidation)
  uint64_t reads_ = 0;
  uint64_t writes_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace simtlm
