// tripcount driver: Collatz trip counts of seeded start values, one thread
// per start, 256 threads per CTA.
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class TripCount : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"tripcount",
            "per-thread data-dependent trip count (Collatz steps to 1, 64-bit values), "
            "256 threads per CTA: lanes leave the loop at very different iterations",
            "divergent", "tripcount"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"collatz_steps", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    n_ = size == Size::Small ? 2000 : 32768;
    // Starts uniform in [1, 2^20): 0 to ~450 steps, peaks beyond 2^32.
    SplitMix64 rs(stream_seed(seed, 1));
    start_.resize(n_);
    for (auto& v : start_) v = uint32_t(rs.range(1, (1 << 20) - 1));
    d_start_ = dev.upload(start_);
    d_steps_ = dev.malloc(size_t(n_) * 4);
    d_peak_ = dev.malloc(size_t(n_) * 8);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("tripcount"), "tripcount.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(n_, kBlock));
    KernelArgs args;
    args.add(d_start_).add(d_steps_).add(d_peak_).add(int32_t(n_));
    return {dev.launch(mod, "collatz_steps", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<uint32_t> steps = dev.download<uint32_t>(d_steps_, n_);
    const std::vector<uint64_t> peak = dev.download<uint64_t>(d_peak_, n_);
    // Reference: the same map, written as a recursion-free count on the host.
    std::vector<uint32_t> ref_steps(n_);
    std::vector<uint64_t> ref_peak(n_);
    uint32_t longest = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      uint64_t v = start_[i], top = v;
      uint32_t c = 0;
      for (; v != 1; ++c) {
        v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
        top = v > top ? v : top;
      }
      ref_steps[i] = c;
      ref_peak[i] = top;
      longest = c > longest ? c : longest;
    }
    CheckResult r = compare_exact("steps", steps, ref_steps);
    if (!r.passed) return r;
    const CheckResult p = compare_exact("peak", peak, ref_peak);
    if (!p.passed) return p;
    r.detail += "; " + p.detail + " (" + std::to_string(n_) + " starts, longest " +
                std::to_string(longest) + " steps)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    // peak is 64-bit: exposed as 2n 32-bit words (the hook compares raw bytes).
    return {{"steps", d_steps_, n_, ElemType::U32}, {"peak", d_peak_, size_t(n_) * 2, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kBlock = 256;
  uint32_t n_ = 0;
  std::vector<uint32_t> start_;
  DevicePtr d_start_ = 0, d_steps_ = 0, d_peak_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("tripcount", TripCount);

}  // namespace
}  // namespace simtlm::workloads
