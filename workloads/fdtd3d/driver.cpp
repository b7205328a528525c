// fdtd3d driver: radius-4 3-D stencil steps (FDTD3d-style), ping-ponging two
// grids; 16x8-thread CTAs march columns along z with a double-buffered
// shared-memory plane tile and a register window of 9 planes.
#include <algorithm>
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

constexpr int kRad = 4;  // = RAD in kernel.cu
constexpr uint32_t kTx = 16, kTy = 8;  // = TX, TY in kernel.cu: the CTA shape

class Fdtd3d : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"fdtd3d",
            "FDTD3d-style radius-4 3-D stencil: 16x8-thread CTAs march along z with a 9-plane "
            "register window and a double-buffered 16x24 shared plane tile (3 KB)",
            "scratchpad-limited", "fdtd3d"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"fdtd3d", kTx * kTy, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      nx_ = 37, ny_ = 21, nz_ = 14, steps_ = 2;  // partial CTAs in x and y
    } else {
      nx_ = 128, ny_ = 128, nz_ = 40, steps_ = 2;
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
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("fdtd3d"), "fdtd3d.ptx");
    const SymbolInfo sym = module_symbol(dev, mod, "coef");
    dev.memcpy_to_device(sym.ptr, kCoef, sizeof kCoef);
    LaunchConfig cfg;
    cfg.block = Dim3(kTx, kTy);
    cfg.grid = Dim3(ceil_div(nx_, kTx), ceil_div(ny_, kTy));
    std::vector<LaunchStats> stats;
    for (uint32_t s = 0; s < steps_; ++s) {
      KernelArgs args;
      args.add(d_a_[s % 2]).add(d_a_[(s + 1) % 2]).add(int32_t(nx_)).add(int32_t(ny_))
          .add(int32_t(nz_));
      stats.push_back(dev.launch(mod, "fdtd3d", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> got = dev.download<float>(d_a_[steps_ % 2], a0_.size());
    std::vector<double> cur(a0_.begin(), a0_.end()), next(cur.size());
    const int64_t nx = nx_, ny = ny_, nz = nz_;
    auto at = [&](int64_t x, int64_t y, int64_t z) { return size_t((z * ny + y) * nx + x); };
    for (uint32_t s = 0; s < steps_; ++s) {
      for (int64_t z = 0; z < nz; ++z)
        for (int64_t y = 0; y < ny; ++y)
          for (int64_t x = 0; x < nx; ++x) {
            const bool interior = x >= kRad && x < nx - kRad && y >= kRad && y < ny - kRad &&
                                  z >= kRad && z < nz - kRad;
            if (!interior) {
              next[at(x, y, z)] = cur[at(x, y, z)];
              continue;
            }
            double v = double(kCoef[0]) * cur[at(x, y, z)];
            for (int k = 1; k <= kRad; ++k)
              v += double(kCoef[k]) * (cur[at(x - k, y, z)] + cur[at(x + k, y, z)] +
                                       cur[at(x, y - k, z)] + cur[at(x, y + k, z)] +
                                       cur[at(x, y, z - k)] + cur[at(x, y, z + k)]);
            next[at(x, y, z)] = v;
          }
      cur.swap(next);
    }
    // Non-negative coefficients summing to 1 (0.4 + 6*(0.04+0.03+0.02+0.01)):
    // a step does not amplify earlier errors and adds at most gamma_26 * max|in|
    // (per radius 5 additions and an FMA, 4 radii, the centre product); inputs
    // lie in [0, 1).
    const double tol = double(steps_) * gamma_n(26);
    return compare_with_tolerance("grid", got, cur, [&](size_t) { return tol; },
                                  "|err| <= steps*gamma_26*max|A0| (convex radius-4 weights, "
                                  "A0 in [0, 1))");
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"grid", d_a_[steps_ % 2], a0_.size(), ElemType::F32}};
  }

 private:
  static constexpr float kCoef[kRad + 1] = {0.4f, 0.04f, 0.03f, 0.02f, 0.01f};
  uint32_t nx_ = 0, ny_ = 0, nz_ = 0, steps_ = 0;
  std::vector<float> a0_;
  DevicePtr d_a_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("fdtd3d", Fdtd3d);

}  // namespace
}  // namespace simtlm::workloads
