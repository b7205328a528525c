// scalarprod driver: npairs dot products of n-element vector pairs, CTAs of
// 128 threads looping over pairs, shared-memory tree reduction.
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

class ScalarProd : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"scalarprod",
            "dot products of vector pairs, 128-thread CTAs each looping over pairs, "
            "strided accumulation and a shared-memory tree reduction",
            "thread-limited", "scalarprod"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"scalar_prod", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      npairs_ = 37, n_ = 1000, grid_ = 16;  // CTAs take 2 or 3 pairs; n not a multiple of 128
    } else {
      npairs_ = 256, n_ = 8192, grid_ = 128;
    }
    SplitMix64 ra(stream_seed(seed, 1)), rb(stream_seed(seed, 2));
    a_.resize(size_t(npairs_) * n_);
    b_.resize(a_.size());
    for (auto& v : a_) v = ra.uniform(-1.f, 1.f);
    for (auto& v : b_) v = rb.uniform(-1.f, 1.f);
    d_a_ = dev.upload(a_);
    d_b_ = dev.upload(b_);
    d_r_ = dev.malloc(size_t(npairs_) * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("scalarprod"), "scalarprod.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(grid_);
    KernelArgs args;
    args.add(d_a_).add(d_b_).add(d_r_).add(int32_t(npairs_)).add(int32_t(n_));
    return {dev.launch(mod, "scalar_prod", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> r = dev.download<float>(d_r_, npairs_);
    std::vector<double> ref(npairs_), mag(npairs_);
    for (uint32_t p = 0; p < npairs_; ++p) {
      double s = 0.0, m = 0.0;
      for (uint32_t i = 0; i < n_; ++i) {
        const double t = double(a_[size_t(p) * n_ + i]) * double(b_[size_t(p) * n_ + i]);
        s += t;
        m += std::fabs(t);
      }
      ref[p] = s, mag[p] = m;
    }
    // A product is rounded (unless fused), added in a per-thread chain of
    // ceil(n/128) terms and goes through the 7 levels of the tree.
    const double g = gamma_n(2.0 * double(ceil_div(n_, kBlock)) + 7.0);
    CheckResult c = compare_with_tolerance(
        "dot", r, ref, [&](size_t i) { return g * mag[i]; },
        "gamma_{2*ceil(n/128)+7} * sum|a_i b_i| (per-thread chain plus 7 tree levels)");
    c.detail += " (" + std::to_string(npairs_) + " pairs of " + std::to_string(n_) + ")";
    return c;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"dot", d_r_, npairs_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 128;
  uint32_t npairs_ = 0, n_ = 0, grid_ = 0;
  std::vector<float> a_, b_;
  DevicePtr d_a_ = 0, d_b_ = 0, d_r_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("scalarprod", ScalarProd);

}  // namespace
}  // namespace simtlm::workloads
