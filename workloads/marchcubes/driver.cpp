// marchcubes driver: marching-cubes triangles of the iso-surface of a seeded
// metaball field sampled on a grid. mc_classify counts the vertices of every
// voxel; the host compacts the voxels that have triangles and scans their
// counts; mc_generate (32-thread CTAs, per-thread edge vertices and normals
// in 9,216 B of shared memory) writes the triangles. The case table is
// derived here from the cube's topology (see build_case_tables).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
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

constexpr uint32_t kClassifyThreads = 128;
constexpr uint32_t kGenerateThreads = 32;  // = MC_THREADS in kernel.cu
constexpr uint32_t kTriRow = 24;           // = MC_TRI_ROW in kernel.cu

// ---- Cube topology (the numbering kernel.cu documents) ----

struct Vec3 {
  double x = 0, y = 0, z = 0;
};
Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Corner k at ((k ^ k >> 1) & 1, k >> 1 & 1, k >> 2 & 1): 0-3 counter-clockwise
// around the bottom face seen from above, 4-7 above them.
std::array<int, 3> corner_offset(int k) { return {(k ^ (k >> 1)) & 1, (k >> 1) & 1, (k >> 2) & 1}; }
Vec3 corner_pos(int k) {
  const auto o = corner_offset(k);
  return {double(o[0]), double(o[1]), double(o[2])};
}
// Edges 0-3: bottom face k -> k+1 (mod 4); 4-7: the same on top; 8-11: k -> k+4.
std::array<int, 2> edge_corners(int e) {
  if (e < 8) return {(e & 3) + (e & 4), ((e + 1) & 3) + (e & 4)};
  return {e - 8, e - 4};
}
int edge_between(int a, int b) {
  for (int e = 0; e < 12; ++e) {
    const auto c = edge_corners(e);
    if ((c[0] == a && c[1] == b) || (c[0] == b && c[1] == a)) return e;
  }
  throw std::logic_error("marchcubes: corners are not adjacent");
}
Vec3 edge_mid(int e) {
  const auto c = edge_corners(e);
  const Vec3 a = corner_pos(c[0]), b = corner_pos(c[1]);
  return {(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
}

struct CaseTables {
  std::vector<uint32_t> verts;  // 256 vertex counts (3 per triangle)
  std::vector<int32_t> tris;    // 256 x kTriRow edge numbers, -1 after the last
};

// Marching-cubes case table from the cube's topology. For case c (bit k set:
// corner k below the iso value, "outside"), the surface meets every edge
// whose corners differ. On each face the crossing points are joined by
// segments: a face with two crossings gets one segment; a face with four
// (diagonal corners alike: the ambiguous face) gets two, each cutting off one
// outside corner -- a rule that depends only on the face's own corners, so
// the two voxels sharing a face draw the same segments and the surface is
// closed across voxels. Each segment is oriented so that, seen from outside
// the cube, the outside corners lie on its left. Every crossing point then
// starts one segment and ends one, so the segments form closed loops; each
// loop is a polygon, fanned into triangles from a point chosen so that no
// triangle lies in a face of the cube. With this
// orientation the triangles' counter-clockwise normals point to the outside
// corners (towards lower field values, like the vertex normals).
CaseTables build_case_tables() {
  struct Face {
    std::array<int, 4> corners;  // cyclic order around the face
    Vec3 normal;                 // out of the cube
  };
  const Face faces[6] = {{{0, 1, 2, 3}, {0, 0, -1}}, {{4, 5, 6, 7}, {0, 0, 1}},
                         {{0, 1, 5, 4}, {0, -1, 0}}, {{3, 2, 6, 7}, {0, 1, 0}},
                         {{0, 3, 7, 4}, {-1, 0, 0}}, {{1, 2, 6, 5}, {1, 0, 0}}};
  CaseTables t;
  t.verts.assign(256, 0);
  t.tris.assign(256 * kTriRow, -1);
  for (int c = 0; c < 256; ++c) {
    std::array<int, 12> next;
    next.fill(-1);
    auto add_segment = [&](int ea, int eb, const Vec3& outside, const Vec3& normal) {
      const Vec3 pa = edge_mid(ea), pb = edge_mid(eb);
      if (dot(cross(pb - pa, outside - pa), normal) < 0) std::swap(ea, eb);
      if (next[ea] != -1) throw std::logic_error("marchcubes: crossing point starts two segments");
      next[ea] = eb;
    };
    for (const Face& f : faces) {
      bool out[4];
      int n_out = 0;
      for (int i = 0; i < 4; ++i) n_out += out[i] = (c >> f.corners[i]) & 1;
      std::vector<int> crossing;  // edge i joins corners i and i+1
      for (int i = 0; i < 4; ++i)
        if (out[i] != out[(i + 1) & 3]) crossing.push_back(i);
      if (crossing.size() == 2) {
        Vec3 centroid;
        for (int i = 0; i < 4; ++i)
          if (out[i]) {
            const Vec3 p = corner_pos(f.corners[i]);
            centroid.x += p.x / n_out, centroid.y += p.y / n_out, centroid.z += p.z / n_out;
          }
        const int e0 = edge_between(f.corners[crossing[0]], f.corners[(crossing[0] + 1) & 3]);
        const int e1 = edge_between(f.corners[crossing[1]], f.corners[(crossing[1] + 1) & 3]);
        add_segment(e0, e1, centroid, f.normal);
      } else if (crossing.size() == 4) {
        for (int i = 0; i < 4; ++i) {
          if (!out[i]) continue;
          const int prev = f.corners[(i + 3) & 3], here = f.corners[i], after = f.corners[(i + 1) & 3];
          add_segment(edge_between(prev, here), edge_between(here, after), corner_pos(here),
                      f.normal);
        }
      }
    }
    // Bit i: the edge lies on face i.
    auto face_mask = [&](int e) {
      const auto ends = edge_corners(e);
      unsigned m = 0;
      for (int i = 0; i < 6; ++i) {
        const auto& fc = faces[i].corners;
        if (std::count(fc.begin(), fc.end(), ends[0]) && std::count(fc.begin(), fc.end(), ends[1]))
          m |= 1u << i;
      }
      return m;
    };
    // Chain the segments into loops, lowest edge first; fan each loop.
    std::vector<int> list;
    std::array<bool, 12> used{};
    for (int e = 0; e < 12; ++e) {
      if (next[e] == -1 || used[e]) continue;
      std::vector<int> loop;
      for (int k = e; !used[k]; k = next[k]) {
        if (next[k] == -1) throw std::logic_error("marchcubes: open loop");
        used[k] = true;
        loop.push_back(k);
      }
      // Fan from the first point whose fan has no triangle lying in a cube
      // face (three points on one face), else from the loop's first point.
      size_t apex = 0;
      for (size_t a = 0; a < loop.size(); ++a) {
        bool flat = false;
        for (size_t i = 1; i + 1 < loop.size(); ++i)
          flat = flat || (face_mask(loop[a]) & face_mask(loop[(a + i) % loop.size()]) &
                          face_mask(loop[(a + i + 1) % loop.size()])) != 0;
        if (!flat) {
          apex = a;
          break;
        }
      }
      for (size_t i = 1; i + 1 < loop.size(); ++i)
        list.insert(list.end(), {loop[apex], loop[(apex + i) % loop.size()],
                                 loop[(apex + i + 1) % loop.size()]});
    }
    if (list.size() >= kTriRow) throw std::logic_error("marchcubes: case table row too short");
    t.verts[c] = uint32_t(list.size());
    std::copy(list.begin(), list.end(), t.tris.begin() + size_t(c) * kTriRow);
  }
  return t;
}

class MarchCubes : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"marchcubes",
            "marching cubes on a seeded metaball field: voxel classification, host "
            "compaction/scan, then triangle generation with 12 edge vertices + normals per "
            "thread in shared memory (32-thread CTAs, 9,216 B)",
            "scratchpad-limited", "marchcubes"};
  }

  // mc_classify is the auxiliary first pass; mc_generate carries the class.
  std::vector<KernelShape> kernel_shapes() const override {
    return {{"mc_classify", kClassifyThreads, 0, false},
            {"mc_generate", kGenerateThreads, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      nx_ = 21, ny_ = 18, nz_ = 15, balls_ = 6;
    } else {
      nx_ = ny_ = nz_ = 96, balls_ = 32;
    }
    tables_ = build_case_tables();
    // The field: sum over balls of r^2 / (|p - c|^2 + r^2 / 64) on the cube
    // [-1, 1]^3 (a ball alone crosses iso = 1 at about radius r), evaluated in
    // double and rounded to float once.
    h_ = 2.0f / float(std::max({nx_, ny_, nz_}));
    origin_ = -1.0f;
    iso_ = 1.0f;
    SplitMix64 rb(stream_seed(seed, 1));
    struct Ball {
      double x, y, z, r2;
    };
    std::vector<Ball> balls(balls_);
    for (Ball& b : balls) {
      b.x = rb.uniform(-0.7f, 0.7f), b.y = rb.uniform(-0.7f, 0.7f), b.z = rb.uniform(-0.7f, 0.7f);
      const double r = rb.uniform(0.08f, 0.24f);
      b.r2 = r * r;
    }
    const uint32_t sx = nx_ + 1, sy = ny_ + 1, sz = nz_ + 1;
    field_.resize(size_t(sx) * sy * sz);
    for (uint32_t z = 0; z < sz; ++z)
      for (uint32_t y = 0; y < sy; ++y)
        for (uint32_t x = 0; x < sx; ++x) {
          const double px = coord(x), py = coord(y), pz = coord(z);
          double f = 0;
          for (const Ball& b : balls) {
            const double d2 = (px - b.x) * (px - b.x) + (py - b.y) * (py - b.y) + (pz - b.z) * (pz - b.z);
            f += b.r2 / (d2 + b.r2 / 64);
          }
          field_[(size_t(z) * sy + y) * sx + x] = float(f);
        }
    d_field_ = dev.upload(field_);
    d_case_verts_ = dev.upload(tables_.verts);
    d_tris_ = dev.upload(tables_.tris);
    d_voxel_verts_ = dev.malloc(size_t(voxels()) * sizeof(uint32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("marchcubes"), "marchcubes.ptx");
    std::vector<LaunchStats> stats;
    LaunchConfig c1;
    c1.block = Dim3(kClassifyThreads);
    c1.grid = Dim3(ceil_div(voxels(), kClassifyThreads));
    KernelArgs a1;
    a1.add(d_field_).add(int32_t(nx_)).add(int32_t(ny_)).add(int32_t(nz_)).add(iso_)
        .add(d_case_verts_).add(d_voxel_verts_);
    stats.push_back(dev.launch(mod, "mc_classify", c1, a1));

    // Host compaction and exclusive scan of the vertex counts.
    const std::vector<uint32_t> counts = dev.download<uint32_t>(d_voxel_verts_, voxels());
    std::vector<uint32_t> active, first;
    uint32_t total = 0;
    for (uint32_t v = 0; v < voxels(); ++v) {
      if (counts[v] == 0) continue;
      active.push_back(v);
      first.push_back(total);
      total += counts[v];
    }
    release(dev);
    num_active_ = uint32_t(active.size());
    total_verts_ = total;
    if (num_active_ == 0) return stats;
    d_active_ = dev.upload(active);
    d_first_ = dev.upload(first);
    d_pos_ = dev.malloc(size_t(total) * 16);
    d_nrm_ = dev.malloc(size_t(total) * 16);

    LaunchConfig c2;
    c2.block = Dim3(kGenerateThreads);
    c2.grid = Dim3(ceil_div(num_active_, kGenerateThreads));
    KernelArgs a2;
    a2.add(d_field_).add(int32_t(nx_)).add(int32_t(ny_)).add(int32_t(nz_)).add(iso_)
        .add(origin_).add(origin_).add(origin_).add(h_).add(d_active_).add(d_first_)
        .add(int32_t(num_active_)).add(d_tris_).add(d_case_verts_).add(d_pos_).add(d_nrm_)
        .add(total);
    stats.push_back(dev.launch(mod, "mc_generate", c2, a2));
    return stats;
  }

  CheckResult check(Device& dev) override {
    // Reference: visit the voxels in order, classify each from its corner
    // samples, and for every table entry interpolate position and gradient
    // along the edge in double precision.
    const uint32_t sx = nx_ + 1, sy = ny_ + 1;
    auto at = [&](int x, int y, int z) {
      x = std::clamp(x, 0, int(nx_)), y = std::clamp(y, 0, int(ny_)), z = std::clamp(z, 0, int(nz_));
      return double(field_[(size_t(z) * sy + uint32_t(y)) * sx + uint32_t(x)]);
    };
    std::vector<uint32_t> ref_counts(voxels(), 0);
    std::vector<double> ref_pos, ref_nrm, pos_tol, nrm_tol;
    // Position: the device's interpolation weight s = (iso - f_a) / (f_b - f_a)
    // takes three roundings (|s| <= 1: error <= gamma_3); the grid-unit point
    // x + s one more of a value <= n, i.e. of size <= 2 after scaling by h;
    // scaling and adding the origin (-1) at most two more of values <= 2. The
    // sum, 3u h + 2u + 4u + O(u^2), is below gamma_8 * 4 (the tolerance).
    // Normal components: each corner gradient is one rounded difference of
    // two samples, interpolated as above: below gamma_10 * (|g_a| + |g_b|).
    const double tol_pos = gamma_n(8) * 4.0;
    for (uint32_t z = 0; z < nz_; ++z)
      for (uint32_t y = 0; y < ny_; ++y)
        for (uint32_t x = 0; x < nx_; ++x) {
          double f[8];
          uint32_t cube = 0;
          for (int k = 0; k < 8; ++k) {
            const auto o = corner_offset(k);
            f[k] = at(int(x) + o[0], int(y) + o[1], int(z) + o[2]);
            if (float(f[k]) < iso_) cube |= 1u << k;
          }
          const uint32_t n = tables_.verts[cube];
          ref_counts[(size_t(z) * ny_ + y) * nx_ + x] = n;
          for (uint32_t k = 0; k < n; ++k) {
            const auto ends = edge_corners(tables_.tris[size_t(cube) * kTriRow + k]);
            const double s = (double(iso_) - f[ends[0]]) / (f[ends[1]] - f[ends[0]]);
            double pa[3], pb[3], ga[3], gb[3];
            for (int j = 0; j < 2; ++j) {
              const auto o = corner_offset(ends[j]);
              const int cx = int(x) + o[0], cy = int(y) + o[1], cz = int(z) + o[2];
              double* p = j ? pb : pa;
              double* g = j ? gb : ga;
              p[0] = origin_ + double(cx) * h_, p[1] = origin_ + double(cy) * h_;
              p[2] = origin_ + double(cz) * h_;
              g[0] = at(cx - 1, cy, cz) - at(cx + 1, cy, cz);
              g[1] = at(cx, cy - 1, cz) - at(cx, cy + 1, cz);
              g[2] = at(cx, cy, cz - 1) - at(cx, cy, cz + 1);
            }
            for (int j = 0; j < 3; ++j) {
              ref_pos.push_back(pa[j] + s * (pb[j] - pa[j]));
              ref_nrm.push_back(ga[j] + s * (gb[j] - ga[j]));
              nrm_tol.push_back(gamma_n(10) * (std::fabs(ga[j]) + std::fabs(gb[j])));
            }
            ref_pos.push_back(1.0);
            ref_nrm.push_back(0.0);
            nrm_tol.push_back(0.0);
          }
        }
    const size_t total = ref_pos.size() / 4;
    CheckResult r;
    if (total != total_verts_) {
      r.detail = "vertex total mismatch: device scan " + std::to_string(total_verts_) +
                 ", reference " + std::to_string(total);
      return r;
    }
    const std::vector<float> pos = dev.download<float>(d_pos_, total * 4);
    const std::vector<float> nrm = dev.download<float>(d_nrm_, total * 4);
    const std::vector<uint32_t> counts = dev.download<uint32_t>(d_voxel_verts_, voxels());
    const CheckResult rp = compare_with_tolerance(
        "pos", pos, ref_pos, [&](size_t i) { return i % 4 == 3 ? 0.0 : tol_pos; },
        "gamma_8 * 4 on x, y, z (coordinates in [-1, 1]); w exact");
    const CheckResult rn = compare_with_tolerance(
        "normal", nrm, ref_nrm, [&](size_t i) { return nrm_tol[i]; },
        "gamma_10 * (|g_a| + |g_b|) per component; w exact");
    const CheckResult rc = compare_exact("voxel_verts", counts, ref_counts);
    r.passed = rp.passed && rn.passed && rc.passed;
    r.detail = rp.detail + "; " + rn.detail + "; " + rc.detail + " (" + std::to_string(nx_) + "x" +
               std::to_string(ny_) + "x" + std::to_string(nz_) + " voxels, " +
               std::to_string(num_active_) + " active, " + std::to_string(total / 3) +
               " triangles)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"pos", d_pos_, size_t(total_verts_) * 4, ElemType::F32},
            {"normal", d_nrm_, size_t(total_verts_) * 4, ElemType::F32},
            {"voxel_verts", d_voxel_verts_, voxels(), ElemType::U32}};
  }

 private:
  uint32_t voxels() const { return nx_ * ny_ * nz_; }
  // Coordinate of grid sample i: origin + i * h, rounded to float.
  double coord(uint32_t i) const { return double(origin_ + float(i) * h_); }
  void release(Device& dev) {
    for (DevicePtr* p : {&d_active_, &d_first_, &d_pos_, &d_nrm_})
      if (*p) dev.free(*p), *p = 0;
  }

  uint32_t nx_ = 0, ny_ = 0, nz_ = 0, balls_ = 0, num_active_ = 0, total_verts_ = 0;
  float h_ = 0, origin_ = 0, iso_ = 0;
  CaseTables tables_;
  std::vector<float> field_;
  DevicePtr d_field_ = 0, d_case_verts_ = 0, d_tris_ = 0, d_voxel_verts_ = 0;
  DevicePtr d_active_ = 0, d_first_ = 0, d_pos_ = 0, d_nrm_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("marchcubes", MarchCubes);

}  // namespace
}  // namespace simtlm::workloads
