// convolution driver: separable 17-tap convolution of a seeded image, rows
// pass then columns pass, zero padding; filter in constant memory.
#include <cmath>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/symbol.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr int kR = 8, kTaps = 2 * kR + 1;  // = R, TAPS in kernel.cu
constexpr uint32_t kRowsX = 16, kRowsY = 4;  // = RB_X, RB_Y: rows-pass CTA shape
constexpr uint32_t kColsX = 16, kColsY = 8;  // = CB_X, CB_Y: columns-pass CTA shape

class Convolution : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"convolution",
            "CUDA-SDK-style separable convolution (17 taps): rows kernel 16x4 threads with a "
            "4x160 shared tile, columns kernel 16x8 threads with a 16x81 shared tile",
            "scratchpad-limited", "convolution"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"conv_rows", kRowsX * kRowsY, 0, true},
            {"conv_cols", kColsX * kColsY, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      w_ = 150, h_ = 70;  // partial tiles in both passes
    } else {
      w_ = 1024, h_ = 1024;
    }
    SplitMix64 ri(stream_seed(seed, 1)), rf(stream_seed(seed, 2));
    img_.resize(size_t(w_) * h_);
    for (auto& v : img_) v = ri.uniform(0.f, 1.f);
    filt_.resize(kTaps);
    for (auto& v : filt_) v = rf.uniform(-0.5f, 1.f);
    d_img_ = dev.upload(img_);
    d_tmp_ = dev.malloc(img_.size() * sizeof(float));
    d_out_ = dev.malloc(img_.size() * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_tmp_, 0, img_.size() * sizeof(float));
    dev.memset(d_out_, 0, img_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("convolution"), "convolution.ptx");
    const SymbolInfo f = module_symbol(dev, mod, "filt");
    dev.memcpy_to_device(f.ptr, filt_.data(), filt_.size() * sizeof(float));
    std::vector<LaunchStats> stats;
    LaunchConfig rows;
    rows.block = Dim3(kRowsX, kRowsY);
    rows.grid = Dim3(ceil_div(w_, 8 * kRowsX), ceil_div(h_, kRowsY));
    KernelArgs ra;
    ra.add(d_img_).add(d_tmp_).add(int32_t(w_)).add(int32_t(h_));
    stats.push_back(dev.launch(mod, "conv_rows", rows, ra));
    LaunchConfig cols;
    cols.block = Dim3(kColsX, kColsY);
    cols.grid = Dim3(ceil_div(w_, kColsX), ceil_div(h_, 8 * kColsY));
    KernelArgs ca;
    ca.add(d_tmp_).add(d_out_).add(int32_t(w_)).add(int32_t(h_));
    stats.push_back(dev.launch(mod, "conv_cols", cols, ca));
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> out = dev.download<float>(d_out_, img_.size());
    const std::vector<float> tmp = dev.download<float>(d_tmp_, img_.size());
    // Double-precision direct passes; alongside, the same passes over |f| and
    // |img| give the magnitude sums of the error bounds.
    const size_t n = img_.size();
    std::vector<double> t(n), ta(n), o(n), oa(n);
    for (int64_t y = 0; y < h_; ++y)
      for (int64_t x = 0; x < w_; ++x) {
        double s = 0, a = 0;
        for (int k = -kR; k <= kR; ++k) {
          if (x + k < 0 || x + k >= w_) continue;
          const double p = double(filt_[kR + k]) * img_[size_t(y) * w_ + size_t(x + k)];
          s += p, a += std::fabs(p);
        }
        t[size_t(y) * w_ + size_t(x)] = s, ta[size_t(y) * w_ + size_t(x)] = a;
      }
    for (int64_t y = 0; y < h_; ++y)
      for (int64_t x = 0; x < w_; ++x) {
        double s = 0, a = 0;
        for (int k = -kR; k <= kR; ++k) {
          if (y + k < 0 || y + k >= h_) continue;
          const size_t e = size_t(y + k) * w_ + size_t(x);
          s += double(filt_[kR + k]) * t[e];
          a += std::fabs(double(filt_[kR + k])) * ta[e];
        }
        o[size_t(y) * w_ + size_t(x)] = s, oa[size_t(y) * w_ + size_t(x)] = a;
      }
    // Rows: a 17-term FMA chain, |err| <= gamma_17 * sum|f img|. Columns: its
    // own gamma_17 on the (perturbed) rows results plus the propagated rows
    // error, together <= gamma_35 * sum_j |f_j| sum_i |f_i img| (Higham 3.1).
    const double g17 = gamma_n(kTaps), g35 = gamma_n(2 * kTaps + 1);
    CheckResult co = compare_with_tolerance("out (columns pass)", out, o,
                                            [&](size_t i) { return g35 * oa[i]; },
                                            "|err| <= gamma_35*sum_j|f_j| sum_i|f_i*img|");
    const CheckResult ct = compare_with_tolerance("tmp (rows pass)", tmp, t,
                                                  [&](size_t i) { return g17 * ta[i]; },
                                                  "|err| <= gamma_17*sum_i|f_i*img|");
    co.passed = co.passed && ct.passed;
    co.detail += "; " + ct.detail;
    return co;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"out", d_out_, img_.size(), ElemType::F32}, {"tmp", d_tmp_, img_.size(), ElemType::F32}};
  }

 private:
  int64_t w_ = 0, h_ = 0;
  std::vector<float> img_, filt_;
  DevicePtr d_img_ = 0, d_tmp_ = 0, d_out_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("convolution", Convolution);

}  // namespace
}  // namespace simtlm::workloads
