// libor driver: LIBOR market model Monte Carlo, one path per thread (192 per
// CTA), 16 forward rates over 8 steps, a portfolio of 6 swaptions.
#include <algorithm>
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

// = NN, NMAT, NOPT, DELTA, VOL, TENOR, STRIKE in kernel.cu.
constexpr int kNN = 16, kNMat = 8, kNOpt = 6;
constexpr double kDelta = 0.25;
double vol(int tau) { return double(0.22f - 0.005f * float(tau)); }  // the kernel folds it in float
int tenor(int k) { return k + 2; }
double strike(int k) { return double(0.045f + 0.002f * float(k)); }

class Libor : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"libor",
            "LIBOR market model Monte Carlo: one path per thread (16 forward rates, 8 steps, "
            "6-swaption portfolio) with the whole rate vector in registers, 192 threads/CTA",
            "register-limited", "libor"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"libor_path", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    paths_ = size == Size::Small ? 1000 : 30720;  // Small: partial last CTA
    SplitMix64 rz(stream_seed(seed, 1)), rl(stream_seed(seed, 2));
    l0_.resize(kNN);
    for (auto& l : l0_) l = rl.uniform(0.04f, 0.06f);
    // Normal increments, step-major (z[n * paths + p]: coalesced per step),
    // by the Irwin-Hall approximation sum of 12 uniforms - 6 (mean 0,
    // variance 1), computed exactly in double: reproducible everywhere.
    z_.resize(size_t(kNMat) * paths_);
    for (auto& v : z_) {
      double sum = 0;
      for (int i = 0; i < 12; ++i) sum += double(rz.unit_float());
      v = float(sum - 6.0);
    }
    d_z_ = dev.upload(z_), d_l0_ = dev.upload(l0_);
    d_value_ = dev.malloc(paths_ * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_value_, 0, paths_ * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("libor"), "libor.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(paths_, kBlock));
    KernelArgs args;
    args.add(d_z_).add(d_l0_).add(d_value_).add(int32_t(paths_));
    return {dev.launch(mod, "libor_path", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> got = dev.download<float>(d_value_, paths_);
    std::vector<double> ref(paths_), mag(paths_);
    double mean = 0;
    for (uint32_t p = 0; p < paths_; ++p) {
      double L[kNN];
      for (int i = 0; i < kNN; ++i) L[i] = l0_[i];
      for (int n = 0; n < kNMat; ++n) {
        const double sqez = std::sqrt(kDelta) * double(z_[size_t(n) * paths_ + p]);
        double v = 0;
        for (int i = n + 1; i < kNN; ++i) {
          const double lam = vol(i - n - 1), con1 = kDelta * lam;
          v += con1 * L[i] / (1.0 + kDelta * L[i]);
          L[i] *= std::exp(con1 * v + lam * (sqez - 0.5 * con1));
        }
      }
      double b = 1, s = 0, value = 0, terms = 0;
      for (int j = 0; j < kNN - kNMat; ++j) {
        b /= 1.0 + kDelta * L[kNMat + j];
        s += kDelta * b;
        for (int k = 0; k < kNOpt; ++k) {
          if (tenor(k) != j + 1) continue;
          const double swapval = b + strike(k) * s - 1.0;
          if (swapval < 0) value -= 100.0 * swapval;
          terms += 100.0 * (b + strike(k) * s + 1.0);
        }
      }
      double disc = 1;
      for (int i = 0; i < kNMat; ++i) disc /= 1.0 + kDelta * L[i];
      ref[p] = value * disc;
      mag[p] = terms * disc;
      mean += ref[p] / paths_;
    }
    // Forward error estimate, first order: a rate goes through NMAT = 8
    // updates, each a few roundings plus expf's documented 2 ulp, so its
    // relative error stays below ~40u; discount factors and annuities (8
    // divisions / additions each) and the final 8 discounting divisions add
    // ~60u more relative to the magnitudes involved. The tolerance is 512u
    // times the magnitude of every term that enters the value before
    // cancellation (100*(B + K*S + 1) per swaption, discounted), a 5x margin
    // on that estimate; max(0, .) is 1-Lipschitz, so payoffs near the money
    // stay within it.
    const double u = kFloatUnitRoundoff;
    CheckResult r = compare_with_tolerance(
        "portfolio value per path", got, ref, [&](size_t i) { return 512.0 * u * mag[i]; },
        "|err| <= 512u * disc * sum_k 100*(B_k + K_k*S_k + 1), u = 2^-24 (first-order "
        "forward error estimate ~100u, 5x margin)");
    r.detail += " (" + std::to_string(paths_) + " paths, mean value " + fmt_num(mean) + ")";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"value", d_value_, paths_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 192;
  uint32_t paths_ = 0;
  std::vector<float> z_, l0_;
  DevicePtr d_z_ = 0, d_l0_ = 0, d_value_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("libor", Libor);

}  // namespace
}  // namespace simtlm::workloads
