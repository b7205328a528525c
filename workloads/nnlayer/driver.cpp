// nnlayer driver: fully connected layer forward pass with a logistic
// activation for a batch of samples; 64 threads per CTA.
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

class NnLayer : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"nnlayer",
            "fully connected layer y = sigmoid(W^T x + b) for a batch, one thread per "
            "(sample, neuron), 64-thread CTAs (CTA-slot-limited)",
            "thread-limited", "nnlayer"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"nn_layer_forward", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      nin_ = 50, nout_ = 70, batch_ = 9;  // 2 neuron groups per sample, the second partial
    } else {
      nin_ = 256, nout_ = 128, batch_ = 256;
    }
    SplitMix64 rx(stream_seed(seed, 1)), rw(stream_seed(seed, 2)), rb(stream_seed(seed, 3));
    x_.resize(size_t(batch_) * nin_);
    w_.resize(size_t(nin_) * nout_);
    b_.resize(nout_);
    for (auto& v : x_) v = rx.uniform(0.f, 1.f);
    // Weights scaled by 1/sqrt(nin) so the pre-activations stay in the sigmoid's range.
    const float scale = 2.0f / std::sqrt(float(nin_));
    for (auto& v : w_) v = rw.uniform(-1.f, 1.f) * scale;
    for (auto& v : b_) v = rb.uniform(-0.5f, 0.5f);
    d_x_ = dev.upload(x_);
    d_w_ = dev.upload(w_);
    d_b_ = dev.upload(b_);
    d_y_ = dev.malloc(size_t(batch_) * nout_ * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("nnlayer"), "nnlayer.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(nout_, kBlock), batch_);
    KernelArgs args;
    args.add(d_x_).add(d_w_).add(d_b_).add(d_y_).add(int32_t(nin_)).add(int32_t(nout_));
    return {dev.launch(mod, "nn_layer_forward", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> y = dev.download<float>(d_y_, size_t(batch_) * nout_);
    std::vector<double> ref(y.size()), tol(y.size());
    const double g = gamma_n(double(nin_) + 1.0);
    for (uint32_t s = 0; s < batch_; ++s)
      for (uint32_t o = 0; o < nout_; ++o) {
        double acc = b_[o], mag = std::fabs(double(b_[o]));
        for (uint32_t i = 0; i < nin_; ++i) {
          const double p = double(w_[size_t(i) * nout_ + o]) * double(x_[size_t(s) * nin_ + i]);
          acc += p;
          mag += std::fabs(p);
        }
        const double r = 1.0 / (1.0 + std::exp(-acc));
        ref[size_t(s) * nout_ + o] = r;
        // The pre-activation is a float chain of nin + 1 roundings:
        // |err| <= gamma_{nin+1} * (|b| + sum |w x|). The sigmoid's slope is at
        // most 1/4; expf (2 ulp), the addition and the reciprocal add at most
        // ~4 ulp relative to y <= 1, covered by 8 * 2^-24.
        tol[size_t(s) * nout_ + o] = 0.25 * g * mag + 8.0 * kFloatUnitRoundoff;
      }
    CheckResult c = compare_with_tolerance(
        "y", y, ref, [&](size_t i) { return tol[i]; },
        "0.25*gamma_{nin+1}*(|b|+sum|w x|) + 8u (dot-product bound through the sigmoid's "
        "slope <= 1/4, plus expf/add/reciprocal rounding)");
    c.detail += " (" + std::to_string(batch_) + " samples, " + std::to_string(nin_) + " -> " +
                std::to_string(nout_) + ")";
    return c;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"y", d_y_, size_t(batch_) * nout_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 64;
  uint32_t nin_ = 0, nout_ = 0, batch_ = 0;
  std::vector<float> x_, w_, b_;
  DevicePtr d_x_ = 0, d_w_ = 0, d_b_ = 0, d_y_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("nnlayer", NnLayer);

}  // namespace
}  // namespace simtlm::workloads
