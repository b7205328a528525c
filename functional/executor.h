// Per-instruction execution of the functional SIMT engine.
//
//   LaunchContext ctx(request, memory);        // validates + pre-decodes once
//   Cta cta(ctx, linear_cta_id);               // warps, shared/local memory, barriers
//   const ExecRecord& r = execute(cta.warp(i), cta, ctx);
//
// execute() runs the instruction at the warp's pc on its active lanes and
// returns the warp's record of it (class, masks, per-lane addresses, branch
// outcome, barrier/exit state). The timing model calls it at issue; the
// functional backend (run_launch) calls it in a loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/module.h"
#include "functional/decoded.h"
#include "functional/launch.h"
#include "functional/memory.h"
#include "functional/warp.h"

namespace simtlm::functional {

class Cta;

class LaunchContext {
 public:
  // Validates the request (Error(Launch) on a bad kernel, geometry or warp
  // size; Error(Launch) when a used module variable has no device address)
  // and pre-decodes the kernel for request.warp_size.
  LaunchContext(const LaunchRequest& request, GlobalMemory& memory);
  LaunchContext(const LaunchContext&) = delete;
  LaunchContext& operator=(const LaunchContext&) = delete;

  const ir::Module& module() const { return *module_; }
  const ir::Function& kernel() const { return *kernel_; }
  GlobalMemory& memory() const { return *memory_; }

  unsigned warp_size() const { return warp_size_; }
  const Dim3u& grid() const { return grid_; }
  const Dim3u& block() const { return block_; }
  uint64_t num_ctas() const { return num_ctas_; }
  uint32_t threads_per_cta() const { return threads_per_cta_; }
  uint32_t warps_per_cta() const { return warps_per_cta_; }
  uint64_t shared_bytes() const { return shared_bytes_; }   // static + dynamic per CTA
  uint32_t dynamic_shared_bytes() const { return dynamic_shared_bytes_; }
  uint64_t local_bytes() const { return local_bytes_; }     // per thread
  uint32_t num_sms() const { return num_sms_; }
  uint32_t grid_id() const { return grid_id_; }
  const std::vector<uint8_t>& params() const { return params_; }
  Dim3u cta_id(uint64_t linear) const;

  // A launch-wide cycle counter: %clock, %clock64 and %globaltimer read it
  // instead of the CTA's instruction count, unless the CTA has its own
  // (Cta::set_cycle_counter, which the timing model's SMs use: every SM has
  // its own core-cycle count).
  void set_cycle_counter(const uint64_t* cycles) { cycles_ = cycles; }
  const uint64_t* cycle_counter() const { return cycles_; }

  // The launch's printf output (LaunchRequest::printf_buffer; may be null).
  PrintfBuffer* printf_buffer() const { return printf_buffer_; }

  // Decoded program. pc == number of instructions (running off the end) is
  // an implicit exit; any larger pc is clamped to it.
  uint32_t num_instructions() const { return static_cast<uint32_t>(code_.size() - 1); }
  const DecodedInst& decoded(uint32_t pc) const {
    return code_[pc < code_.size() ? pc : code_.size() - 1];
  }
  const uint64_t* pool() const { return pool_.data(); }
  const std::string& error_message(uint32_t index) const { return errors_[index]; }

  // Address of module/function variable `var` in its own state space.
  uint64_t symbol_value(uint32_t var) const;
  // Device address of module .global/.const variable `var`, 0 when unknown.
  uint64_t device_address(uint32_t var) const {
    return var < var_addresses_.size() ? var_addresses_[var] : 0;
  }

 private:
  void decode();
  DecodedInst decode_one(const ir::Instruction& inst);
  uint32_t pool_constant(uint64_t value);
  Src make_src(const ir::Operand& op, const ir::Instruction& inst);
  int32_t make_dst(const ir::Operand& op, const ir::Instruction& inst, uint8_t* bytes);
  AddrOperand make_addr(const ir::Operand& op, const ir::Instruction& inst, ir::StateSpace& space);
  uint32_t add_error(const std::string& message);

  const ir::Module* module_;
  const ir::Function* kernel_;
  GlobalMemory* memory_;
  unsigned warp_size_;
  Dim3u grid_, block_;
  uint64_t num_ctas_ = 0;
  uint32_t threads_per_cta_ = 0;
  uint32_t warps_per_cta_ = 0;
  uint64_t shared_bytes_ = 0;
  uint32_t dynamic_shared_bytes_ = 0;
  uint64_t local_bytes_ = 0;
  uint32_t num_sms_ = 0;
  uint32_t grid_id_ = 0;
  std::vector<uint8_t> params_;
  std::vector<uint64_t> var_addresses_;
  const uint64_t* cycles_ = nullptr;
  PrintfBuffer* printf_buffer_ = nullptr;
  std::vector<DecodedInst> code_;
  std::vector<uint64_t> pool_;
  std::vector<std::string> errors_;
};

// Executes the instruction at warp.pc() (the warp must be able to issue:
// not finished, not waiting). Throws Error(Fault) on a bad memory access
// (nothing written), Error(Ptx) on an unsupported instruction.
const ExecRecord& execute(Warp& warp, Cta& cta, const LaunchContext& ctx);

// "kernel 'k', line 12 `ld.global.u32 %r1, [%rd2];`, CTA (0,0,0), thread (3,0,0)"
std::string describe_lane(const LaunchContext& ctx, const Cta& cta, const Warp& warp,
                          const ir::Instruction* inst, unsigned lane);

}  // namespace simtlm::functional
