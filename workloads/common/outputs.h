// Test hook: a driver that also derives from HasOutputs names the device
// buffers check() reads. Tests use it to corrupt one element (showing that
// check() can fail) and to compare outputs bit for bit across runs and warp
// sizes. Not part of the frozen Workload interface; reach it by dynamic_cast.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "simtlm/device.h"

namespace simtlm::workloads {

enum class ElemType { F32, I32, U32 };

struct OutputBuffer {
  std::string name;   // "c", "dist", ...
  DevicePtr ptr = 0;  // valid after run()
  size_t count = 0;   // elements
  ElemType type = ElemType::F32;
};

class HasOutputs {
 public:
  virtual ~HasOutputs() = default;
  virtual std::vector<OutputBuffer> outputs() const = 0;
};

}  // namespace simtlm::workloads
