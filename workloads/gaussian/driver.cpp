// gaussian driver: forward elimination (no pivoting) of a diagonally dominant
// n x n system; per pivot t one fan1 launch (multipliers) and one fan2 launch
// (trailing-matrix and right-hand-side update).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Gaussian : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"gaussian",
            "Gaussian elimination forward phase: per pivot a fan1 launch (512-thread CTAs, "
            "multipliers) and a fan2 launch (4x4-thread CTAs, trailing update)",
            "thread-limited", "gaussian"};
  }

  // Both kernels carry the class: fan1 is limited by threads, fan2 by CTA slots.
  std::vector<KernelShape> kernel_shapes() const override {
    return {{"gaussian_fan1", kFan1Block, 0, true},
            {"gaussian_fan2", kFan2Side * kFan2Side, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    n_ = size == Size::Small ? 37 : 180;
    // Off-diagonal entries uniform in [-1, 1), diagonal n + [0, 1): strictly
    // diagonally dominant, so elimination without pivoting is stable (growth <= 2).
    SplitMix64 ra(stream_seed(seed, 1)), rb(stream_seed(seed, 2));
    a0_.resize(size_t(n_) * n_);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < n_; ++j)
        a0_[size_t(i) * n_ + j] = i == j ? float(n_) + ra.unit_float() : ra.uniform(-1.f, 1.f);
    b0_.resize(n_);
    for (auto& v : b0_) v = rb.uniform(-1.f, 1.f);
    d_a_ = dev.upload(a0_);
    d_b_ = dev.upload(b0_);
    d_m_ = dev.malloc(size_t(n_) * n_ * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_a_, a0_.data(), a0_.size() * sizeof(float));
    dev.memcpy_to_device(d_b_, b0_.data(), b0_.size() * sizeof(float));
    dev.memset(d_m_, 0, size_t(n_) * n_ * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("gaussian"), "gaussian.ptx");
    std::vector<LaunchStats> stats;
    for (uint32_t t = 0; t + 1 < n_; ++t) {
      const uint32_t below = n_ - 1 - t;  // rows below the pivot
      LaunchConfig c1;
      c1.block = Dim3(kFan1Block);
      c1.grid = Dim3(ceil_div(below, kFan1Block));
      KernelArgs a1;
      a1.add(d_a_).add(d_m_).add(int32_t(n_)).add(int32_t(t));
      stats.push_back(dev.launch(mod, "gaussian_fan1", c1, a1));
      LaunchConfig c2;
      c2.block = Dim3(kFan2Side, kFan2Side);
      c2.grid = Dim3(ceil_div(n_ - t, kFan2Side), ceil_div(below, kFan2Side));
      KernelArgs a2;
      a2.add(d_a_).add(d_b_).add(d_m_).add(int32_t(n_)).add(int32_t(t));
      stats.push_back(dev.launch(mod, "gaussian_fan2", c2, a2));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const size_t n = n_;
    const std::vector<float> u = dev.download<float>(d_a_, n * n);
    const std::vector<float> c = dev.download<float>(d_b_, n);
    const std::vector<float> mm = dev.download<float>(d_m_, n * n);
    // The factors are checked against the input rather than against a second
    // elimination: with L = unit lower triangle of the multipliers and U the
    // upper triangle of the result, Higham's backward-error theorems for LU
    // (Thm 9.3) and forward substitution (Thm 8.5) give, for any order of the
    // float operations, |A - L U| <= gamma_n |L| |U| and |b - L c| <= gamma_n
    // |L| |c| element-wise. Every element of U, L and c enters these products,
    // so a wrong one shows up as a residual above the bound. The strictly
    // lower part of U must be exactly zero. The residuals are formed in double
    // (their own rounding, <= 2n * 2^-53 of the same magnitudes, is added).
    auto L = [&](size_t i, size_t k) -> double {
      return i == k ? 1.0 : (k < i ? double(mm[i * n + k]) : 0.0);
    };
    auto U = [&](size_t k, size_t j) -> double { return k <= j ? double(u[k * n + j]) : 0.0; };
    const double g = gamma_n(double(n)) + 2.0 * double(n) * std::numeric_limits<double>::epsilon();
    // A residual is compared as got = (L U)_ij against ref = A_ij.
    std::vector<double> lu(n * n), ref_a(n * n), tol_a(n * n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        double s = 0.0, mag = 0.0;
        for (size_t k = 0; k <= std::min(i, j); ++k) {
          const double p = L(i, k) * U(k, j);
          s += p;
          mag += std::fabs(p);
        }
        lu[i * n + j] = s;
        ref_a[i * n + j] = double(a0_[i * n + j]);
        tol_a[i * n + j] = g * mag;
      }
    std::vector<double> lc(n), ref_b(n), tol_b(n);
    for (size_t i = 0; i < n; ++i) {
      double s = 0.0, mag = 0.0;
      for (size_t k = 0; k <= i; ++k) {
        const double p = L(i, k) * double(c[k]);
        s += p;
        mag += std::fabs(p);
      }
      lc[i] = s;
      ref_b[i] = double(b0_[i]);
      tol_b[i] = g * mag;
    }
    // Exact zeros below the diagonal of U.
    std::vector<float> lower, zeros;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < i; ++j) lower.push_back(u[i * n + j]), zeros.push_back(0.f);
    CheckResult z = compare_exact("U below the diagonal", lower, zeros);
    if (!z.passed) return z;
    const std::string rule = "gamma_n*(|L||U|)_ij resp. gamma_n*(|L||c|)_i, n = " +
                             std::to_string(n) + " (Higham Thm 9.3 / 8.5 backward error)";
    CheckResult r = compare_with_tolerance("(L*U)_ij vs A_ij", lu, ref_a,
                                           [&](size_t i) { return tol_a[i]; }, rule);
    if (!r.passed) return r;
    const CheckResult rb = compare_with_tolerance("(L*c)_i vs b_i", lc, ref_b,
                                                  [&](size_t i) { return tol_b[i]; }, rule);
    if (!rb.passed) return rb;
    r.detail += "; " + rb.detail.substr(0, rb.detail.find(';')) + "; " + z.detail;
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"a", d_a_, size_t(n_) * n_, ElemType::F32},
            {"b", d_b_, n_, ElemType::F32},
            {"m", d_m_, size_t(n_) * n_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kFan1Block = 512, kFan2Side = 4;
  uint32_t n_ = 0;
  std::vector<float> a0_, b0_;
  DevicePtr d_a_ = 0, d_b_ = 0, d_m_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("gaussian", Gaussian);

}  // namespace
}  // namespace simtlm::workloads
