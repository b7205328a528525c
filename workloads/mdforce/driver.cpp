// mdforce driver: Lennard-Jones forces over a CSR neighbour list (cutoff plus
// skin) for atoms in a periodic box holding liquid droplets in a dilute gas,
// one thread per atom, 128 threads per CTA.
#include <algorithm>
#include <cmath>
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

// Half a unit in the last place of a float of magnitude |x| (x a float value):
// the largest rounding error of a float operation whose result is x.
inline double half_ulp_f(double x) {
  const double a = std::fabs(x);
  if (a == 0) return 0;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 25);
}

class MdForce : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"mdforce",
            "Lennard-Jones neighbour-list force loop (CoMD-style), liquid droplets in a gas: "
            "one thread per atom walks its 2..~90 neighbours with a cutoff branch, 128 threads "
            "per CTA",
            "divergent", "mdforce"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"lj_force", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    const bool small = size == Size::Small;
    box_ = small ? 14.0f : 40.0f;
    make_atoms(seed, small ? 4 : 82);
    build_neighbour_list();
    d_pos_ = dev.upload(pos_);
    d_row_ = dev.upload(row_start_);
    d_nbr_ = dev.upload(nbr_);
    d_out_ = dev.malloc(size_t(n_) * 16);
    d_pairs_ = dev.malloc(size_t(n_) * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("mdforce"), "mdforce.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(n_, kBlock));
    KernelArgs args;
    args.add(d_pos_).add(d_row_).add(d_nbr_).add(int32_t(n_)).add(box_).add(1.0f / box_);
    args.add(kCutoff * kCutoff).add(float(lj_energy(double(kCutoff) * kCutoff)));
    args.add(d_out_).add(d_pairs_);
    return {dev.launch(mod, "lj_force", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> out = dev.download<float>(d_out_, size_t(n_) * 4);
    const std::vector<uint32_t> pairs = dev.download<uint32_t>(d_pairs_, n_);

    // Reference: all pairs (i < j) within the cutoff by the minimum-image
    // convention, in double, without the neighbour list. Alongside, a bound
    // on the device's float error per atom (see the tolerance text).
    const double L = box_, rc2 = double(kCutoff) * kCutoff;
    const double vrc = lj_energy(rc2);
    std::vector<double> f(size_t(n_) * 4, 0.0), tol(size_t(n_) * 4, 0.0);
    std::vector<double> cnt(n_, 0.0), tol_cnt(n_, 0.0);
    std::vector<double> mag_f(n_, 0.0), mag_e(n_, 0.0);
    uint64_t total_pairs = 0, edge_pairs = 0;
    std::vector<double> px(n_), py(n_), pz(n_);
    for (uint32_t i = 0; i < n_; ++i)
      px[i] = pos_[4 * i], py[i] = pos_[4 * i + 1], pz[i] = pos_[4 * i + 2];
    const double reach = std::sqrt(rc2 + 1e-3);
    auto image = [L](double v) { return v > 0.5 * L ? v - L : v < -0.5 * L ? v + L : v; };
    for (uint32_t i = 0; i < n_; ++i) {
      const double xi = px[i], yi = py[i], zi = pz[i];
      for (uint32_t j = i + 1; j < n_; ++j) {
        double d[3];
        d[0] = image(xi - px[j]);
        if (std::fabs(d[0]) > reach) continue;
        d[1] = image(yi - py[j]);
        if (std::fabs(d[1]) > reach) continue;
        d[2] = image(zi - pz[j]);
        const double raw[3] = {xi - px[j], yi - py[j], zi - pz[j]};
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (r2 > rc2 + 1e-3) continue;  // far beyond any rounding margin below
        // The device rounds x_i - x_j once (the periodic shift is then exact).
        double delta2 = 0;
        for (int c = 0; c < 3; ++c) delta2 += half_ulp_f(raw[c]) * half_ulp_f(raw[c]);
        const double delta = std::sqrt(delta2);  // |error of the float displacement|
        const double r = std::sqrt(r2);
        // Float r^2 is within 2 r delta + 4 u r^2 of r2: pairs closer than
        // four times that to the cutoff may be counted either way.
        const double margin = 4.0 * (2.0 * r * delta + 4.0 * kFloatUnitRoundoff * r2);
        const bool edge = std::fabs(r2 - rc2) <= margin;
        if (r2 >= rc2 && !edge) continue;
        const double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
        const double mag = 24.0 * ir6 * (2.0 * ir6 + 1.0) * ir2 * r;    // 24(2 r^-13 + r^-7)
        // |d(f(r) d)/dd| <= |f| + r |f'(r)| <= 24(30 r^-14 + 9 r^-8).
        const double jac = 24.0 * ir6 * (30.0 * ir6 + 9.0) * ir2;
        const double emag = 4.0 * ir6 * (ir6 + 1.0) + std::fabs(vrc);
        const double v = lj_energy(r2) - vrc;
        // Per-pair device error: displacement error times the Jacobian, plus
        // 16 roundings of the cancellation-free magnitudes.
        const double ferr = jac * delta + 16.0 * kFloatUnitRoundoff * mag;
        const double eerr = 0.5 * (mag * delta + 16.0 * kFloatUnitRoundoff * emag);
        for (uint32_t at : {i, j}) {
          tol[4 * at] += ferr, tol[4 * at + 1] += ferr, tol[4 * at + 2] += ferr;
          tol[4 * at + 3] += eerr;
          mag_f[at] += mag;
          mag_e[at] += 0.5 * emag;
        }
        if (edge) {
          // Either outcome is accepted: the force term's size and one count.
          ++edge_pairs;
          const double fe = mag + ferr, ee = 0.5 * std::fabs(v) + eerr;
          for (uint32_t at : {i, j}) {
            tol[4 * at] += fe, tol[4 * at + 1] += fe, tol[4 * at + 2] += fe;
            tol[4 * at + 3] += ee;
            tol_cnt[at] += 1.0;
          }
          if (r2 >= rc2) continue;
        }
        ++total_pairs;
        const double fs = 24.0 * ir6 * (2.0 * ir6 - 1.0) * ir2;
        for (int c = 0; c < 3; ++c) {
          f[4 * i + c] += fs * d[c];
          f[4 * j + c] -= fs * d[c];
        }
        f[4 * i + 3] += 0.5 * v;
        f[4 * j + 3] += 0.5 * v;
        cnt[i] += 1.0, cnt[j] += 1.0;
      }
    }
    // Float summation of up to n terms in any order: gamma_n * sum |terms|.
    for (uint32_t i = 0; i < n_; ++i) {
      const double g = gamma_n(double(row_start_[i + 1] - row_start_[i]) + 1.0);
      for (int c = 0; c < 3; ++c) tol[4 * i + c] = 2.0 * (tol[4 * i + c] + g * mag_f[i]);
      tol[4 * i + 3] = 2.0 * (tol[4 * i + 3] + g * mag_e[i]);
    }

    CheckResult r = compare_with_tolerance(
        "force and energy (fx, fy, fz, e)", out, f, [&](size_t k) { return tol[k]; },
        "2x the sum over the atom's pairs of (|d force/d displacement| * float displacement "
        "error + 16 roundings of the cancellation-free pair term) plus gamma_n * sum |terms|; "
        "pairs within rounding of the cutoff may be in or out");
    if (!r.passed) return r;
    std::vector<uint32_t> got_cnt = pairs;
    const CheckResult rc = compare_with_tolerance(
        "pairs within cutoff", got_cnt, cnt, [&](size_t k) { return tol_cnt[k]; },
        "exact, except +-1 per pair within rounding of the cutoff");
    if (!rc.passed) return rc;
    uint32_t most = 0, fewest = ~0u;
    for (uint32_t i = 0; i < n_; ++i) {
      const uint32_t c = uint32_t(row_start_[i + 1] - row_start_[i]);
      most = std::max(most, c), fewest = std::min(fewest, c);
    }
    r.detail += "; " + rc.detail + " (" + std::to_string(n_) + " atoms, " +
                std::to_string(nbr_.size()) + " listed neighbours, " + std::to_string(fewest) +
                ".." + std::to_string(most) + " per atom, " + std::to_string(total_pairs) +
                " pairs within cutoff, " + std::to_string(edge_pairs) + " at the cutoff edge)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"force_energy", d_out_, size_t(n_) * 4, ElemType::F32},
            {"pairs", d_pairs_, n_, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kBlock = 128;
  static constexpr float kCutoff = 2.5f, kSkin = 0.3f;
  static constexpr double kMinSep = 0.85;      // closest approach of generated atoms
  static constexpr double kLiquid = 0.75, kGas = 0.08;  // number densities
  static constexpr double kPi = 3.14159265358979323846;

  static double lj_energy(double r2) {
    const double ir6 = 1.0 / (r2 * r2 * r2);
    return 4.0 * ir6 * (ir6 - 1.0);
  }

  double wrap(double x) const {
    const double L = box_;
    x = std::fmod(x, L);
    if (x < 0) x += L;
    return x;
  }

  // Droplets (radius 2.5..4.5, liquid density, may overlap) in a gas of low
  // density filling the rest of the box; no two atoms closer than kMinSep
  // (random sequential addition on a grid). The atoms are then put in a
  // seeded random order, so a warp mixes liquid and gas atoms.
  void make_atoms(uint64_t seed, uint32_t droplets) {
    SplitMix64 rg(stream_seed(seed, 1));
    const double L = box_;
    const int ng = std::max(1, int(L / 1.0));  // grid cells of >= 1.0 > kMinSep
    const double cell = L / ng;
    std::vector<std::vector<uint32_t>> grid(size_t(ng) * ng * ng);
    std::vector<double> xyz;
    auto cell_of = [&](double v) { return std::min(ng - 1, int(v / cell)); };
    auto min_image = [&](double d) { return d > 0.5 * L ? d - L : d < -0.5 * L ? d + L : d; };
    auto try_add = [&](double x, double y, double z) {
      // Positions are stored as floats: test and store the float values.
      float fx = float(wrap(x)), fy = float(wrap(y)), fz = float(wrap(z));
      if (double(fx) >= L) fx = 0.0f;
      if (double(fy) >= L) fy = 0.0f;
      if (double(fz) >= L) fz = 0.0f;
      const int cx = cell_of(fx), cy = cell_of(fy), cz = cell_of(fz);
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int c = -1; c <= 1; ++c) {
            const size_t g = (size_t((cx + a + ng) % ng) * ng + (cy + b + ng) % ng) * ng +
                             (cz + c + ng) % ng;
            for (uint32_t k : grid[g]) {
              const double dx = min_image(fx - xyz[3 * k]), dy = min_image(fy - xyz[3 * k + 1]),
                           dz = min_image(fz - xyz[3 * k + 2]);
              if (dx * dx + dy * dy + dz * dz < kMinSep * kMinSep) return false;
            }
          }
      grid[(size_t(cx) * ng + cy) * ng + cz].push_back(uint32_t(xyz.size() / 3));
      xyz.push_back(fx), xyz.push_back(fy), xyz.push_back(fz);
      return true;
    };
    struct Drop {
      double x, y, z, r;
    };
    std::vector<Drop> drops(droplets);
    for (Drop& d : drops) {
      d = {rg.uniform(0, float(L)), rg.uniform(0, float(L)), rg.uniform(0, float(L)),
           rg.uniform(2.5f, 4.5f)};
      const uint32_t want = uint32_t(kLiquid * 4.0 / 3.0 * kPi * d.r * d.r * d.r);
      for (uint32_t k = 0; k < want; ++k) {
        for (int attempt = 0; attempt < 64; ++attempt) {
          const double x = rg.uniform(-1, 1), y = rg.uniform(-1, 1), z = rg.uniform(-1, 1);
          if (x * x + y * y + z * z > 1.0) continue;
          if (try_add(d.x + d.r * x, d.y + d.r * y, d.z + d.r * z)) break;
        }
      }
    }
    const uint32_t gas = uint32_t(kGas * L * L * L);
    for (uint32_t k = 0; k < gas; ++k) {
      for (int attempt = 0; attempt < 64; ++attempt) {
        const double x = rg.uniform(0, float(L)), y = rg.uniform(0, float(L)),
                     z = rg.uniform(0, float(L));
        bool in_drop = false;
        for (const Drop& d : drops) {
          const double dx = min_image(x - d.x), dy = min_image(y - d.y), dz = min_image(z - d.z);
          if (dx * dx + dy * dy + dz * dz < d.r * d.r) {
            in_drop = true;
            break;
          }
        }
        if (in_drop) continue;
        if (try_add(x, y, z)) break;
      }
    }
    n_ = uint32_t(xyz.size() / 3);
    // Fisher-Yates with the seeded stream.
    std::vector<uint32_t> perm(n_);
    for (uint32_t k = 0; k < n_; ++k) perm[k] = k;
    SplitMix64 rp(stream_seed(seed, 2));
    for (uint32_t k = n_; k > 1; --k) std::swap(perm[k - 1], perm[rp.below(k)]);
    pos_.assign(size_t(n_) * 4, 0.0f);
    for (uint32_t k = 0; k < n_; ++k)
      for (int c = 0; c < 3; ++c) pos_[4 * k + c] = float(xyz[3 * perm[k] + c]);
  }

  // Full (both directions) neighbour list within cutoff + skin via link cells
  // of at least that size; each row sorted by atom index.
  void build_neighbour_list() {
    const double L = box_, reach = double(kCutoff) + kSkin;
    const int nc = int(L / reach);  // >= 3: the 27 cells around a cell are distinct
    const double cell = L / nc;
    std::vector<std::vector<uint32_t>> cells(size_t(nc) * nc * nc);
    auto cell_of = [&](double v) { return std::min(nc - 1, int(v / cell)); };
    for (uint32_t i = 0; i < n_; ++i)
      cells[(size_t(cell_of(pos_[4 * i])) * nc + cell_of(pos_[4 * i + 1])) * nc +
            cell_of(pos_[4 * i + 2])]
          .push_back(i);
    row_start_.assign(n_ + 1, 0);
    nbr_.clear();
    std::vector<int32_t> row;
    for (uint32_t i = 0; i < n_; ++i) {
      row.clear();
      const int cx = cell_of(pos_[4 * i]), cy = cell_of(pos_[4 * i + 1]),
                cz = cell_of(pos_[4 * i + 2]);
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int c = -1; c <= 1; ++c) {
            const size_t g = (size_t((cx + a + nc) % nc) * nc + (cy + b + nc) % nc) * nc +
                             (cz + c + nc) % nc;
            for (uint32_t j : cells[g]) {
              if (j == i) continue;
              double r2 = 0;
              for (int k = 0; k < 3; ++k) {
                double d = double(pos_[4 * i + k]) - double(pos_[4 * j + k]);
                d = d > 0.5 * L ? d - L : d < -0.5 * L ? d + L : d;
                r2 += d * d;
              }
              if (r2 < reach * reach) row.push_back(int32_t(j));
            }
          }
      std::sort(row.begin(), row.end());
      nbr_.insert(nbr_.end(), row.begin(), row.end());
      row_start_[i + 1] = int32_t(nbr_.size());
    }
  }

  float box_ = 0;
  uint32_t n_ = 0;
  std::vector<float> pos_;  // x, y, z, 0 per atom
  std::vector<int32_t> row_start_, nbr_;
  DevicePtr d_pos_ = 0, d_row_ = 0, d_nbr_ = 0, d_out_ = 0, d_pairs_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("mdforce", MdForce);

}  // namespace
}  // namespace simtlm::workloads
