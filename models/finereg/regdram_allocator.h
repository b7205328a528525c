// Reg+DRAM (Oh et al. §VI's Zorua-like comparison; seed note 004 §2.10), the
// register allocator of gpu.sm.regfile.alloc_policy = regdram: Virtual
// Thread (vt_allocator.h) whose stalled CTAs may also send their whole
// register context off chip when the register file is full
// (offchip_context.h: cost, traffic accounting, checking mode).
#pragma once

#include "models/finereg/vt_allocator.h"

namespace simtlm::models::finereg {

class RegDramAllocator : public VtAllocator {
 public:
  explicit RegDramAllocator(const regfile::AllocatorParams& params) : VtAllocator(params, true) {}
};

}  // namespace simtlm::models::finereg
