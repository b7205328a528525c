// raytrace driver: a seeded scene of non-overlapping spheres (dense clusters
// plus scattered background spheres), a median-split BVH built on the host,
// and one primary ray per pixel of a pinhole camera (jittered inside the
// pixel); the kernel traces primary and shadow rays, 128 threads per CTA.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

struct Sphere {
  double x, y, z, r;
};

struct Vec {
  double x, y, z;
};
inline Vec sub(Vec a, Vec b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline double dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec axpy(double s, Vec d, Vec o) { return {o.x + s * d.x, o.y + s * d.y, o.z + s * d.z}; }

// Closest approach of the line o + t d (d of any length) to the sphere centre:
// rel = (r^2 - p^2) / r^2 (p = distance of the centre from the line; > 0: the
// line crosses the sphere), and the entry distance along d when it does.
struct LineSphere {
  double rel;    // relative discriminant
  double tc;     // parameter of the closest approach
  double t_in;   // entry parameter (valid when rel > 0)
  double t_out;  // exit parameter
};
inline LineSphere line_sphere(Vec o, Vec d, const Sphere& s) {
  const Vec c{s.x, s.y, s.z};
  const Vec oc = sub(o, c);
  const double a = dot(d, d);
  const double tc = -dot(oc, d) / a;  // parameter of the closest point
  const Vec v = axpy(tc, d, oc);      // centre -> closest point
  const double h2 = s.r * s.r - dot(v, v);
  LineSphere ls{h2 / (s.r * s.r), tc, tc, tc};
  if (h2 > 0) {
    const double h = std::sqrt(h2 / a);
    ls.t_in = tc - h;
    ls.t_out = tc + h;
  }
  return ls;
}

class RayTrace : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"raytrace",
            "BVH ray tracing of a clustered sphere scene: per-pixel primary ray (nearest hit, "
            "per-thread traversal stack) and shadow ray, 128 threads per CTA; lanes visit very "
            "different numbers of nodes",
            "divergent", "raytrace"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"raytrace", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    const bool small = size == Size::Small;
    n_spheres_ = small ? 60 : 1024;
    width_ = small ? 40 : 128;
    height_ = small ? 30 : 96;
    n_rays_ = width_ * height_;
    // The scene's half extent grows with the sphere count (same packing of
    // spheres of the same radii); camera and light are placed relative to it.
    half_ = 10.0 * std::cbrt(double(n_spheres_) / 1024.0);
    eye_[0] = 0.0f, eye_[1] = float(0.3 * half_), eye_[2] = float(-3.6 * half_);
    light_[0] = float(3.0 * half_), light_[1] = float(4.0 * half_), light_[2] = float(-2.5 * half_);
    make_scene(seed, small ? 3 : 10);
    build_bvh();
    make_rays(seed);

    std::vector<float> lo(nodes_.size() * 4), hi(nodes_.size() * 4);
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const Node& nd = nodes_[i];
      for (int c = 0; c < 3; ++c) lo[4 * i + c] = nd.lo[c], hi[4 * i + c] = nd.hi[c];
      std::memcpy(&lo[4 * i + 3], &nd.first, 4);
      std::memcpy(&hi[4 * i + 3], &nd.count, 4);
    }
    std::vector<float> sph(size_t(n_spheres_) * 4);
    for (uint32_t k = 0; k < n_spheres_; ++k) {
      const Sphere& s = spheres_[order_[k]];
      sph[4 * k] = float(s.x), sph[4 * k + 1] = float(s.y), sph[4 * k + 2] = float(s.z);
      sph[4 * k + 3] = float(s.r);
    }
    d_lo_ = dev.upload(lo);
    d_hi_ = dev.upload(hi);
    d_sph_ = dev.upload(sph);
    d_sid_ = dev.upload(order_);
    d_dirs_ = dev.upload(dirs_);
    d_id_ = dev.malloc(size_t(n_rays_) * 4);
    d_t_ = dev.malloc(size_t(n_rays_) * 4);
    d_shade_ = dev.malloc(size_t(n_rays_) * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("raytrace"), "raytrace.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(n_rays_, kBlock));
    KernelArgs args;
    args.add(d_lo_).add(d_hi_).add(d_sph_).add(d_sid_).add(d_dirs_).add(int32_t(n_rays_));
    args.add(eye_[0]).add(eye_[1]).add(eye_[2]).add(light_[0]).add(light_[1]).add(light_[2]);
    args.add(kAmbient).add(kDiffuse).add(kShadowOffset);
    args.add(d_id_).add(d_t_).add(d_shade_);
    return {dev.launch(mod, "raytrace", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<int32_t> id = dev.download<int32_t>(d_id_, n_rays_);
    const std::vector<float> t = dev.download<float>(d_t_, n_rays_);
    const std::vector<float> shade = dev.download<float>(d_shade_, n_rays_);

    // Reference: brute force over all spheres in double (no BVH), from the
    // same float camera position and ray directions.
    std::vector<int32_t> ref_id(n_rays_, -1);
    std::vector<double> ref_t(n_rays_, -1.0), tol_t(n_rays_, 0.0);
    std::vector<double> ref_shade(n_rays_, 0.0), tol_shade(n_rays_, 0.0);
    const Vec eye{double(eye_[0]), double(eye_[1]), double(eye_[2])};
    const Vec light{double(light_[0]), double(light_[1]), double(light_[2])};
    uint32_t hits = 0, lit = 0, shadowed = 0, ambiguous = 0, other_way = 0;
    for (uint32_t i = 0; i < n_rays_; ++i) {
      const Vec d{double(dirs_[4 * i]), double(dirs_[4 * i + 1]), double(dirs_[4 * i + 2])};
      const double dlen = std::sqrt(dot(d, d));
      double best = INFINITY, best_rel = 0;
      int32_t best_s = -1;
      for (uint32_t s = 0; s < n_spheres_; ++s) {
        const LineSphere ls = line_sphere(eye, d, spheres_[s]);
        if (ls.rel > 0 && ls.t_in > 0 && ls.t_in < best) {
          best = ls.t_in, best_s = int32_t(s), best_rel = ls.rel;
        }
      }
      if (best_s < 0) continue;
      ++hits;
      const Sphere& sp = spheres_[best_s];
      const double t_hit = best * dlen;  // distance along the unit ray
      ref_id[i] = best_s;
      ref_t[i] = t_hit;
      // Float error of the device's t: a few roundings of the magnitudes
      // |eye - c| + r, amplified by 1 / sqrt(rel) through the square root
      // (rel >= kGrazeMargin: setup rejected grazing rays).
      const double mag = std::sqrt(dot(sub(eye, {sp.x, sp.y, sp.z}), sub(eye, {sp.x, sp.y, sp.z})));
      tol_t[i] = kUlps * kFloatUnitRoundoff * (mag + sp.r) * (1.0 + 1.0 / std::sqrt(best_rel));
      // Shading: normal and light direction at the hit point.
      const Vec p = axpy(best, d, eye);
      const Vec n{(p.x - sp.x) / sp.r, (p.y - sp.y) / sp.r, (p.z - sp.z) / sp.r};
      Vec l = sub(light, p);
      const double dist = std::sqrt(dot(l, l));
      l = {l.x / dist, l.y / dist, l.z / dist};
      const double ndl = dot(n, l);
      // d(n.l)/dp is at most 1/r + 1/dist: the position error of p (t error
      // plus rounding of p's coordinates) moves the shade by at most this much.
      const double pos_err = tol_t[i] + kUlps * kFloatUnitRoundoff * std::sqrt(dot(p, p));
      tol_shade[i] = double(kDiffuse) * pos_err * (1.0 / sp.r + 1.0 / dist) + 1e-6;
      double value = kAmbient;
      if (ndl > 0) {
        const Vec o = axpy(double(kShadowOffset), n, p);
        // Blocked: the shadow segment crosses a sphere. A crossing or a near
        // miss within kGrazeMargin (relative discriminant) of the silhouette
        // may be decided either way in float, unless another sphere blocks
        // the segment clearly.
        bool blocked = false, clearly = false, grazing = false;
        for (uint32_t s = 0; s < n_spheres_; ++s) {
          const LineSphere ls = line_sphere(o, l, spheres_[s]);
          if (ls.rel > 0 && ls.t_out > 0 && ls.t_in < dist) {
            blocked = true;
            if (ls.rel > kGrazeMargin) clearly = true;
          }
          if (std::fabs(ls.rel) <= kGrazeMargin && ls.tc > 0 && ls.tc < dist) grazing = true;
        }
        if (!blocked) value += double(kDiffuse) * ndl;
        if (blocked) {
          ++shadowed;
        } else {
          ++lit;
        }
        ref_shade[i] = value;
        // Such an ambiguous ray is compared with the nearer of the lit and
        // the shadowed shade.
        if (grazing && !clearly) {
          ++ambiguous;
          const double alt = blocked ? kAmbient + double(kDiffuse) * ndl : double(kAmbient);
          if (std::fabs(double(shade[i]) - alt) < std::fabs(double(shade[i]) - value)) {
            ref_shade[i] = alt;
            ++other_way;
          }
        }
        continue;
      }
      ref_shade[i] = value;
    }

    CheckResult r = compare_exact("hit id", id, ref_id);
    if (!r.passed) return r;
    const CheckResult rt = compare_with_tolerance(
        "hit t", t, ref_t, [&](size_t i) { return tol_t[i]; },
        "64 float roundings of |eye - centre| + r times (1 + 1/sqrt(relative discriminant)); "
        "misses exactly -1");
    if (!rt.passed) return rt;
    const CheckResult rs = compare_with_tolerance(
        "shade", shade, ref_shade, [&](size_t i) { return tol_shade[i]; },
        "kd * (hit-point error) * (1/r + 1/light distance); lit or shadowed where the shadow "
        "ray grazes a sphere");
    if (!rs.passed) return rs;
    r.detail += "; " + rt.detail + "; " + rs.detail + " (" + std::to_string(n_rays_) + " rays, " +
                std::to_string(n_spheres_) + " spheres, " + std::to_string(nodes_.size()) +
                " BVH nodes, depth " + std::to_string(depth_) + "; " + std::to_string(hits) +
                " hits, " + std::to_string(lit) + " lit, " + std::to_string(shadowed) +
                " in shadow, " + std::to_string(ambiguous) + " grazing shadow rays (" +
                std::to_string(other_way) + " decided the other way); " +
                std::to_string(rejittered_) + " primary rays re-jittered)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"hit_id", d_id_, n_rays_, ElemType::I32},
            {"hit_t", d_t_, n_rays_, ElemType::F32},
            {"shade", d_shade_, n_rays_, ElemType::F32}};
  }

 private:
  struct Node {
    float lo[3], hi[3];
    int32_t first = 0, count = 0;
  };

  static constexpr uint32_t kBlock = 128;
  static constexpr float kAmbient = 0.1f, kDiffuse = 0.9f, kShadowOffset = 1e-3f;
  static constexpr double kHalfFov = 0.36;        // tan(vertical half field of view)
  static constexpr double kGap = 0.1;             // minimum gap between sphere surfaces
  static constexpr double kGrazeMargin = 1e-2;    // |relative discriminant| treated as grazing
  static constexpr double kUlps = 64.0;
  static constexpr uint32_t kLeafSize = 2;

  // Spheres inside [-H, H]^3: a few dense clusters (half of the attempts) and
  // a uniform background; radii in [0.2, 1], surfaces at least kGap apart
  // (rejection sampling).
  void make_scene(uint64_t seed, uint32_t clusters) {
    SplitMix64 rs(stream_seed(seed, 1));
    std::vector<Vec> centre(clusters);
    std::vector<double> spread(clusters);
    for (uint32_t c = 0; c < clusters; ++c) {
      const float h = float(0.65 * half_);
      centre[c] = {rs.uniform(-h, h), rs.uniform(-h, h), rs.uniform(-h, h)};
      spread[c] = half_ * rs.uniform(0.15f, 0.35f);
    }
    spheres_.clear();
    while (spheres_.size() < n_spheres_) {
      Sphere s{};
      s.r = rs.uniform(0.2f, 1.0f);
      if (rs.below(2) == 0) {
        const uint32_t c = rs.below(clusters);
        // Sum of two uniforms: denser towards the cluster centre.
        auto off = [&] {
          return spread[c] * (double(rs.uniform(-1, 1)) + double(rs.uniform(-1, 1))) * 0.5;
        };
        s.x = centre[c].x + off(), s.y = centre[c].y + off(), s.z = centre[c].z + off();
      } else {
        const float h = float(half_);
        s.x = rs.uniform(-h, h), s.y = rs.uniform(-h, h), s.z = rs.uniform(-h, h);
      }
      const double lim = half_ - s.r;
      if (std::fabs(s.x) > lim || std::fabs(s.y) > lim || std::fabs(s.z) > lim) continue;
      // Round to float now: device and reference see the same sphere.
      s = {double(float(s.x)), double(float(s.y)), double(float(s.z)), double(float(s.r))};
      bool ok = true;
      for (const Sphere& o : spheres_) {
        const double dx = s.x - o.x, dy = s.y - o.y, dz = s.z - o.z;
        const double m = s.r + o.r + kGap;
        if (dx * dx + dy * dy + dz * dz < m * m) {
          ok = false;
          break;
        }
      }
      if (ok) spheres_.push_back(s);
    }
  }

  // Median split on the longest axis of the centroid bounds down to leaves of
  // at most kLeafSize spheres; children of a node are allocated together.
  void build_bvh() {
    order_.resize(n_spheres_);
    for (uint32_t k = 0; k < n_spheres_; ++k) order_[k] = int32_t(k);
    nodes_.assign(1, Node{});
    depth_ = 0;
    build(0, 0, n_spheres_, 1);
    if (depth_ > 32) throw std::runtime_error("raytrace: BVH deeper than the kernel's stack");
  }

  void build(uint32_t node, uint32_t begin, uint32_t end, uint32_t level) {
    depth_ = std::max(depth_, level);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t k = begin; k < end; ++k) {
      const Sphere& s = spheres_[order_[k]];
      const double c[3] = {s.x, s.y, s.z};
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], c[a] - s.r), hi[a] = std::max(hi[a], c[a] + s.r);
        clo[a] = std::min(clo[a], c[a]), chi[a] = std::max(chi[a], c[a]);
      }
    }
    // Padded outwards so that float slab tests never cut a sphere off.
    for (int a = 0; a < 3; ++a) {
      nodes_[node].lo[a] = float(lo[a] - 1e-3);
      nodes_[node].hi[a] = float(hi[a] + 1e-3);
    }
    if (end - begin <= kLeafSize) {
      nodes_[node].first = int32_t(begin);
      nodes_[node].count = int32_t(end - begin);
      return;
    }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (chi[a] - clo[a] > chi[axis] - clo[axis]) axis = a;
    auto key = [&](int32_t s) {
      const Sphere& sp = spheres_[s];
      return axis == 0 ? sp.x : axis == 1 ? sp.y : sp.z;
    };
    // Total order (coordinate, then id): the same tree on every platform.
    std::sort(order_.begin() + begin, order_.begin() + end, [&](int32_t a, int32_t b) {
      const double ka = key(a), kb = key(b);
      return ka < kb || (ka == kb && a < b);
    });
    const uint32_t mid = begin + (end - begin) / 2;
    const uint32_t child = uint32_t(nodes_.size());
    nodes_.resize(nodes_.size() + 2);
    nodes_[node].first = int32_t(child);
    nodes_[node].count = 0;
    build(child, begin, mid, level + 1);
    build(child + 1, mid, end, level + 1);
  }

  // Pinhole camera at eye_ looking at the origin; one ray per pixel through a
  // random point of the pixel. A ray whose line passes within kGrazeMargin
  // (relative discriminant) of a sphere silhouette is re-jittered, so that
  // every primary hit/miss decision is well conditioned in float.
  void make_rays(uint64_t seed) {
    SplitMix64 rj(stream_seed(seed, 2));
    const Vec eye{eye_[0], eye_[1], eye_[2]};
    Vec fwd = sub({0, 0, 0}, eye);
    const double fl = std::sqrt(dot(fwd, fwd));
    fwd = {fwd.x / fl, fwd.y / fl, fwd.z / fl};
    // right = normalize(up x fwd) with up = +y; camera up = fwd x right.
    Vec right{fwd.z, 0.0, -fwd.x};
    const double rl = std::sqrt(dot(right, right));
    right = {right.x / rl, right.y / rl, right.z / rl};
    const Vec up{fwd.y * right.z - fwd.z * right.y, fwd.z * right.x - fwd.x * right.z,
                 fwd.x * right.y - fwd.y * right.x};
    const double aspect = double(width_) / double(height_);
    dirs_.assign(size_t(n_rays_) * 4, 0.0f);
    rejittered_ = 0;
    for (uint32_t y = 0; y < height_; ++y) {
      for (uint32_t x = 0; x < width_; ++x) {
        const uint32_t i = y * width_ + x;
        for (int attempt = 0;; ++attempt) {
          const double u = (2.0 * (x + rj.unit_float()) / width_ - 1.0) * kHalfFov * aspect;
          const double v = (1.0 - 2.0 * (y + rj.unit_float()) / height_) * kHalfFov;
          Vec d = axpy(u, right, axpy(v, up, fwd));
          const double dl = std::sqrt(dot(d, d));
          const float f[3] = {float(d.x / dl), float(d.y / dl), float(d.z / dl)};
          const Vec df{f[0], f[1], f[2]};
          bool grazing = false;
          for (const Sphere& s : spheres_) {
            const LineSphere ls = line_sphere(eye, df, s);
            if (std::fabs(ls.rel) <= kGrazeMargin) {
              grazing = true;
              break;
            }
          }
          if (grazing && attempt < 64) {
            ++rejittered_;
            continue;
          }
          dirs_[4 * i] = f[0], dirs_[4 * i + 1] = f[1], dirs_[4 * i + 2] = f[2];
          break;
        }
      }
    }
  }

  double half_ = 0;
  float eye_[3] = {0, 0, 0}, light_[3] = {0, 0, 0};
  uint32_t n_spheres_ = 0, width_ = 0, height_ = 0, n_rays_ = 0, depth_ = 0, rejittered_ = 0;
  std::vector<Sphere> spheres_;
  std::vector<int32_t> order_;  // sphere array position -> original id
  std::vector<Node> nodes_;
  std::vector<float> dirs_;
  DevicePtr d_lo_ = 0, d_hi_ = 0, d_sph_ = 0, d_sid_ = 0, d_dirs_ = 0, d_id_ = 0, d_t_ = 0,
            d_shade_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("raytrace", RayTrace);

}  // namespace
}  // namespace simtlm::workloads
