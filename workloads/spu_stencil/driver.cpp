// spu_stencil driver: the SPU study's 3-D wavefront stencil
// H[i,j,k] = mean(H[i-1,j,k], H[i,j-1,k], H[i,j,k-1]) over an N x N x K space with
// 32^3 tiles, one CTA of 8 x 8 threads per 32 x 32 column of tiles, one launch per
// anti-diagonal of columns (or, with --arg method=atomic, the study's GPU baseline:
// one launch synchronised with atomics, kernel spu_stencil_gpu); on the SPU
// (sim.platform = spu) one launch whose faces travel through the communication
// buffers (kernel spu_stencil_cb). Run arguments: see run_args().
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "simtlm/error.h"
#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class SpuStencil : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"spu_stencil",
            "SPU 3-D wavefront stencil H=mean(west,north,previous k), 32^3 tiles, 8x8 "
            "threads per CTA with 4x4 sub-columns, one launch per column anti-diagonal",
            "stencil", "spu_stencil"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"spu_stencil_diag", kThreadsSide * kThreadsSide, 0, true}};
  }

  std::vector<RunArg> run_args() const override {
    return {{"n", "N, the i and j extent (1..1024; default: the size's)"},
            {"k", "K, the k extent (1..4096; default: N, or 40 at the small size)"},
            {"b", "tile side: SPU 1..64 (a b x b face of floats must fit spu.cb_bytes; default 32); GPU 32, or with "
                  "method=atomic 16, 32 or 64 (with subtile: (32,4) (16,2) (16,4) (32,2) (32,8) (64,8))"},
            {"subtile", "points per thread in i and j (default 4; CTA of b/subtile x b/subtile threads): GPU with "
                        "method=atomic, see b; SPU 2, 4 or 8 (selects method=subtiled; b a multiple of it)"},
            {"p", "SPU grid side: must equal spu.grid_size (checked; set it with -p spu.grid_size)"},
            {"sync", "SPU synchronisation: local (producer-consumer, default) or global"},
            {"method", "GPU version: diag (one launch per column anti-diagonal, default) or atomic "
                       "(Ranasinghe's single launch with atomics, the study's baseline); SPU version: rows (one "
                       "thread per local i, default) or subtiled (b/subtile x b/subtile threads, Table 6.2's)"}};
  }

  void set_run_args(const std::map<std::string, std::string>& args) override { args_ = args; }

  void setup(Device& dev, Size size, uint64_t seed) override {
    spu_ = dev.options().config && dev.options().config->str("sim.platform") == "spu";
    if (size == Size::Small) {
      // Not multiples of the tile: 2 x 2 columns with partial edge columns and
      // a partial second k-tile.
      n_ = 48, k_ = 40;
    } else {
      // 128^3 (Table 6.2's first case, 4 x 4 columns of 4 tiles). The study's
      // 256^3 case: SIMTLM_SPU_STENCIL_N=256 (any N >= 1; K = N).
      n_ = k_ = 128;
      if (const char* env = std::getenv("SIMTLM_SPU_STENCIL_N")) {
        const long v = std::strtol(env, nullptr, 10);
        if (v < 1 || v > 1024)
          throw Error(ErrorKind::Config, "SIMTLM_SPU_STENCIL_N='" + std::string(env) +
                                             "': expected an integer in [1, 1024]");
        n_ = k_ = uint32_t(v);
      }
    }
    apply_args(dev);
    SplitMix64 ra(stream_seed(seed, 1)), rb(stream_seed(seed, 2)), rc(stream_seed(seed, 3));
    a_.resize(size_t(n_) * n_);
    b_.resize(size_t(n_) * k_);
    c_.resize(size_t(n_) * k_);
    for (auto& v : a_) v = ra.unit_float();
    for (auto& v : b_) v = rb.unit_float();
    for (auto& v : c_) v = rc.unit_float();
    d_a_ = dev.upload(a_);
    d_fx_ = dev.upload(c_);
    d_fy_ = dev.upload(b_);
    d_out_ = dev.malloc(size_t(n_) * n_ * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    // fx and fy are updated in place: restore the boundary inputs.
    dev.memcpy_to_device(d_fx_, c_.data(), c_.size() * sizeof(float));
    dev.memcpy_to_device(d_fy_, b_.data(), b_.size() * sizeof(float));
    const ModuleHandle mod =
        dev.load_module_string(embedded_ptx("spu_stencil"), "spu_stencil.ptx");
    if (spu_) return {run_spu(dev, mod, uint32_t(ceil_div(n_, tile_)), *dev.options().config)};
    const int32_t cols = int32_t(ceil_div(n_, kTile));
    if (atomic_) return {run_atomic(dev, mod)};
    std::vector<LaunchStats> stats;
    for (int32_t d = 0; d <= 2 * (cols - 1); ++d) {
      const int32_t first_i = std::max(0, d - (cols - 1));
      const int32_t last_i = std::min(d, cols - 1);
      LaunchConfig cfg;
      cfg.block = Dim3(kThreadsSide, kThreadsSide);
      cfg.grid = Dim3(uint32_t(last_i - first_i + 1));
      KernelArgs args;
      args.add(d_a_).add(d_fx_).add(d_fy_).add(d_out_).add(int32_t(n_)).add(int32_t(k_)).add(d)
          .add(first_i);
      stats.push_back(dev.launch(mod, "spu_stencil_diag", cfg, args));
    }
    return stats;
  }

  // The SPU version (sim.platform = spu, docs/spu.md): one launch of cols x
  // cols CTAs of b threads (one per local i of a b^3 tile; method=subtiled:
  // b/subtile x b/subtile threads with a sub-tile each) with the interface units; SIMTLM_SPU_STENCIL_SYNC = local (default: the thesis's
  // producer-consumer bar.blocksync) or global (the original global barrier).
  LaunchStats run_spu(Device& dev, ModuleHandle mod, uint32_t cols, const Config& config) {
    if (uint64_t(tile_) * tile_ * sizeof(float) > config.u64("spu.cb_bytes"))
      throw Error(ErrorKind::Config, "spu_stencil passes " + std::to_string(tile_) + " x " + std::to_string(tile_) +
                                         " faces of floats through each communication buffer: spu.cb_bytes = " +
                                         std::to_string(config.u64("spu.cb_bytes")) + " is too small (b = " +
                                         std::to_string(tile_) + ")");
    global_sync_ = false;
    if (const char* env = std::getenv("SIMTLM_SPU_STENCIL_SYNC")) {
      const std::string v = env;
      if (v != "local" && v != "global")
        throw Error(ErrorKind::Config, "SIMTLM_SPU_STENCIL_SYNC='" + v + "': expected local or global");
      global_sync_ = v == "global";
    }
    if (args_.count("sync")) global_sync_ = args_.at("sync") == "global";  // checked in apply_args
    LaunchConfig cfg;
    cfg.block = subtiled_ ? Dim3(tile_ / subtile_, tile_ / subtile_) : Dim3(tile_);
    cfg.grid = Dim3(cols, cols);
    KernelArgs args;
    args.add(d_a_).add(d_fx_).add(d_fy_).add(d_out_).add(int32_t(n_)).add(int32_t(k_))
        .add(int32_t(global_sync_ ? 1 : 0));
    return dev.launch(mod, subtiled_ ? spu_kernel(subtile_) : "spu_stencil_cb", cfg, args);
  }

  // The GPU baseline (note §4.3): one launch of cols^2 CTAs that take their
  // column by ticket and wait on their producers' per-k-tile flags.
  LaunchStats run_atomic(Device& dev, ModuleHandle mod) {
    const uint32_t cols = uint32_t(ceil_div(n_, tile_));
    const std::vector<uint32_t> zeros(size_t(cols) * cols + 1, 0);
    if (!d_sync_) d_sync_ = dev.malloc(zeros.size() * sizeof(uint32_t));
    dev.memcpy_to_device(d_sync_, zeros.data(), zeros.size() * sizeof(uint32_t));
    LaunchConfig cfg;
    cfg.block = Dim3(tile_ / subtile_, tile_ / subtile_);
    cfg.grid = Dim3(cols * cols);
    KernelArgs args;
    args.add(d_a_).add(d_fx_).add(d_fy_).add(d_out_).add(int32_t(n_)).add(int32_t(k_)).add(d_sync_)
        .add(DevicePtr(d_sync_ + sizeof(uint32_t)));
    return dev.launch(mod, gpu_kernel(tile_, subtile_), cfg, args);
  }

  // Run arguments (run_args()): values, then what the platform can run.
  void apply_args(Device& dev) {
    auto number = [&](const char* key, uint32_t lo, uint32_t hi, uint32_t& out) {
      if (!args_.count(key)) return;
      const std::string& text = args_.at(key);
      char* end = nullptr;
      const unsigned long v = std::strtoul(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || text[0] == '-' || v < lo || v > hi)
        throw Error(ErrorKind::Usage, "--arg " + std::string(key) + "=" + text + ": expected an integer in [" +
                                          std::to_string(lo) + ", " + std::to_string(hi) + "]");
      out = uint32_t(v);
    };
    auto choice = [&](const char* key, const char* a, const char* b, const char* where = "") {
      if (args_.count(key) && args_.at(key) != a && args_.at(key) != b)
        throw Error(ErrorKind::Usage,
                    "--arg " + std::string(key) + "=" + args_.at(key) + ": expected " + a + " or " + b + where);
    };
    auto only_on = [&](const char* key, bool allowed, const char* why) {
      if (args_.count(key) && !allowed) throw Error(ErrorKind::Config, "--arg " + std::string(key) + ": " + why);
    };
    const bool n_given = args_.count("n") != 0;
    number("n", 1, 1024, n_);
    if (n_given && !args_.count("k")) k_ = n_;
    number("k", 1, 4096, k_);
    uint32_t b = kTile, subtile = kSubtile, p = 0;
    number("b", 1, 64, b);
    number("subtile", 1, 64, subtile);
    number("p", 1, 32, p);
    choice("sync", "local", "global");
    if (spu_)
      choice("method", "rows", "subtiled", " on the SPU (sim.platform = spu; diag and atomic are the GPU's)");
    else
      choice("method", "diag", "atomic", " on the GPU (rows and subtiled are the SPU's)");
    const char* spu_only = "applies to the SPU version only (sim.platform = spu)";
    only_on("sync", spu_, spu_only);
    only_on("p", spu_, spu_only);
    atomic_ = !spu_ && args_.count("method") && args_.at("method") == "atomic";
    // SPU: method=subtiled, or subtile given without method, selects the sub-tiled kernel.
    subtiled_ = spu_ && (args_.count("method") ? args_.at("method") == "subtiled" : args_.count("subtile") != 0);
    if (spu_ && !subtiled_ && args_.count("subtile"))
      throw Error(ErrorKind::Config, "--arg subtile: method=rows gives each thread one local i (no sub-tiles); "
                                     "subtile applies to method=subtiled");
    if (subtiled_ && spu_kernel(subtile) == nullptr)
      throw Error(ErrorKind::Config, "--arg subtile=" + std::to_string(subtile) +
                                         ": the sub-tiled SPU kernel is compiled for subtile 2, 4 or 8 only "
                                         "(kernel.cu, SPU_STENCIL_SUBTILED)");
    if (subtiled_ && b % subtile != 0)
      throw Error(ErrorKind::Config, "--arg b=" + std::to_string(b) + " subtile=" + std::to_string(subtile) +
                                         ": b must be a multiple of subtile (CTAs of b/subtile x b/subtile threads)");
    if (!spu_ && !atomic_ && (b != kTile || subtile != kSubtile))
      throw Error(ErrorKind::Config, "--arg b=" + std::to_string(b) + " subtile=" + std::to_string(subtile) +
                                         ": the per-diagonal kernel (method=diag) is compiled for b = 32, subtile 4 "
                                         "only; other tiles run with --arg method=atomic");
    if (!spu_ && atomic_ && gpu_kernel(b, subtile) == nullptr)
      throw Error(ErrorKind::Config, "--arg b=" + std::to_string(b) + " subtile=" + std::to_string(subtile) +
                                         ": spu_stencil_gpu is compiled for (b, subtile) in " + gpu_tiles() +
                                         " only (kernel.cu; a b x b face staged twice plus the sub-tile edges must "
                                         "fit 48 KB of shared memory)");
    if (spu_ && p != 0 && p != dev.options().config->u32("spu.grid_size"))
      throw Error(ErrorKind::Config, "--arg p=" + std::to_string(p) + " but spu.grid_size = " +
                                         std::to_string(dev.options().config->u32("spu.grid_size")) +
                                         ": set the grid with -p spu.grid_size=" + std::to_string(p) +
                                         " -p gpu.num_sms=" + std::to_string(p * p));
    tile_ = b;
    subtile_ = subtile;
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> out = dev.download<float>(d_out_, size_t(n_) * n_);
    const std::vector<float> fx = dev.download<float>(d_fx_, size_t(n_) * k_);
    const std::vector<float> fy = dev.download<float>(d_fy_, size_t(n_) * k_);
    // Reference: the recurrence in double, plane by plane in k. cur[i][j] is
    // H[i,j,k-1] before and H[i,j,k] after the update of plane k; west/north
    // come from the boundary arrays C and B at i = 0 / j = 0.
    const size_t n = n_, kk = k_;
    std::vector<double> cur(n * n);
    for (size_t e = 0; e < n * n; ++e) cur[e] = a_[e];
    std::vector<double> ref_out(n * n), ref_east(n * kk), ref_south(n * kk);
    for (size_t k = 0; k < kk; ++k) {
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
          const double west = i == 0 ? double(c_[j * kk + k]) : cur[(i - 1) * n + j];
          const double north = j == 0 ? double(b_[i * kk + k]) : cur[i * n + j - 1];
          cur[i * n + j] = (west + north + cur[i * n + j]) / 3.0;
        }
      }
      for (size_t j = 0; j < n; ++j) ref_east[j * kk + k] = cur[(n - 1) * n + j];
      for (size_t i = 0; i < n; ++i) ref_south[i * kk + k] = cur[i * n + n - 1];
    }
    ref_out = cur;
    // Tolerance. Inputs are in [0, M); every H is a mean of non-negative
    // values, so 0 <= H < M. The device computes fl(fl(fl(x+y)+z) * fl(1/3)):
    // with non-negative terms that is (x+y+z)/3 * (1 + theta_4), |theta_4| <=
    // gamma_4, so the error obeys E <= (1 + gamma_4) * max(E of the three
    // inputs) + gamma_4 * M. Boundary values are exact; along a dependence path
    // of D points (D = i + j + k + 1) this gives E <= ((1 + gamma_4)^D - 1) * M
    // <= gamma_{4D} * M (Higham, lemma 3.3). About 9e-5 at the far corner of
    // 128^3, 2.3e-5 at the Small size; a wrong or missing term moves H by up
    // to a third of a neighbour difference, and a corrupted value by >= 1.
    double m = 0.0;
    for (float v : a_) m = std::max(m, double(v));
    for (float v : b_) m = std::max(m, double(v));
    for (float v : c_) m = std::max(m, double(v));
    const std::string rule = "|err| <= gamma_{4D}*max|input|, D = i+j+k+1 points on the longest "
                             "dependence path (3-term mean rounded 4 times per point, errors "
                             "not amplified by a mean)";
    CheckResult r = compare_with_tolerance(
        "H[i,j,K-1]", out, ref_out,
        [&](size_t e) { return gamma_n(4.0 * double(e / n + e % n + kk)) * m; }, rule);
    if (!r.passed) return r;
    const CheckResult east = compare_with_tolerance(
        "H[N-1,j,k]", fx, ref_east,
        [&](size_t e) { return gamma_n(4.0 * double(n - 1 + e / kk + e % kk + 1)) * m; }, rule);
    if (!east.passed) return east;
    const CheckResult south = compare_with_tolerance(
        "H[i,N-1,k]", fy, ref_south,
        [&](size_t e) { return gamma_n(4.0 * double(e / kk + n - 1 + e % kk + 1)) * m; }, rule);
    if (!south.passed) return south;
    r.detail += "; " + east.detail.substr(0, east.detail.find(';')) + "; " +
                south.detail.substr(0, south.detail.find(';')) + " (" + std::to_string(n_) + "x" +
                std::to_string(n_) + "x" + std::to_string(k_) + ", " +
                (spu_ ? std::string(global_sync_ ? "SPU, global bar.blocksync" : "SPU, producer-consumer bar.blocksync") +
                            (tile_ != kTile ? ", b = " + std::to_string(tile_) : std::string()) +
                            (subtiled_ ? ", subtile " + std::to_string(subtile_) : std::string()) + ")"
                      : atomic_ ? "one launch, atomic flags, b = " + std::to_string(tile_) + ", subtile " +
                                      std::to_string(subtile_) + ")"
                                : std::to_string(2 * ceil_div(n_, kTile) - 1) + " diagonal launches)");
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"out", d_out_, size_t(n_) * n_, ElemType::F32},
            {"east", d_fx_, size_t(n_) * k_, ElemType::F32},
            {"south", d_fy_, size_t(n_) * k_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kTile = 32;
  static constexpr uint32_t kThreadsSide = 8;  // = TT in kernel.cu (TB / TS)
  static constexpr uint32_t kSubtile = 4;      // = TS in kernel.cu
  // The GPU baseline's instances in kernel.cu (SPU_STENCIL_GPU): tile side,
  // sub-tile side, kernel.
  struct GpuTile {
    uint32_t b, subtile;
    const char* kernel;
  };
  static constexpr GpuTile kGpuTiles[] = {{32, 4, "spu_stencil_gpu"},         {16, 2, "spu_stencil_gpu_b16_s2"},
                                          {16, 4, "spu_stencil_gpu_b16_s4"},  {32, 2, "spu_stencil_gpu_b32_s2"},
                                          {32, 8, "spu_stencil_gpu_b32_s8"},  {64, 8, "spu_stencil_gpu_b64_s8"}};
  static const char* gpu_kernel(uint32_t b, uint32_t subtile) {
    for (const GpuTile& t : kGpuTiles)
      if (t.b == b && t.subtile == subtile) return t.kernel;
    return nullptr;
  }
  // The sub-tiled SPU kernels in kernel.cu (SPU_STENCIL_SUBTILED), by sub-tile side.
  static const char* spu_kernel(uint32_t subtile) {
    switch (subtile) {
      case 2: return "spu_stencil_cb_s2";
      case 4: return "spu_stencil_cb_s4";
      case 8: return "spu_stencil_cb_s8";
      default: return nullptr;
    }
  }
  static std::string gpu_tiles() {
    std::string s;
    for (const GpuTile& t : kGpuTiles) s += (s.empty() ? "" : ", ") + ("(" + std::to_string(t.b) + ", " + std::to_string(t.subtile) + ")");
    return s;
  }
  uint32_t n_ = 0, k_ = 0, tile_ = kTile, subtile_ = kSubtile;
  bool spu_ = false, global_sync_ = false, atomic_ = false, subtiled_ = false;  // how the last run() ran
  std::map<std::string, std::string> args_;
  std::vector<float> a_, b_, c_;
  DevicePtr d_a_ = 0, d_fx_ = 0, d_fy_ = 0, d_out_ = 0, d_sync_ = 0;  // d_sync_: ticket, then flags
};

SIMTLM_REGISTER_WORKLOAD("spu_stencil", SpuStencil);

}  // namespace
}  // namespace simtlm::workloads
