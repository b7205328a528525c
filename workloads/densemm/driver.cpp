// densemm driver: C = A * B, row-major, one thread per C element, 16 x 16
// threads per CTA, no shared memory (the untiled counterpart of sgemm).
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

class DenseMm : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"densemm",
            "dense C = A*B, one thread per element, 16x16 threads per CTA, operands "
            "read straight from global memory (convergent)",
            "convergent", "densemm"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"densemm", kTile * kTile, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      m_ = 40, n_ = 56, k_ = 48;  // partial CTAs in both dimensions
    } else {
      m_ = 256, n_ = 256, k_ = 128;
    }
    SplitMix64 ra(stream_seed(seed, 1)), rb(stream_seed(seed, 2));
    a_.resize(size_t(m_) * k_);
    b_.resize(size_t(k_) * n_);
    for (auto& v : a_) v = ra.uniform(-1.f, 1.f);
    for (auto& v : b_) v = rb.uniform(-1.f, 1.f);
    d_a_ = dev.upload(a_);
    d_b_ = dev.upload(b_);
    d_c_ = dev.malloc(size_t(m_) * n_ * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("densemm"), "densemm.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kTile, kTile);
    cfg.grid = Dim3(ceil_div(n_, kTile), ceil_div(m_, kTile));
    KernelArgs args;
    args.add(d_a_).add(d_b_).add(d_c_).add(int32_t(m_)).add(int32_t(n_)).add(int32_t(k_));
    return {dev.launch(mod, "densemm", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> c = dev.download<float>(d_c_, size_t(m_) * n_);
    std::vector<double> ref(c.size()), mag(c.size());
    for (uint32_t i = 0; i < m_; ++i)
      for (uint32_t j = 0; j < n_; ++j) {
        double s = 0.0, a = 0.0;
        for (uint32_t k = 0; k < k_; ++k) {
          const double p = double(a_[size_t(i) * k_ + k]) * double(b_[size_t(k) * n_ + j]);
          s += p;
          a += std::fabs(p);
        }
        ref[size_t(i) * n_ + j] = s, mag[size_t(i) * n_ + j] = a;
      }
    // A K-long float dot product (FMA or multiply-add): |err| <= gamma_K * sum|a b|.
    const double g = gamma_n(double(k_));
    return compare_with_tolerance("C", c, ref, [&](size_t i) { return g * mag[i]; },
                                  "gamma_K * sum_k |A_ik B_kj|, K = " + std::to_string(k_) +
                                      " (worst-case float dot-product bound)");
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"C", d_c_, size_t(m_) * n_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kTile = 16;  // threads per CTA side, one per C element
  uint32_t m_ = 0, n_ = 0, k_ = 0;
  std::vector<float> a_, b_;
  DevicePtr d_a_ = 0, d_b_ = 0, d_c_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("densemm", DenseMm);

}  // namespace
}  // namespace simtlm::workloads
