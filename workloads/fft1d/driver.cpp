// fft1d driver: batched complex 1-D FFT of length N = 2^L, radix-2 Stockham,
// one launch per stage (L launches), one thread per butterfly, 256 threads per
// CTA, twiddles from a table in global memory.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Fft1d : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"fft1d",
            "batched radix-2 complex 1-D FFT (Stockham), one launch per stage, one thread "
            "per butterfly, 256 threads per CTA, twiddle table in global memory (convergent)",
            "convergent", "fft1d"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"fft_radix2_stage", kThreads, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      log2n_ = 8, batches_ = 4;  // 512 butterflies per stage: 2 CTAs
    } else {
      log2n_ = 10, batches_ = 64;  // 32768 butterflies per stage: 128 CTAs
    }
    n_ = 1u << log2n_;
    const uint64_t points = uint64_t(n_) * batches_;
    // Interleaved (re, im) floats, uniform in [-1, 1).
    SplitMix64 rx(stream_seed(seed, 1));
    x_.resize(2 * points);
    for (auto& v : x_) v = rx.uniform(-1.f, 1.f);
    // Twiddle table exp(-2 pi i m / N), m < N/2, computed in double and rounded
    // once to float (|error| <= u per component).
    std::vector<float> tw(n_);
    for (uint32_t m = 0; m < n_ / 2; ++m) {
      const double a = -2.0 * kPi * double(m) / double(n_);
      tw[2 * m] = float(std::cos(a));
      tw[2 * m + 1] = float(std::sin(a));
    }
    d_x_ = dev.upload(x_);
    d_tw_ = dev.upload(tw);
    d_buf_[0] = dev.malloc(points * 8);
    d_buf_[1] = dev.malloc(points * 8);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("fft1d"), "fft1d.ptx");
    const uint32_t total = (n_ / 2) * batches_;  // butterflies per stage
    LaunchConfig cfg;
    cfg.block = Dim3(kThreads);
    cfg.grid = Dim3(ceil_div(total, kThreads));
    std::vector<LaunchStats> stats;
    // Stage s reads the input (s = 0) or buffer (s + 1) % 2 and writes buffer s % 2.
    for (uint32_t s = 0; s < log2n_; ++s) {
      KernelArgs args;
      args.add(s == 0 ? d_x_ : d_buf_[(s + 1) % 2]).add(d_buf_[s % 2]).add(d_tw_);
      args.add(int32_t(log2n_)).add(int32_t(s)).add(total);
      stats.push_back(dev.launch(mod, "fft_radix2_stage", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const size_t points = size_t(n_) * batches_;
    const std::vector<float> y = dev.download<float>(out(), 2 * points);
    // Reference: the DFT by its definition, y_k = sum_j x_j exp(-2 pi i jk/N),
    // in double (exp from a table indexed by jk mod N).
    std::vector<double> c(n_), s(n_);
    for (uint32_t m = 0; m < n_; ++m) {
      const double a = -2.0 * kPi * double(m) / double(n_);
      c[m] = std::cos(a), s[m] = std::sin(a);
    }
    // Norm-wise bound for a radix-2 FFT in float (Higham, Accuracy and
    // Stability of Numerical Algorithms, 2nd ed., Thm 24.2): with computed
    // twiddles |w^ - w| <= mu, ||y^ - y||_2 / ||y||_2 <= L eta / (1 - L eta),
    // eta = mu + gamma_4 (sqrt(2) + mu). The table is rounded from double:
    // mu = u (we take 2u). 1e-9 covers the double reference's own error.
    const double u = kFloatUnitRoundoff, mu = 2 * u;
    const double eta = mu + gamma_n(4) * (std::sqrt(2.0) + mu);
    const double leta = double(log2n_) * eta;
    const double tol = leta / (1 - leta) + 1e-9;

    std::vector<double> ref(2 * size_t(n_));
    size_t bad = 0, first_bad = 0;
    double worst = 0.0, first_rel = 0.0;
    size_t first_elem = 0;
    double first_got = 0, first_exp = 0;
    for (uint32_t b = 0; b < batches_; ++b) {
      const float* xb = x_.data() + 2 * size_t(b) * n_;
      const float* yb = y.data() + 2 * size_t(b) * n_;
      double err2 = 0.0, norm2 = 0.0, worst_elem = -1.0;
      size_t worst_idx = 0;
      for (uint32_t k = 0; k < n_; ++k) {
        double re = 0.0, im = 0.0;
        for (uint32_t j = 0; j < n_; ++j) {
          const uint32_t m = uint32_t((uint64_t(j) * k) & (n_ - 1));
          const double xr = xb[2 * j], xi = xb[2 * j + 1];
          re += xr * c[m] - xi * s[m];
          im += xr * s[m] + xi * c[m];
        }
        const double dr = double(yb[2 * k]) - re, di = double(yb[2 * k + 1]) - im;
        const double e = dr * dr + di * di;
        err2 += e;
        norm2 += re * re + im * im;
        if (!(e <= worst_elem)) worst_elem = e, worst_idx = k;
        ref[2 * k] = re, ref[2 * k + 1] = im;
      }
      const double rel = std::sqrt(err2) / std::sqrt(norm2);
      if (!(rel <= tol)) {  // also catches NaN/inf
        if (bad == 0) {
          first_bad = b, first_rel = rel, first_elem = worst_idx;
          first_got = yb[2 * worst_idx], first_exp = ref[2 * worst_idx];
        }
        ++bad;
      } else if (rel > worst) {
        worst = rel;
      }
    }
    std::ostringstream os;
    os << "y: ";
    CheckResult r;
    if (bad == 0) {
      os << batches_ << " transforms of " << n_ << " points match; max relative 2-norm error "
         << fmt_num(worst) << " (" << fmt_num(100.0 * worst / tol) << "% of tolerance "
         << fmt_num(tol) << ")";
      r.passed = true;
    } else {
      os << bad << " of " << batches_ << " transforms mismatch; first: batch " << first_bad
         << ", relative 2-norm error " << fmt_num(first_rel) << " > tolerance " << fmt_num(tol)
         << ", worst element [" << first_elem << "].re got " << fmt_num(first_got)
         << ", expected " << fmt_num(first_exp);
    }
    os << "; tolerance: Higham Thm 24.2 radix-2 FFT bound L eta/(1 - L eta), L = " << log2n_
       << ", eta = mu + gamma_4 (sqrt 2 + mu), mu = 2u, vs. a double direct DFT";
    r.detail = os.str();
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    // Interleaved (re, im) pairs, batch-major.
    return {{"y", out(), 2 * size_t(n_) * batches_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kThreads = 256;
  static constexpr double kPi = 3.14159265358979323846;
  DevicePtr out() const { return d_buf_[(log2n_ - 1) % 2]; }

  uint32_t log2n_ = 0, n_ = 0, batches_ = 0;
  std::vector<float> x_;
  DevicePtr d_x_ = 0, d_tw_ = 0;
  DevicePtr d_buf_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("fft1d", Fft1d);

}  // namespace
}  // namespace simtlm::workloads
