// backprop driver: one training step of an n_in -> 16 -> 1 perceptron. The GPU
// runs the input->hidden forward pass (per-CTA partial sums) and the
// input->hidden weight adjustment; the host does the rest of the step (bias,
// sigmoid, output unit, error terms), as in the classic CUDA port.
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

constexpr uint32_t kHid = 16, kCols = kHid + 1;  // = HID, WCOLS in kernel.cu
constexpr float kEta = 0.3f, kMomentum = 0.3f;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

CheckResult combine(const CheckResult& a, const CheckResult& b) {
  return {a.passed && b.passed, a.detail + "; " + b.detail};
}

class Backprop : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"backprop",
            "2-layer perceptron training step: layer-forward with a 16x16 shared-memory "
            "partial-sum tree (thread-limited) and adjust-weights with 4 rows per thread in "
            "registers (register-limited), 256 threads/CTA",
            "register-limited", "backprop"};
  }

  // The class is register-limited: bp_adjust_weights. bp_layerforward is the
  // thread-limited control of the README (limited by threads, not registers),
  // so it does not carry the class.
  std::vector<KernelShape> kernel_shapes() const override {
    return {{"bp_layerforward", kHid * kHid, 0, false},
            {"bp_adjust_weights", kHid * kHid, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    n_in_ = size == Size::Small ? 1000 : 65536;  // Small: not a multiple of 16 or 64
    SplitMix64 rx(stream_seed(seed, 1)), rw(stream_seed(seed, 2)), ro(stream_seed(seed, 3));
    input_.resize(n_in_ + 1);
    input_[0] = 1.0f;  // bias unit
    for (uint32_t i = 1; i <= n_in_; ++i) input_[i] = rx.unit_float();
    w0_.resize(size_t(n_in_ + 1) * kCols);
    dw0_.resize(w0_.size());
    for (auto& v : w0_) v = rw.uniform(-0.05f, 0.05f);
    for (auto& v : dw0_) v = ro.uniform(-0.01f, 0.01f);
    w_out_.resize(kCols);
    for (auto& v : w_out_) v = rw.uniform(-1.f, 1.f);
    target_ = 0.1f + 0.8f * rx.unit_float();
    blocks_ = ceil_div(n_in_, kHid);
    d_input_ = dev.upload(input_);
    d_w_ = dev.upload(w0_);
    d_dw_ = dev.upload(dw0_);
    d_partial_ = dev.malloc(size_t(blocks_) * kHid * sizeof(float));
    d_delta_ = dev.malloc(kCols * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_w_, w0_.data(), w0_.size() * sizeof(float));
    dev.memcpy_to_device(d_dw_, dw0_.data(), dw0_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("backprop"), "backprop.ptx");
    std::vector<LaunchStats> stats;
    {
      LaunchConfig cfg;
      cfg.block = Dim3(kHid, kHid);
      cfg.grid = Dim3(blocks_);
      KernelArgs args;
      args.add(d_input_).add(d_w_).add(d_partial_).add(int32_t(n_in_));
      stats.push_back(dev.launch(mod, "bp_layerforward", cfg, args));
    }
    // Host part of the step, in float like the device: hidden activations from
    // the partial sums, the single output unit, its error and the hidden errors.
    const std::vector<float> partial = dev.download<float>(d_partial_, size_t(blocks_) * kHid);
    std::vector<float> hidden(kCols, 1.0f);
    for (uint32_t j = 1; j <= kHid; ++j) {
      float sum = w0_[j];  // bias row
      for (uint32_t b = 0; b < blocks_; ++b) sum += partial[size_t(b) * kHid + j - 1];
      hidden[j] = sigmoid(sum);
    }
    float out_sum = w_out_[0];
    for (uint32_t j = 1; j <= kHid; ++j) out_sum += w_out_[j] * hidden[j];
    const float out = sigmoid(out_sum);
    const float out_delta = out * (1.f - out) * (target_ - out);
    delta_.assign(kCols, 0.0f);
    for (uint32_t j = 1; j <= kHid; ++j)
      delta_[j] = hidden[j] * (1.f - hidden[j]) * out_delta * w_out_[j];
    dev.memcpy_to_device(d_delta_, delta_.data(), delta_.size() * sizeof(float));
    {
      LaunchConfig cfg;
      cfg.block = Dim3(kHid, kHid);
      cfg.grid = Dim3(ceil_div(n_in_ + 1, 4 * kHid));
      KernelArgs args;
      args.add(d_delta_).add(d_input_).add(int32_t(n_in_)).add(d_w_).add(d_dw_);
      stats.push_back(dev.launch(mod, "bp_adjust_weights", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> partial = dev.download<float>(d_partial_, size_t(blocks_) * kHid);
    const std::vector<float> w = dev.download<float>(d_w_, w0_.size());
    const std::vector<float> dw = dev.download<float>(d_dw_, dw0_.size());
    // Forward partial sums: CTA b, hidden unit j sums w[i][j] x[i] over its
    // (up to) 16 inputs: 16 products and 15 additions in a tree of depth 4, so
    // |err| <= gamma_5 * sum |w x| (Higham: a depth-d tree of a product each).
    std::vector<double> pref(partial.size()), pmag(partial.size());
    for (uint32_t b = 0; b < blocks_; ++b) {
      for (uint32_t j = 1; j <= kHid; ++j) {
        double s = 0, m = 0;
        for (uint32_t i = b * kHid + 1; i <= std::min(n_in_, (b + 1) * kHid); ++i) {
          const double p = double(w0_[size_t(i) * kCols + j]) * double(input_[i]);
          s += p, m += std::fabs(p);
        }
        pref[size_t(b) * kHid + j - 1] = s, pmag[size_t(b) * kHid + j - 1] = m;
      }
    }
    const double g5 = gamma_n(5);
    CheckResult fwd = compare_with_tolerance(
        "layerforward partial sums", partial, pref, [&](size_t i) { return g5 * pmag[i]; },
        "|err| <= gamma_5*sum|w*x| (16 products summed by a depth-4 tree)");
    // Weight adjustment from the delta the device was given (column 0 is not
    // a hidden unit and stays unchanged): dw = (eta*delta_j)*x_i + mom*dw_old
    // is 3 float roundings, w + dw one more, so
    // |err(dw)| <= gamma_3*(|eta delta x| + |mom dw_old|) and
    // |err(w)| <= gamma_4*(|w| + |eta delta x| + |mom dw_old|).
    std::vector<double> wref(w.size()), dref(dw.size()), wtol(w.size()), dtol(dw.size());
    const double g3 = gamma_n(3), g4 = gamma_n(4);
    for (uint32_t i = 0; i <= n_in_; ++i) {
      for (uint32_t j = 0; j < kCols; ++j) {
        const size_t e = size_t(i) * kCols + j;
        if (j == 0) {
          wref[e] = w0_[e], dref[e] = dw0_[e], wtol[e] = dtol[e] = 0;
          continue;
        }
        const double a = double(kEta) * double(delta_[j]) * double(input_[i]);
        const double m = double(kMomentum) * double(dw0_[e]);
        dref[e] = a + m;
        wref[e] = double(w0_[e]) + dref[e];
        dtol[e] = g3 * (std::fabs(a) + std::fabs(m));
        wtol[e] = g4 * (std::fabs(double(w0_[e])) + std::fabs(a) + std::fabs(m));
      }
    }
    CheckResult wc = compare_with_tolerance("adjusted weights", w, wref,
                                            [&](size_t i) { return wtol[i]; },
                                            "|err| <= gamma_4*(|w| + |eta*delta*x| + |mom*dw_old|)");
    CheckResult dc = compare_with_tolerance("weight changes", dw, dref,
                                            [&](size_t i) { return dtol[i]; },
                                            "|err| <= gamma_3*(|eta*delta*x| + |mom*dw_old|)");
    // Put the weights first: they are the first HasOutputs buffer.
    return combine(combine(wc, dc), fwd);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"w", d_w_, w0_.size(), ElemType::F32},
            {"dw_old", d_dw_, dw0_.size(), ElemType::F32},
            {"partial", d_partial_, size_t(blocks_) * kHid, ElemType::F32}};
  }

 private:
  uint32_t n_in_ = 0, blocks_ = 0;
  float target_ = 0;
  std::vector<float> input_, w0_, dw0_, w_out_, delta_;
  DevicePtr d_input_ = 0, d_w_ = 0, d_dw_ = 0, d_partial_ = 0, d_delta_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("backprop", Backprop);

}  // namespace
}  // namespace simtlm::workloads
