// lavamd driver: particles in a boxes^3 grid of unit boxes, Gaussian-kernel
// potential and force from the home and adjacent boxes; one 128-thread CTA
// per box with the home and neighbour particles staged in shared memory.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr float kAlpha = 0.5f;  // = ALPHA in kernel.cu
constexpr uint32_t kMaxP = 200;   // = MAXP: particles per box must not exceed it
constexpr uint32_t kBlock = 128;  // = THREADS in kernel.cu
static_assert(170 <= kMaxP && 140 <= kMaxP, "box capacity");

class LavaMd : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"lavamd",
            "lavaMD-style particle interactions: one 128-thread CTA per box stages the home "
            "box and each neighbour box (<= 200 particles, 7200 B) in shared memory",
            "scratchpad-limited", "lavamd"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"lavamd", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    uint32_t lo, hi;
    if (size == Size::Small) {
      boxes_ = 2, lo = 20, hi = 40;  // few particles (fast), but box 0 has 140 (below)
    } else {
      boxes_ = 3, lo = 40, hi = 170;  // boxes above 128 particles use the second slot
    }
    SplitMix64 rng(stream_seed(seed, 1));
    const uint32_t nbox = boxes_ * boxes_ * boxes_;
    start_.resize(nbox), count_.resize(nbox);
    for (uint32_t b = 0; b < nbox; ++b) {
      const uint32_t bx = b % boxes_, by = (b / boxes_) % boxes_, bz = b / (boxes_ * boxes_);
      start_[b] = int32_t(q_.size());
      count_[b] = int32_t(rng.range(lo, hi));
      if (size == Size::Small && b == 0) count_[b] = 140;  // exercises the second slot (t + 128)
      for (int32_t i = 0; i < count_[b]; ++i) {
        pos_.push_back(float(bx) + rng.unit_float());
        pos_.push_back(float(by) + rng.unit_float());
        pos_.push_back(float(bz) + rng.unit_float());
        pos_.push_back(0.f);
        q_.push_back(rng.uniform(0.1f, 1.f));
      }
    }
    n_ = uint32_t(q_.size());
    d_pos_ = dev.upload(pos_), d_q_ = dev.upload(q_);
    d_start_ = dev.upload(start_), d_count_ = dev.upload(count_);
    d_f_ = dev.malloc(size_t(n_) * 4 * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_f_, 0, size_t(n_) * 4 * sizeof(float));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("lavamd"), "lavamd.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(boxes_ * boxes_ * boxes_);
    KernelArgs args;
    args.add(d_pos_).add(d_q_).add(d_start_).add(d_count_).add(int32_t(boxes_)).add(d_f_);
    return {dev.launch(mod, "lavamd", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> f = dev.download<float>(d_f_, size_t(n_) * 4);
    std::vector<double> ref(f.size()), tol(f.size());
    const double u = kFloatUnitRoundoff, a = kAlpha;
    const int b = int(boxes_);
    for (int hz = 0; hz < b; ++hz)
      for (int hy = 0; hy < b; ++hy)
        for (int hx = 0; hx < b; ++hx) {
          const int home = (hz * b + hy) * b + hx;
          for (int32_t i = start_[home]; i < start_[home] + count_[home]; ++i) {
            double acc[4] = {0, 0, 0, 0}, mag[4] = {0, 0, 0, 0}, worst_rel = 0;
            uint32_t terms = 0;
            for (int dz = -1; dz <= 1; ++dz)
              for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                  const int nx = hx + dx, ny = hy + dy, nz = hz + dz;
                  if (nx < 0 || ny < 0 || nz < 0 || nx >= b || ny >= b || nz >= b) continue;
                  const int o = (nz * b + ny) * b + nx;
                  for (int32_t j = start_[o]; j < start_[o] + count_[o]; ++j) {
                    double d[3], r2 = 0;
                    for (int c = 0; c < 3; ++c) {
                      d[c] = double(pos_[4 * size_t(i) + c]) - double(pos_[4 * size_t(j) + c]);
                      r2 += d[c] * d[c];
                    }
                    const double w = std::exp(-a * r2), qw = double(q_[j]) * w;
                    acc[3] += qw, mag[3] += std::fabs(qw);
                    for (int c = 0; c < 3; ++c) {
                      acc[c] += 2 * a * qw * d[c];
                      mag[c] += std::fabs(2 * a * qw * d[c]);
                    }
                    // Relative error of one term: d (1 rounding), r2 (3 more:
                    // absolute gamma_4*r2 in the exponent, times alpha), expf
                    // (2 ulp, documented) and the products (3 roundings).
                    worst_rel = std::max(worst_rel, a * gamma_n(4) * r2 + 2 * u + gamma_n(4));
                    ++terms;
                  }
                }
            // Sum of `terms` terms: gamma_terms on the magnitudes, plus each
            // term's own relative error.
            const double rel = gamma_n(terms) + worst_rel;
            for (int c = 0; c < 4; ++c) {
              ref[4 * size_t(i) + c] = acc[c];
              tol[4 * size_t(i) + c] = rel * mag[c];
            }
          }
        }
    CheckResult r = compare_with_tolerance(
        "force/potential (x, y, z, w per particle)", f, ref, [&](size_t i) { return tol[i]; },
        "|err| <= (gamma_M + max_j(alpha*gamma_4*r2 + 2u + gamma_4)) * sum_j|term|, M = "
        "interacting particles (expf taken at its documented 2 ulp)");
    r.detail += " (" + std::to_string(n_) + " particles in " + std::to_string(boxes_ * boxes_ * boxes_) +
                " boxes)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"f", d_f_, size_t(n_) * 4, ElemType::F32}};
  }

 private:
  uint32_t boxes_ = 0, n_ = 0;
  std::vector<float> pos_, q_;
  std::vector<int32_t> start_, count_;
  DevicePtr d_pos_ = 0, d_q_ = 0, d_start_ = 0, d_count_ = 0, d_f_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("lavamd", LavaMd);

}  // namespace
}  // namespace simtlm::workloads
