// stencil3d driver: Jacobi steps of the 7-point 3-D stencil, ping-ponging two
// grids; 32x16-thread CTAs each marching a column of the grid along z.
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

class Stencil3d : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"stencil3d",
            "Parboil-style 7-point 3-D Jacobi stencil, 512 threads/CTA marching 32x16 columns "
            "along z with below/current/above in registers and the plane in shared memory",
            "register-limited", "stencil3d"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"stencil3d", kTx * kTy, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      nx_ = 45, ny_ = 21, nz_ = 9, iterations_ = 2;  // partial CTAs in x and y
    } else {
      nx_ = 256, ny_ = 256, nz_ = 20, iterations_ = 2;
    }
    SplitMix64 rng(stream_seed(seed, 1));
    a0_.resize(size_t(nx_) * ny_ * nz_);
    for (auto& v : a0_) v = rng.uniform(0.f, 1.f);
    d_a_[0] = dev.upload(a0_);
    d_a_[1] = dev.malloc(a0_.size() * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_a_[0], a0_.data(), a0_.size() * sizeof(float));
    dev.memset(d_a_[1], 0, a0_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("stencil3d"), "stencil3d.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kTx, kTy);
    cfg.grid = Dim3(ceil_div(nx_, kTx), ceil_div(ny_, kTy));
    std::vector<LaunchStats> stats;
    for (uint32_t it = 0; it < iterations_; ++it) {
      KernelArgs args;
      args.add(d_a_[it % 2]).add(d_a_[(it + 1) % 2]).add(int32_t(nx_)).add(int32_t(ny_))
          .add(int32_t(nz_)).add(kC0).add(kC1);
      stats.push_back(dev.launch(mod, "stencil3d", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> got = dev.download<float>(d_a_[iterations_ % 2], a0_.size());
    std::vector<double> cur(a0_.begin(), a0_.end()), next(cur.size());
    auto at = [&](uint32_t x, uint32_t y, uint32_t z) {
      return size_t(z) * nx_ * ny_ + size_t(y) * nx_ + x;
    };
    for (uint32_t it = 0; it < iterations_; ++it) {
      for (uint32_t z = 0; z < nz_; ++z)
        for (uint32_t y = 0; y < ny_; ++y)
          for (uint32_t x = 0; x < nx_; ++x) {
            const bool boundary = x == 0 || y == 0 || z == 0 || x + 1 == nx_ || y + 1 == ny_ ||
                                  z + 1 == nz_;
            next[at(x, y, z)] =
                boundary ? cur[at(x, y, z)]
                         : double(kC0) * cur[at(x, y, z)] +
                               double(kC1) * (cur[at(x - 1, y, z)] + cur[at(x + 1, y, z)] +
                                              cur[at(x, y - 1, z)] + cur[at(x, y + 1, z)] +
                                              cur[at(x, y, z - 1)] + cur[at(x, y, z + 1)]);
          }
      cur.swap(next);
    }
    // Weights c0 = 1/4 and c1 = 1/8 are non-negative and sum to 1, so a step
    // does not amplify earlier errors and adds at most gamma_7 * max|in|
    // (5 additions, the c1 product and the c0 FMA); inputs lie in [0, 1).
    const double tol = double(iterations_) * gamma_n(7);
    return compare_with_tolerance(
        "grid", got, cur, [&](size_t) { return tol; },
        "|err| <= iterations*gamma_7*max|A0| (convex 7-point weights c0 = 1/4, c1 = 1/8; "
        "A0 in [0, 1))");
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"grid", d_a_[iterations_ % 2], a0_.size(), ElemType::F32}};
  }

 private:
  static constexpr uint32_t kTx = 32, kTy = 16;  // = TX, TY in kernel.cu: the CTA shape
  static constexpr float kC0 = 0.25f, kC1 = 0.125f;
  uint32_t nx_ = 0, ny_ = 0, nz_ = 0, iterations_ = 0;
  std::vector<float> a0_;
  DevicePtr d_a_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("stencil3d", Stencil3d);

}  // namespace
}  // namespace simtlm::workloads
