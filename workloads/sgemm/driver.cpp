// sgemm driver: C = alpha * A * B + beta * C, row-major, 32 x 32 C tiles per CTA.
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

class Sgemm : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"sgemm",
            "dense C = alpha*A*B + beta*C, 16x16 threads per CTA, 32x32 C tile, 2x2 "
            "register-blocked outputs per thread, shared-memory A/B slabs",
            "register-limited", "sgemm"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"sgemm", kTile * kTile, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      // Not multiples of the 32-wide C tile or the 16-deep K step: exercises
      // the zero-filled slab edges and the guarded stores.
      m_ = 40, n_ = 48, k_ = 56;
    } else {
      m_ = n_ = k_ = 256;
    }
    SplitMix64 ra(stream_seed(seed, 1)), rb(stream_seed(seed, 2)), rc(stream_seed(seed, 3));
    a_.resize(size_t(m_) * k_);
    b_.resize(size_t(k_) * n_);
    c0_.resize(size_t(m_) * n_);
    for (auto& v : a_) v = ra.uniform(-1.f, 1.f);
    for (auto& v : b_) v = rb.uniform(-1.f, 1.f);
    for (auto& v : c0_) v = rc.uniform(-1.f, 1.f);
    d_a_ = dev.upload(a_);
    d_b_ = dev.upload(b_);
    d_c_ = dev.upload(c0_);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    // C is read and written: restore the initial C so run() can be repeated.
    dev.memcpy_to_device(d_c_, c0_.data(), c0_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("sgemm"), "sgemm.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kTile, kTile);
    cfg.grid = Dim3(ceil_div(n_, 32), ceil_div(m_, 32));
    KernelArgs args;
    args.add(d_a_).add(d_b_).add(d_c_).add(int32_t(m_)).add(int32_t(n_)).add(int32_t(k_))
        .add(kAlpha).add(kBeta);
    return {dev.launch(mod, "sgemm", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    std::vector<float> c = dev.download<float>(d_c_, size_t(m_) * n_);
    // Reference in double, plus the magnitude sum that scales the error bound.
    std::vector<double> ref(c.size()), mag(c.size());
    for (uint32_t i = 0; i < m_; ++i) {
      for (uint32_t j = 0; j < n_; ++j) {
        double dot = 0.0, abs_dot = 0.0;
        for (uint32_t k = 0; k < k_; ++k) {
          const double p = double(a_[size_t(i) * k_ + k]) * double(b_[size_t(k) * n_ + j]);
          dot += p;
          abs_dot += std::fabs(p);
        }
        const double c_in = double(c0_[size_t(i) * n_ + j]);
        ref[size_t(i) * n_ + j] = double(kAlpha) * dot + double(kBeta) * c_in;
        mag[size_t(i) * n_ + j] = std::fabs(double(kAlpha)) * abs_dot + std::fabs(double(kBeta) * c_in);
      }
    }
    // The device forms each element by a K-long chain of float FMAs plus the
    // beta*C product and the final alpha FMA: K + 2 roundings. Whatever their
    // order, the error is at most gamma_{K+2} * (|alpha| sum|A B| + |beta C|)
    // (Higham, Accuracy and Stability of Numerical Algorithms, sec. 3.1). The
    // bound is rigorous, yet hundreds of times smaller than the effect of one
    // missing or wrong product (|alpha A B| ~ 0.375 on average).
    const double g = gamma_n(double(k_) + 2.0);
    const std::string rule = "|err| <= gamma_{K+2}*(|alpha|*sum_k|A_ik*B_kj| + |beta*C_ij|), "
                             "gamma_n = n*u/(1-n*u), u = 2^-24, K = " + std::to_string(k_) +
                             " (worst-case float FMA-chain bound)";
    return compare_with_tolerance("C", c, ref, [&](size_t i) { return g * mag[i]; }, rule);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"C", d_c_, size_t(m_) * n_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kTile = 16;  // = TILE in kernel.cu: threads per CTA side
  static constexpr float kAlpha = 1.5f;
  static constexpr float kBeta = -0.5f;
  uint32_t m_ = 0, n_ = 0, k_ = 0;
  std::vector<float> a_, b_, c0_;
  DevicePtr d_a_ = 0, d_b_ = 0, d_c_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("sgemm", Sgemm);

}  // namespace
}  // namespace simtlm::workloads
