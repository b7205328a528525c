#include "frontend/ir/module.h"

namespace simtlm::ir {

const char* register_count_source_name(RegisterCountSource source) {
  switch (source) {
    case RegisterCountSource::Allocator:
      return "allocator";
    case RegisterCountSource::AllocatorFallback:
      return "allocator_fallback";
    case RegisterCountSource::Ptxas:
      return "ptxas";
    case RegisterCountSource::LaunchSpec:
      return "launch_spec";
    case RegisterCountSource::UnifiedAlloc:
      return "unified_alloc";
  }
  return "?";
}

}  // namespace simtlm::ir
