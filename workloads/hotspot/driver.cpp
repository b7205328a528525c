// hotspot driver: explicit-Euler thermal simulation of a chip on a rows x cols
// grid, one launch per time step, ping-ponging two temperature buffers.
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

// Physical setting (SI units). A 16 mm x 16 mm silicon die, 0.5 mm thick,
// dissipating 100 W in total, 45 degC ambient.
constexpr double kChipWidth = 0.016;        // m
constexpr double kChipHeight = 0.016;       // m
constexpr double kChipThickness = 0.0005;   // m
constexpr double kConductivity = 100.0;     // W/(m K), silicon
constexpr double kHeatCapacity = 1.75e6;    // J/(m^3 K), silicon, volumetric
constexpr double kChipPower = 100.0;        // W
constexpr double kAmbient = 318.15;         // K

class Hotspot : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"hotspot",
            "2-D thermal stencil (5-point, power + lateral + vertical heat flow), 16x16 "
            "shared-memory tiles with halo, one launch per time step",
            "stencil", "hotspot"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"hotspot_step", kTile * kTile, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      rows_ = 60, cols_ = 50, iterations_ = 4;  // partial tiles on both axes
    } else {
      rows_ = 512, cols_ = 512, iterations_ = 4;
    }
    const size_t cells = size_t(rows_) * cols_;

    // Power map: a random background plus six rectangular functional units
    // that are 8x denser, scaled so the die dissipates kChipPower.
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

    // Per-cell thermal model. Lateral resistance between neighbouring cell
    // centres: length / (k * cross-section); vertical resistance to ambient
    // through the die thickness; capacitance of the cell's volume.
    const double cw = kChipWidth / cols_, ch = kChipHeight / rows_;
    const double rx = cw / (kConductivity * kChipThickness * ch);
    const double ry = ch / (kConductivity * kChipThickness * cw);
    const double rz = kChipThickness / (kConductivity * cw * ch);
    const double cap = kHeatCapacity * kChipThickness * cw * ch;
    // Forward Euler keeps every weight of the update non-negative (hence is
    // stable and max-norm non-expansive) for step = dt/Cap <= 1/(2/Rx+2/Ry+1/Rz);
    // use half that limit.
    const double step = 0.5 / (2.0 / rx + 2.0 / ry + 1.0 / rz);
    dt_seconds_ = step * cap;
    step_ = float(step);
    inv_rx_ = float(1.0 / rx);
    inv_ry_ = float(1.0 / ry);
    inv_rz_ = float(1.0 / rz);
    amb_ = float(kAmbient);

    d_power_ = dev.upload(power_);
    d_temp_[0] = dev.upload(temp0_);
    d_temp_[1] = dev.malloc(cells * sizeof(float));
    dev.memset(d_temp_[1], 0, cells * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_temp_[0], temp0_.data(), temp0_.size() * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("hotspot"), "hotspot.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kTile, kTile);
    cfg.grid = Dim3(ceil_div(cols_, kTile), ceil_div(rows_, kTile));
    std::vector<LaunchStats> stats;
    for (uint32_t it = 0; it < iterations_; ++it) {
      KernelArgs args;
      args.add(d_power_).add(d_temp_[it % 2]).add(d_temp_[(it + 1) % 2]).add(int32_t(rows_))
          .add(int32_t(cols_)).add(step_).add(inv_rx_).add(inv_ry_).add(inv_rz_).add(amb_);
      stats.push_back(dev.launch(mod, "hotspot_step", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const size_t cells = size_t(rows_) * cols_;
    std::vector<float> got = dev.download<float>(result_buffer(), cells);

    // Reference: the same model in double precision with the float parameters
    // the device received, neighbours clamped at the edge (adiabatic boundary).
    std::vector<double> cur(temp0_.begin(), temp0_.end()), next(cells);
    const double s = step_, ix = inv_rx_, iy = inv_ry_, iz = inv_rz_, amb = amb_;
    auto at = [&](int64_t r, int64_t c) {
      r = std::clamp<int64_t>(r, 0, rows_ - 1);
      c = std::clamp<int64_t>(c, 0, cols_ - 1);
      return cur[size_t(r) * cols_ + size_t(c)];
    };
    for (uint32_t it = 0; it < iterations_; ++it) {
      for (int64_t r = 0; r < rows_; ++r) {
        for (int64_t c = 0; c < cols_; ++c) {
          const double t = at(r, c);
          const double flow = double(power_[size_t(r) * cols_ + size_t(c)]) +
                              (at(r, c + 1) + at(r, c - 1) - 2.0 * t) * ix +
                              (at(r + 1, c) + at(r - 1, c) - 2.0 * t) * iy + (amb - t) * iz;
          next[size_t(r) * cols_ + size_t(c)] = t + s * flow;
        }
      }
      cur.swap(next);
    }
    // Tolerance. Each float step rounds the new temperature once at ulp(T)/2
    // and the flow term adds errors that, scaled by step * 1/R (< 1/4), stay
    // below another ulp(T). Because the update's weights are non-negative and
    // sum to at most 1, earlier errors are not amplified, so after I steps
    // |err| <= I * 2 * ulp(T_max).
    double t_max = 0.0;
    for (double t : cur) t_max = std::max(t_max, std::fabs(t));
    const double ulp = std::ldexp(1.0, std::ilogb(t_max) - 23);
    const double tol = double(iterations_) * 2.0 * ulp;
    const std::string rule = "|err| <= iterations*2*ulp(T_max) = " + std::to_string(iterations_) +
                             "*2*" + fmt_num(ulp) + " K (non-expansive explicit scheme, "
                             "step = half the stability limit, dt = " + fmt_num(dt_seconds_) +
                             " s)";
    return compare_with_tolerance("temperature", got, cur, [&](size_t) { return tol; }, rule);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"temperature", result_buffer(), size_t(rows_) * cols_, ElemType::F32}};
  }

 private:
  DevicePtr result_buffer() const { return d_temp_[iterations_ % 2]; }

  static constexpr uint32_t kTile = 16;
  uint32_t rows_ = 0, cols_ = 0, iterations_ = 0;
  std::vector<float> power_, temp0_;
  float step_ = 0, inv_rx_ = 0, inv_ry_ = 0, inv_rz_ = 0, amb_ = 0;
  double dt_seconds_ = 0;
  DevicePtr d_power_ = 0, d_temp_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("hotspot", Hotspot);

}  // namespace
}  // namespace simtlm::workloads
