// 64-bit values in shared spill slots through the runtime
// (frontend.unified_alloc.spill = shared; frontend/passes/shared_slots.h):
// testbenches/data/kernels/wide_spill.ptx, whose spilled values are its two
// 64-bit ones (the output address and a data word), gives bit-identical
// output to the kernel without spilling on the functional backend whether
// they sit in two shared slots each, one in shared and one in local memory,
// or both in local memory (the launch's dynamic shared memory sets how many
// slots are free), and on the timing backend.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "simtlm/config.h"
#include "simtlm/device.h"
#include "testbenches/common/test_data.h"

namespace simtlm {
namespace {

constexpr uint32_t kThreads = 1280, kBlock = 256, kIterations = 3;

struct Outcome {
  LaunchStats stats;
  std::vector<uint8_t> out;  // 16 bytes per thread
  nlohmann::json counters;
};

Outcome run(Backend backend, uint32_t registers, uint32_t dynamic) {
  auto cfg = std::make_shared<Config>();
  cfg->apply_override("gpu.num_sms=2");
  if (registers) {
    cfg->apply_override("frontend.unified_alloc.mode=fixed");
    cfg->apply_override("frontend.unified_alloc.registers=" + std::to_string(registers));
    cfg->apply_override("frontend.unified_alloc.spill=shared");
  }
  cfg->validate();
  DeviceOptions o;
  o.backend = backend;
  o.config = cfg;
  o.num_sms = 2;
  Device dev(o);
  const ModuleHandle h = dev.load_module_string(test_data::ptx("kernels/wide_spill.ptx"), "wide_spill.ptx");
  std::vector<uint32_t> in(kThreads * 8);
  for (size_t k = 0; k < in.size(); ++k) {
    const float f = 0.25f * static_cast<float>((k * 7919) % 23) - 2.0f;
    std::memcpy(&in[k], &f, 4);
    if (k % 8 >= 6) in[k] = static_cast<uint32_t>(k * 2654435761u);  // the 64-bit word: any bits
  }
  const DevicePtr din = dev.malloc(in.size() * 4), dout = dev.malloc(kThreads * 16);
  dev.memcpy_to_device(din, in.data(), in.size() * 4);
  LaunchConfig c;
  c.block = Dim3(kBlock);
  c.grid = Dim3(kThreads / kBlock);
  c.dynamic_shared_bytes = dynamic;
  Outcome r;
  r.stats = dev.launch(h, "wide_spill", c, KernelArgs().add(din).add(dout).add(kIterations));
  r.out.resize(kThreads * 16);
  dev.memcpy_to_host(r.out.data(), dout, r.out.size());
  for (uint32_t g = 0; g < kThreads; ++g) {  // the 64-bit word, by hand
    uint64_t w, got;
    std::memcpy(&w, &in[g * 8 + 6], 8);
    std::memcpy(&got, &r.out[g * 16 + 8], 8);
    EXPECT_EQ(got, w ^ 0x0123456789abcdefull) << "thread " << g;
  }
  const std::string json = r.stats.stats_json();
  if (!json.empty()) r.counters = nlohmann::json::parse(json);
  return r;
}

bool same_words(const Outcome& a, const Outcome& b) {
  for (uint32_t g = 0; g < kThreads; ++g)  // the float and the 64-bit word; bytes 4-7 are not written
    if (std::memcmp(&a.out[g * 16], &b.out[g * 16], 4) != 0 || std::memcmp(&a.out[g * 16 + 8], &b.out[g * 16 + 8], 8))
      return false;
  return true;
}

TEST(UnifiedWideRun, FunctionalResultsAreBitIdenticalToNoSpilling) {
  const Outcome plain = run(Backend::Functional, 0, 0);
  ASSERT_GT(plain.stats.regs_per_thread, 14u);
  // Dynamic bytes 0 / 5500 / 6500 leave 8 / 2 / 1 slots per thread at R = 14
  // (testbenches/frontend_passes/shared_slots_wide_test.cpp).
  for (uint32_t r : {14u, 12u, 10u}) {
    for (uint32_t dynamic : {0u, 5500u, 6500u}) {
      SCOPED_TRACE("R = " + std::to_string(r) + ", dynamic " + std::to_string(dynamic));
      const Outcome u = run(Backend::Functional, r, dynamic);
      EXPECT_LE(u.stats.regs_per_thread, r);
      EXPECT_GT(u.stats.thread_instructions, plain.stats.thread_instructions);
      EXPECT_TRUE(same_words(u, plain));
      if (r == 14 && dynamic != 6500) {
        EXPECT_NE(u.stats.register_count_detail.find(dynamic == 0 ? "2 of 2 8-byte" : "1 of 2 8-byte"),
                  std::string::npos)
            << u.stats.register_count_detail;
      }
    }
  }
}

TEST(UnifiedWideRun, TimingResultsAreBitIdenticalWithTheHalvesInSharedMemory) {
  const Outcome functional = run(Backend::Functional, 14, 0);
  const Outcome timing = run(Backend::Timing, 14, 0);
  EXPECT_TRUE(same_words(timing, functional));
  EXPECT_EQ(timing.stats.thread_instructions, functional.stats.thread_instructions);
  uint64_t smem = 0;
  for (auto it = timing.counters.begin(); it != timing.counters.end(); ++it) {
    const std::string& k = it.key();
    const std::string suffix = ".smem_instructions";
    if (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        it->is_number())
      smem += it->get<uint64_t>();
  }
  EXPECT_GT(smem, 0u);  // the kernel itself has no shared access
}

}  // namespace
}  // namespace simtlm
