// histogram driver: 256-bin byte histogram with per-CTA shared-memory
// sub-histograms merged by global atomics.
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Histogram : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"histogram",
            "256-bin byte histogram: per-warp shared-memory sub-histograms (8 KiB per CTA) "
            "with shared atomics, merged by global atomicAdd",
            "scratchpad-limited", "histogram"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"histogram256", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      n_ = 10003, grid_ = 4;  // n % 4 == 3: exercises the tail path
    } else {
      n_ = 1u << 22, grid_ = 60;
    }
    // Half the bytes uniform, half the AND of two random bytes (biased towards
    // few set bits: byte 0 has probability (3/4)^8 ~ 10%), so some bins are hot
    // and their shared atomics contend.
    SplitMix64 rng(stream_seed(seed, 1));
    data_.resize(n_);
    for (auto& b : data_) {
      const uint32_t r = rng.next_u32();
      b = uint8_t((r & 1) ? (r >> 8) : ((r >> 8) & (r >> 16)));
    }
    d_data_ = dev.upload(data_);
    d_bins_ = dev.malloc(kBins * sizeof(uint32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_bins_, 0, kBins * sizeof(uint32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("histogram"), "histogram.ptx");
    LaunchConfig cfg;
    cfg.grid = Dim3(grid_);
    cfg.block = Dim3(kBlock);
    KernelArgs args;
    args.add(d_data_).add(uint32_t(n_)).add(d_bins_);
    return {dev.launch(mod, "histogram256", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    std::vector<uint32_t> bins = dev.download<uint32_t>(d_bins_, kBins);
    std::vector<uint32_t> ref(kBins, 0);
    for (uint8_t b : data_) ++ref[b];
    CheckResult r = compare_exact("bins", bins, ref);
    uint64_t total = 0;
    for (uint32_t c : bins) total += c;
    r.detail += " (device total " + std::to_string(total) + " of " + std::to_string(n_) + " bytes)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"bins", d_bins_, kBins, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kBins = 256;
  static constexpr uint32_t kBlock = 256;  // 8 sub-histograms of 32 threads
  uint32_t n_ = 0, grid_ = 0;
  std::vector<uint8_t> data_;
  DevicePtr d_data_ = 0, d_bins_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("histogram", Histogram);

}  // namespace
}  // namespace simtlm::workloads
