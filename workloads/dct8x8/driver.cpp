// dct8x8 driver: orthonormal 8x8 DCT-II of every block of a seeded image;
// 128-thread CTAs transform 64x16-pixel regions in a shared-memory tile.
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

double dct_coef(int k, int n) {
  const double a = k == 0 ? std::sqrt(1.0 / 8.0) : 0.5;
  return a * std::cos((2.0 * n + 1.0) * k * M_PI / 16.0);
}

class Dct8x8 : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"dct8x8",
            "8x8 block DCT-II of an image: 128-thread CTAs, 64x16-pixel region in a padded "
            "shared-memory tile, row pass then column pass in place",
            "scratchpad-limited", "dct8x8"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"dct8x8", kBlockX * kBlockY, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      w_ = 136, h_ = 40;  // multiples of 8, not of the 64x16 region
    } else {
      w_ = 1024, h_ = 1024;
    }
    SplitMix64 rng(stream_seed(seed, 1));
    img_.resize(size_t(w_) * h_);
    for (auto& v : img_) v = float(rng.below(256));  // 8-bit pixel values
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n) c_[k * 8 + n] = float(dct_coef(k, n));
    d_in_ = dev.upload(img_);
    d_out_ = dev.malloc(img_.size() * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_out_, 0, img_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("dct8x8"), "dct8x8.ptx");
    const SymbolInfo sym = module_symbol(dev, mod, "dct_c");
    dev.memcpy_to_device(sym.ptr, c_, sizeof c_);
    LaunchConfig cfg;
    cfg.block = Dim3(kBlockX, kBlockY);
    cfg.grid = Dim3(ceil_div(w_, 64), ceil_div(h_, 16));
    KernelArgs args;
    args.add(d_in_).add(d_out_).add(int32_t(w_)).add(int32_t(h_));
    return {dev.launch(mod, "dct8x8", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> got = dev.download<float>(d_out_, img_.size());
    std::vector<double> ref(img_.size()), mag(img_.size());
    // Direct double-precision 2-D DCT of each block with exact cosines:
    // Y[k][l] = sum_{m,n} C[k][m] C[l][n] X[m][n].
    for (uint32_t by = 0; by < h_; by += 8)
      for (uint32_t bx = 0; bx < w_; bx += 8)
        for (int k = 0; k < 8; ++k)
          for (int l = 0; l < 8; ++l) {
            double s = 0, a = 0;
            for (int m = 0; m < 8; ++m)
              for (int n = 0; n < 8; ++n) {
                const double p = dct_coef(k, m) * dct_coef(l, n) *
                                 double(img_[size_t(by + m) * w_ + bx + n]);
                s += p, a += std::fabs(p);
              }
            ref[size_t(by + k) * w_ + bx + l] = s;
            mag[size_t(by + k) * w_ + bx + l] = a;
          }
    // Each pass is an 8-term FMA chain with coefficients rounded to float (one
    // more rounding each): the row pass is within gamma_9 of its exact value,
    // and the column pass adds its own gamma_9 on top, so
    // |err| <= gamma_18 * sum_{m,n} |C_km C_ln X_mn|.
    const double g = gamma_n(18);
    return compare_with_tolerance("coefficients", got, ref, [&](size_t i) { return g * mag[i]; },
                                  "|err| <= gamma_18*sum|C_km*C_ln*X_mn| (two 8-term passes, "
                                  "float coefficients)");
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"coefficients", d_out_, img_.size(), ElemType::F32}};
  }

 private:
  // CTA shape: 128 threads (kernel.cu assumes 128: one thread per 8-pixel segment).
  static constexpr uint32_t kBlockX = 8, kBlockY = 16;
  uint32_t w_ = 0, h_ = 0;
  float c_[64] = {};
  std::vector<float> img_;
  DevicePtr d_in_ = 0, d_out_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("dct8x8", Dct8x8);

}  // namespace
}  // namespace simtlm::workloads
