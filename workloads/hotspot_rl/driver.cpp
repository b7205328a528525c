// hotspot_rl driver: the thermal model of `hotspot` advanced two time steps
// per launch with temporal blocking (16x32-cell regions, 12x28 stored).
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

// Same die as `hotspot`: 16 mm x 16 mm x 0.5 mm silicon, 100 W, 45 degC ambient.
constexpr double kChipWidth = 0.016, kChipHeight = 0.016, kChipThickness = 0.0005;  // m
constexpr double kConductivity = 100.0;   // W/(m K)
constexpr double kHeatCapacity = 1.75e6;  // J/(m^3 K)
constexpr double kChipPower = 100.0;      // W
constexpr double kAmbient = 318.15;       // K

class HotspotRl : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"hotspot_rl",
            "2-D thermal stencil with temporal blocking: 2 time steps per launch, 16x16 "
            "threads each holding 2 cells (T, P, coefficients, edge masks) in registers",
            "register-limited", "hotspot_rl"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"hotspot_rl", kBlockX * kBlockY, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      rows_ = 70, cols_ = 45, iterations_ = 5;  // partial regions; last launch does 1 step
    } else {
      rows_ = 512, cols_ = 512, iterations_ = 6;
    }
    const size_t cells = size_t(rows_) * cols_;
    // Power: random background plus six rectangular units 8x denser, normalised.
    SplitMix64 rp(stream_seed(seed, 1)), rt(stream_seed(seed, 2));
    std::vector<double> weight(cells);
    for (auto& w : weight) w = double(rp.unit_float());
    for (int unit = 0; unit < 6; ++unit) {
      const uint32_t h = uint32_t(rp.range(rows_ / 16 + 1, rows_ / 6 + 1));
      const uint32_t w = uint32_t(rp.range(cols_ / 16 + 1, cols_ / 6 + 1));
      const uint32_t r0 = rp.below(rows_ - h + 1), c0 = rp.below(cols_ - w + 1);
      for (uint32_t r = r0; r < r0 + h; ++r)
        for (uint32_t c = c0; c < c0 + w; ++c) weight[size_t(r) * cols_ + c] += 8.0;
    }
    double total = 0.0;
    for (double w : weight) total += w;
    power_.resize(cells);
    for (size_t i = 0; i < cells; ++i) power_[i] = float(kChipPower * weight[i] / total);
    temp0_.resize(cells);
    for (auto& t : temp0_) t = rt.uniform(323.15f, 343.15f);

    const double cw = kChipWidth / cols_, ch = kChipHeight / rows_;
    const double rx = cw / (kConductivity * kChipThickness * ch);
    const double ry = ch / (kConductivity * kChipThickness * cw);
    const double rz = kChipThickness / (kConductivity * cw * ch);
    const double cap = kHeatCapacity * kChipThickness * cw * ch;
    const double step = 0.5 / (2.0 / rx + 2.0 / ry + 1.0 / rz);  // half the stability limit
    dt_seconds_ = step * cap;
    step_ = float(step), inv_rx_ = float(1.0 / rx), inv_ry_ = float(1.0 / ry);
    inv_rz_ = float(1.0 / rz), amb_ = float(kAmbient);

    d_power_ = dev.upload(power_);
    d_temp_[0] = dev.upload(temp0_);
    d_temp_[1] = dev.malloc(cells * sizeof(float));
    dev.memset(d_temp_[1], 0, cells * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_temp_[0], temp0_.data(), temp0_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("hotspot_rl"), "hotspot_rl.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlockX, kBlockY);
    cfg.grid = Dim3(ceil_div(cols_, kOutW), ceil_div(rows_, kOutH));
    std::vector<LaunchStats> stats;
    launches_ = 0;
    for (uint32_t done = 0; done < iterations_; done += kPyr, ++launches_) {
      const int32_t steps = int32_t(std::min(kPyr, iterations_ - done));
      KernelArgs args;
      args.add(d_power_).add(d_temp_[launches_ % 2]).add(d_temp_[(launches_ + 1) % 2])
          .add(int32_t(rows_)).add(int32_t(cols_)).add(steps).add(step_).add(inv_rx_)
          .add(inv_ry_).add(inv_rz_).add(amb_);
      stats.push_back(dev.launch(mod, "hotspot_rl", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const size_t cells = size_t(rows_) * cols_;
    std::vector<float> got = dev.download<float>(result_buffer(), cells);
    // Reference: plain double-precision sweeps, one per time step, with the
    // float parameters the device received.
    std::vector<double> cur(temp0_.begin(), temp0_.end()), next(cells);
    const double s = step_, ix = inv_rx_, iy = inv_ry_, iz = inv_rz_, amb = amb_;
    for (uint32_t it = 0; it < iterations_; ++it) {
      for (uint32_t r = 0; r < rows_; ++r) {
        for (uint32_t c = 0; c < cols_; ++c) {
          const double t = cur[size_t(r) * cols_ + c];
          const double w = c > 0 ? cur[size_t(r) * cols_ + c - 1] : t;
          const double e = c + 1 < cols_ ? cur[size_t(r) * cols_ + c + 1] : t;
          const double n = r > 0 ? cur[size_t(r - 1) * cols_ + c] : t;
          const double so = r + 1 < rows_ ? cur[size_t(r + 1) * cols_ + c] : t;
          next[size_t(r) * cols_ + c] =
              t + s * (double(power_[size_t(r) * cols_ + c]) + (e + w - 2.0 * t) * ix +
                       (n + so - 2.0 * t) * iy + (amb - t) * iz);
        }
      }
      cur.swap(next);
    }
    // Each step rounds the new temperature once (ulp/2) and the flow term,
    // scaled by step/R < 1/4, adds less than another ulp; the update's
    // weights are non-negative and sum to at most 1 (step = half the stability
    // limit), so earlier errors are not amplified: |err| <= steps * 2 ulp(T_max).
    double t_max = 0.0;
    for (double t : cur) t_max = std::max(t_max, std::fabs(t));
    const double ulp = std::ldexp(1.0, std::ilogb(t_max) - 23);
    const double tol = double(iterations_) * 2.0 * ulp;
    const std::string rule = "|err| <= steps*2*ulp(T_max) = " + std::to_string(iterations_) +
                             "*2*" + fmt_num(ulp) + " K (non-expansive explicit scheme, dt = " +
                             fmt_num(dt_seconds_) + " s, " + std::to_string(launches_) +
                             " launches)";
    return compare_with_tolerance("temperature", got, cur, [&](size_t) { return tol; }, rule);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"temperature", result_buffer(), size_t(rows_) * cols_, ElemType::F32}};
  }

 private:
  DevicePtr result_buffer() const { return d_temp_[ceil_div(iterations_, kPyr) % 2]; }

  static constexpr uint32_t kPyr = 2, kOutW = 12, kOutH = 28;  // = PYR, OUT_W, OUT_H
  static constexpr uint32_t kBlockX = 16, kBlockY = 16;  // CTA shape: TW x TH/2 (2 cells per thread)
  uint32_t rows_ = 0, cols_ = 0, iterations_ = 0, launches_ = 0;
  std::vector<float> power_, temp0_;
  float step_ = 0, inv_rx_ = 0, inv_ry_ = 0, inv_rz_ = 0, amb_ = 0;
  double dt_seconds_ = 0;
  DevicePtr d_power_ = 0, d_temp_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("hotspot_rl", HotspotRl);

}  // namespace
}  // namespace simtlm::workloads
