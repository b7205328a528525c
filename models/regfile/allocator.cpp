#include "models/regfile/allocator.h"

#include "models/finereg/finereg_allocator.h"
#include "models/finereg/regdram_allocator.h"
#include "models/finereg/vt_allocator.h"
#include "models/regfile/sharing_allocator.h"
#include "simtlm/error.h"

namespace simtlm::models::regfile {

namespace {
uint64_t round_up(uint64_t v, uint64_t g) { return g <= 1 ? v : (v + g - 1) / g * g; }
}  // namespace

BaselineAllocator::BaselineAllocator(const AllocatorParams& params)
    : capacity_(params.registers),
      granularity_(params.granularity == 0 ? 1 : params.granularity),
      per_slot_(params.max_ctas, 0),
      occupied_(params.max_ctas, false) {}

uint64_t BaselineAllocator::units(const CtaShape& shape) const {
  return round_up(shape.regs_per_thread, granularity_) * shape.padded_threads();
}

uint32_t BaselineAllocator::max_ctas(const CtaShape& shape) const {
  const uint64_t u = units(shape);
  if (u == 0) return static_cast<uint32_t>(per_slot_.size());
  const uint64_t n = capacity_ / u;
  return static_cast<uint32_t>(n < per_slot_.size() ? n : per_slot_.size());
}

bool BaselineAllocator::can_admit(const CtaShape& shape) const { return used_ + units(shape) <= capacity_; }

void BaselineAllocator::admit(uint32_t cta_slot, const CtaShape& shape) {
  if (cta_slot >= per_slot_.size() || occupied_[cta_slot] || !can_admit(shape)) {
    throw Error(ErrorKind::Internal, "register allocator: bad admission of CTA slot " + std::to_string(cta_slot));
  }
  per_slot_[cta_slot] = units(shape);
  occupied_[cta_slot] = true;
  used_ += per_slot_[cta_slot];
}

void BaselineAllocator::release(uint32_t cta_slot) {
  if (cta_slot >= per_slot_.size() || !occupied_[cta_slot]) {
    throw Error(ErrorKind::Internal, "register allocator: release of empty CTA slot " + std::to_string(cta_slot));
  }
  used_ -= per_slot_[cta_slot];
  per_slot_[cta_slot] = 0;
  occupied_[cta_slot] = false;
}

AllocatorRegistry& allocators() {
  static AllocatorRegistry registry = [] {
    AllocatorRegistry r("gpu.sm.regfile.alloc_policy");
    r.add("baseline", [](const AllocatorParams& p) { return std::make_unique<BaselineAllocator>(p); });
    r.add("sharing", [](const AllocatorParams& p) { return std::make_unique<SharingAllocator>(p); });
    r.add("finereg", [](const AllocatorParams& p) { return std::make_unique<finereg::FineRegAllocator>(p); });
    r.add("vt", [](const AllocatorParams& p) { return std::make_unique<finereg::VtAllocator>(p, false); });
    r.add("regdram", [](const AllocatorParams& p) { return std::make_unique<finereg::RegDramAllocator>(p); });
    return r;
  }();
  return registry;
}

std::unique_ptr<Allocator> make_allocator(const AllocatorParams& params) {
  return allocators().make(params.policy, params);
}

}  // namespace simtlm::models::regfile
