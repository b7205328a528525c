// halfexit driver: fixed-point particle integration where about half of the
// particles are at rest and their threads exit at once; 256 threads per CTA.
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class HalfExit : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"halfexit",
            "fixed-point particle integration with floor/wall bounces; ~half of each warp's "
            "particles are at rest and exit immediately, 256 threads per CTA",
            "divergent", "halfexit"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"particles_step", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    n_ = size == Size::Small ? 1000 : 65536;
    // 16.16 fixed point: box 1000 units wide, heights up to 500, speeds up
    // to 8 units/step. Half the particles (coin flip each) get speeds below
    // 1/4 unit/step: at rest.
    SplitMix64 rp(stream_seed(seed, 1));
    state_.resize(size_t(n_) * 4);
    for (uint32_t i = 0; i < n_; ++i) {
      const bool rest = rp.below(2) == 0;
      const int32_t vmax = rest ? (1 << 16) / 8 : 8 << 16;
      state_[4 * i + 0] = int32_t(rp.range(0, int64_t(kWidth)));
      state_[4 * i + 1] = int32_t(rp.range(0, 500ll << 16));
      state_[4 * i + 2] = int32_t(rp.range(-vmax, vmax));
      state_[4 * i + 3] = int32_t(rp.range(-vmax, vmax));
    }
    d_in_ = dev.upload(state_);
    d_out_ = dev.malloc(state_.size() * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("halfexit"), "halfexit.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(n_, kBlock));
    KernelArgs args;
    args.add(d_in_).add(d_out_).add(int32_t(n_)).add(int32_t(kSteps)).add(int32_t(kWidth))
        .add(int32_t(kGravity)).add(int64_t(kRestEnergy));
    return {dev.launch(mod, "particles_step", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<int32_t> got = dev.download<int32_t>(d_out_, state_.size());
    std::vector<int32_t> ref(state_.size());
    uint32_t moving = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      int64_t x = state_[4 * i], y = state_[4 * i + 1], vx = state_[4 * i + 2],
              vy = state_[4 * i + 3];
      if (vx * vx + vy * vy >= kRestEnergy) {
        ++moving;
        for (uint32_t s = 0; s < kSteps; ++s) {
          vy -= kGravity;
          x += vx;
          y += vy;
          if (y < 0) y = -y, vy = -((vy * 3) / 4);  // C++ division truncates toward zero, as on the device
          if (x < 0) {
            x = -x, vx = -vx;
          } else if (x > kWidth) {
            x = 2 * int64_t(kWidth) - x, vx = -vx;
          }
        }
      }
      ref[4 * i] = int32_t(x), ref[4 * i + 1] = int32_t(y);
      ref[4 * i + 2] = int32_t(vx), ref[4 * i + 3] = int32_t(vy);
    }
    CheckResult r = compare_exact("state (x, y, vx, vy)", got, ref);
    r.detail += " (" + std::to_string(n_) + " particles, " + std::to_string(moving) + " moving, " +
                std::to_string(kSteps) + " steps)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"state", d_out_, state_.size(), ElemType::I32}};
  }

 private:
  static constexpr uint32_t kBlock = 256, kSteps = 64;
  static constexpr int32_t kWidth = 1000 << 16, kGravity = 1 << 12;  // g = 1/16 unit/step^2
  static constexpr int64_t kRestEnergy = (int64_t(1) << 14) * (int64_t(1) << 14);  // |v| < 1/4
  uint32_t n_ = 0;
  std::vector<int32_t> state_;
  DevicePtr d_in_ = 0, d_out_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("halfexit", HalfExit);

}  // namespace
}  // namespace simtlm::workloads
