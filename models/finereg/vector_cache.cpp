#include "models/finereg/vector_cache.h"

#include <string>

#include "simtlm/error.h"

namespace simtlm::models::finereg {

VectorCache::VectorCache(uint32_t entries) : lines_(entries) {
  if (entries == 0 || (entries & (entries - 1)) != 0) {
    throw Error(ErrorKind::Internal, "FineReg vector cache: " + std::to_string(entries) +
                                         " entries is not a power of two");
  }
}

bool VectorCache::access(uintptr_t kernel, uint32_t pc) {
  Line& l = lines_[index(pc)];
  if (l.valid && l.kernel == kernel && l.pc == pc) {
    ++hits_;
    return true;
  }
  ++misses_;
  l.valid = true;
  l.kernel = kernel;
  l.pc = pc;
  return false;
}

}  // namespace simtlm::models::finereg
