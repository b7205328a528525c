// Shared helpers of the workload tests: run one workload end to end on a fresh
// functional Device and collect what the tests compare.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/device.h"
#include "workloads/common/outputs.h"
#include "workloads/workload.h"

namespace simtlm::workloads::testing {

struct RunResult {
  std::vector<LaunchStats> stats;
  CheckResult check;
  std::vector<std::vector<uint8_t>> outputs;  // raw bytes of every HasOutputs buffer
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
};

inline std::unique_ptr<Workload> make_workload(const std::string& name) {
  auto w = WorkloadRegistry::create(name);
  EXPECT_NE(w, nullptr) << "workload '" << name << "' is not registered";
  return w;
}

inline HasOutputs& outputs_of(Workload& w) {
  auto* h = dynamic_cast<HasOutputs*>(&w);
  if (h == nullptr) throw std::logic_error(w.info().name + " does not implement HasOutputs");
  return *h;
}

inline std::vector<std::vector<uint8_t>> download_outputs(Device& dev, Workload& w) {
  std::vector<std::vector<uint8_t>> out;
  for (const OutputBuffer& b : outputs_of(w).outputs()) {
    std::vector<uint8_t> bytes(b.count * 4);
    dev.memcpy_to_host(bytes.data(), b.ptr, bytes.size());
    out.push_back(std::move(bytes));
  }
  return out;
}

inline RunResult run_workload(const std::string& name, Size size = Size::Small, uint64_t seed = 1,
                              unsigned warp_size = 32) {
  DeviceOptions opts;
  opts.backend = Backend::Functional;
  opts.warp_size = warp_size;
  Device dev(opts);
  auto w = make_workload(name);
  RunResult r;
  if (!w) return r;
  w->setup(dev, size, seed);
  r.stats = w->run(dev);
  r.check = w->check(dev);
  r.outputs = download_outputs(dev, *w);
  for (const auto& s : r.stats) {
    r.warp_instructions += s.warp_instructions;
    r.thread_instructions += s.thread_instructions;
  }
  return r;
}

// Changes one element of the first output buffer in device memory so that it
// differs from any tolerable value (float: v + 1 + |v|; integers: v + 1).
inline void corrupt_one_output(Device& dev, Workload& w) {
  const OutputBuffer b = outputs_of(w).outputs().at(0);
  const size_t index = b.count / 2;
  const DevicePtr p = b.ptr + index * 4;
  if (b.type == ElemType::F32) {
    float v = 0;
    dev.memcpy_to_host(&v, p, 4);
    v = v + 1.0f + (v < 0 ? -v : v);
    dev.memcpy_to_device(p, &v, 4);
  } else {
    uint32_t v = 0;
    dev.memcpy_to_host(&v, p, 4);
    v += 1;
    dev.memcpy_to_device(p, &v, 4);
  }
}

}  // namespace simtlm::workloads::testing
