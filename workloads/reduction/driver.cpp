// reduction driver: sum of n floats, one partial per CTA, then a one-CTA launch
// of the same kernel over the partials.
#include <cmath>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Reduction : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"reduction",
            "float sum: grid-stride per-thread sums, warp shuffles and shared memory per "
            "CTA, second launch over the per-CTA partials",
            "thread-limited", "reduction"};
  }

  // The default size: both launches run reduce_sum with kBlock threads (the
  // final one-CTA launch uses kFinalBlock == kBlock), so one shape covers both.
  // Small runs the first launch with kSmallBlock threads instead.
  std::vector<KernelShape> kernel_shapes() const override {
    return {{"reduce_sum", kBlock, 0, true}};
  }

  bool assumes_32_lane_warps() const override { return true; }

  void setup(Device& dev, Size size, uint64_t seed) override {
    check_warp_size(*this, dev.options().warp_size);
    if (size == Size::Small) {
      n_ = 5000, grid_ = 4, block_ = kSmallBlock;
    } else {
      n_ = 1u << 22, grid_ = 120, block_ = kBlock;
    }
    SplitMix64 rng(stream_seed(seed, 1));
    in_.resize(n_);
    // Mostly positive values, so the sum does not cancel to near zero.
    for (auto& v : in_) v = rng.uniform(-0.5f, 1.0f);
    d_in_ = dev.upload(in_);
    d_partials_ = dev.malloc(size_t(grid_) * sizeof(float));
    d_result_ = dev.malloc(sizeof(float));
    dev.memset(d_result_, 0, sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("reduction"), "reduction.ptx");
    std::vector<LaunchStats> stats;
    LaunchConfig first;
    first.grid = Dim3(grid_);
    first.block = Dim3(block_);
    KernelArgs a1;
    a1.add(d_in_).add(d_partials_).add(uint32_t(n_));
    stats.push_back(dev.launch(mod, "reduce_sum", first, a1));

    LaunchConfig second;
    second.grid = Dim3(1);
    second.block = Dim3(kFinalBlock);
    KernelArgs a2;
    a2.add(d_partials_).add(d_result_).add(uint32_t(grid_));
    stats.push_back(dev.launch(mod, "reduce_sum", second, a2));
    return stats;
  }

  CheckResult check(Device& dev) override {
    std::vector<float> got = dev.download<float>(d_result_, 1);
    double sum = 0.0, abs_sum = 0.0;
    for (float v : in_) {
      sum += double(v);
      abs_sum += std::fabs(double(v));
    }
    // Every input reaches the result through at most `depth` float additions:
    // its thread's sequential grid-stride chain in launch 1, 5 warp-shuffle and
    // 5 cross-warp levels, the partial's chain in launch 2 and 10 more levels.
    // A summation tree of depth d has |error| <= gamma_d * sum|x| (Higham 4.2),
    // whatever the order. At Small size the bound (~4e-3) is far below one
    // element's contribution (|x| ~ 0.4 on average), so a lost or doubled
    // element fails; at Default size (sum ~ 1e6, whose float ulp alone is 0.06)
    // no sound tolerance can see single elements, only gross errors.
    const uint32_t chain1 = ceil_div(n_, uint64_t(grid_) * block_);
    const uint32_t chain2 = ceil_div(grid_, kFinalBlock);
    const double depth = double(chain1 + 10 + chain2 + 10);
    const double tol = gamma_n(depth) * abs_sum;
    const std::string rule = "|err| <= gamma_d*sum|x|, d = " + fmt_num(depth) +
                             " (max additions on any input's path), gamma_d = d*u/(1-d*u), "
                             "u = 2^-24; n = " + std::to_string(n_);
    return compare_with_tolerance("sum", got, std::vector<double>{sum},
                                  [&](size_t) { return tol; }, rule);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"sum", d_result_, 1, ElemType::F32}};
  }

 private:
  // First launch: kBlock threads per CTA at the default size, kSmallBlock at
  // Small (docs/workloads.md: 4 CTAs x 128). The final one-CTA launch always
  // uses kFinalBlock.
  static constexpr uint32_t kBlock = 256, kSmallBlock = 128;
  static constexpr uint32_t kFinalBlock = 256;
  static_assert(kFinalBlock == kBlock, "kernel_shapes() declares one reduce_sum shape");
  uint32_t n_ = 0, grid_ = 0, block_ = 0;
  std::vector<float> in_;
  DevicePtr d_in_ = 0, d_partials_ = 0, d_result_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("reduction", Reduction);

}  // namespace
}  // namespace simtlm::workloads
