// histogram256 driver: 256-bin byte histogram with per-warp shared-memory
// sub-histograms and per-CTA partial histograms merged by a second kernel.
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Histogram256 : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"histogram256",
            "SDK-style 256-bin histogram: 192-thread CTAs with six per-warp 256-bin "
            "sub-histograms in shared memory (6 KB), per-CTA partials merged by a second kernel",
            "scratchpad-limited", "histogram256"};
  }

  // hist256_merge is the small final merge of the per-CTA partials (thread-limited,
  // 1 KB of shared memory); hist256_partial carries the scratchpad-limited class.
  std::vector<KernelShape> kernel_shapes() const override {
    return {{"hist256_partial", kPartialBlock, 0, true},
            {"hist256_merge", kMergeBlock, 0, false}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      n_ = 10007, ctas_ = 5;  // tail of 3 bytes
    } else {
      n_ = 1u << 23, ctas_ = 64;
    }
    // Half the bytes uniform, half the AND of two random bytes: a skewed
    // distribution (byte 0 has probability ~10%) with hot bins.
    SplitMix64 rng(stream_seed(seed, 1));
    data_.resize((n_ + 3) / 4 * 4, 0);
    for (uint32_t i = 0; i < n_; ++i) {
      const uint32_t r = rng.next_u32();
      data_[i] = uint8_t((r & 0x100) ? (r & 0xff) : ((r >> 16) & (r >> 24) & 0xff));
    }
    d_data_ = dev.upload(data_);
    d_partial_ = dev.malloc(size_t(ctas_) * 256 * sizeof(uint32_t));
    d_bins_ = dev.malloc(256 * sizeof(uint32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_bins_, 0xff, 256 * sizeof(uint32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("histogram256"), "histogram256.ptx");
    std::vector<LaunchStats> stats;
    LaunchConfig c1;
    c1.block = Dim3(kPartialBlock);
    c1.grid = Dim3(ctas_);
    KernelArgs a1;
    a1.add(d_data_).add(d_data_).add(int32_t(n_)).add(d_partial_);
    stats.push_back(dev.launch(mod, "hist256_partial", c1, a1));
    LaunchConfig c2;
    c2.block = Dim3(kMergeBlock);
    c2.grid = Dim3(256);
    KernelArgs a2;
    a2.add(d_partial_).add(int32_t(ctas_)).add(d_bins_);
    stats.push_back(dev.launch(mod, "hist256_merge", c2, a2));
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<uint32_t> bins = dev.download<uint32_t>(d_bins_, 256);
    std::vector<uint32_t> ref(256, 0);
    for (uint32_t i = 0; i < n_; ++i) ++ref[data_[i]];
    CheckResult r = compare_exact("bins", bins, ref);
    r.detail += " (" + std::to_string(n_) + " bytes, " + std::to_string(ctas_) + " partials)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"bins", d_bins_, 256, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kPartialBlock = 192;  // = THREADS in kernel.cu (6 warps)
  static constexpr uint32_t kMergeBlock = 256;    // hist256_merge assumes 256 threads
  uint32_t n_ = 0, ctas_ = 0;
  std::vector<uint8_t> data_;
  DevicePtr d_data_ = 0, d_partial_ = 0, d_bins_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("histogram256", Histogram256);

}  // namespace
}  // namespace simtlm::workloads
