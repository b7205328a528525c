// radixsort driver: LSD radix sort of 32-bit keys with a 32-bit payload, 4-bit
// digits, 8 passes of histogram / scan / stable scatter, 256 threads per CTA,
// 1024 keys per tile.
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class RadixSort : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"radixsort",
            "LSD radix sort of 32-bit keys + payloads, 4-bit digits, 8 passes of per-tile "
            "histogram / scan / stable scatter, 256 threads per CTA (convergent)",
            "convergent", "radixsort"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"radix_histogram", kThreads, 0, true},
            {"radix_scan", kThreads, 0, false},
            {"radix_scatter", kThreads, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    // Small: a partial last tile (padding). Default: 64 tiles.
    n_ = size == Size::Small ? 3000 : 65536;
    tiles_ = ceil_div(n_, kTile);
    const uint32_t n_pad = tiles_ * kTile;
    // Digit-major histogram table, padded to whole scan chunks (the padding
    // stays zero: no tile writes it).
    table_ = ceil_div(uint64_t(kRadix) * tiles_, kThreads) * kThreads;

    // Keys: half uniform 32-bit, half drawn from a pool of 48 values (many
    // equal keys, so a wrong order among equal keys shows in the payloads),
    // the pool including 0 and 0xffffffff (equal to the padding key).
    SplitMix64 rk(stream_seed(seed, 1)), rp(stream_seed(seed, 2));
    std::vector<uint32_t> pool(48);
    for (auto& p : pool) p = rp.next_u32();
    pool[0] = 0, pool[1] = 0xffffffffu;
    keys_.resize(n_);
    for (auto& k : keys_) k = rk.below(2) ? rk.next_u32() : pool[rk.below(pool.size())];
    // Payload: the key's input position (unique), which makes stability visible.
    vals_.resize(n_);
    std::iota(vals_.begin(), vals_.end(), 0u);

    std::vector<uint32_t> k(keys_), v(vals_);
    k.resize(n_pad, 0xffffffffu);
    v.resize(n_pad, 0xffffffffu);
    d_keys_in_ = dev.upload(k);
    d_vals_in_ = dev.upload(v);
    for (int b = 0; b < 2; ++b) {
      d_keys_[b] = dev.malloc(size_t(n_pad) * 4);
      d_vals_[b] = dev.malloc(size_t(n_pad) * 4);
    }
    d_hist_ = dev.malloc(size_t(table_) * 4);
    dev.memset(d_hist_, 0, size_t(table_) * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("radixsort"), "radixsort.ptx");
    LaunchConfig tiles_cfg;
    tiles_cfg.block = Dim3(kThreads);
    tiles_cfg.grid = Dim3(tiles_);
    LaunchConfig scan_cfg;
    scan_cfg.block = Dim3(kThreads);
    scan_cfg.grid = Dim3(1);
    std::vector<LaunchStats> stats;
    // Pass p reads the input (p = 0) or buffer (p + 1) % 2 and writes buffer p % 2.
    for (int pass = 0; pass < kPasses; ++pass) {
      const int32_t shift = 4 * pass;
      const DevicePtr src_k = pass == 0 ? d_keys_in_ : d_keys_[(pass + 1) % 2];
      const DevicePtr src_v = pass == 0 ? d_vals_in_ : d_vals_[(pass + 1) % 2];
      KernelArgs h;
      h.add(src_k).add(d_hist_).add(int32_t(tiles_)).add(shift);
      stats.push_back(dev.launch(mod, "radix_histogram", tiles_cfg, h));
      KernelArgs s;
      s.add(d_hist_).add(int32_t(table_));
      stats.push_back(dev.launch(mod, "radix_scan", scan_cfg, s));
      KernelArgs c;
      c.add(src_k).add(src_v).add(d_keys_[pass % 2]).add(d_vals_[pass % 2]).add(d_hist_);
      c.add(int32_t(tiles_)).add(shift);
      stats.push_back(dev.launch(mod, "radix_scatter", tiles_cfg, c));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<uint32_t> keys = dev.download<uint32_t>(out_keys(), n_);
    const std::vector<uint32_t> vals = dev.download<uint32_t>(out_vals(), n_);
    // Reference: std::stable_sort of (key, payload) pairs by key.
    std::vector<std::pair<uint32_t, uint32_t>> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) ref[i] = {keys_[i], vals_[i]};
    std::stable_sort(ref.begin(), ref.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<uint32_t> ref_keys(n_), ref_vals(n_);
    for (uint32_t i = 0; i < n_; ++i) ref_keys[i] = ref[i].first, ref_vals[i] = ref[i].second;
    CheckResult r = compare_exact("keys", keys, ref_keys);
    if (!r.passed) return r;
    const CheckResult p = compare_exact("payloads", vals, ref_vals);
    if (!p.passed) return p;
    r.detail += "; " + p.detail + " (" + std::to_string(n_) + " keys, " +
                std::to_string(tiles_) + " tiles, 8 passes; payloads in stable order)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"keys", out_keys(), n_, ElemType::U32}, {"payloads", out_vals(), n_, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kThreads = 256;
  static constexpr uint32_t kTile = kThreads * 4;
  static constexpr uint32_t kRadix = 16;
  static constexpr int kPasses = 8;
  DevicePtr out_keys() const { return d_keys_[(kPasses - 1) % 2]; }
  DevicePtr out_vals() const { return d_vals_[(kPasses - 1) % 2]; }

  uint32_t n_ = 0, tiles_ = 0, table_ = 0;
  std::vector<uint32_t> keys_, vals_;
  DevicePtr d_keys_in_ = 0, d_vals_in_ = 0, d_hist_ = 0;
  DevicePtr d_keys_[2] = {0, 0}, d_vals_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("radixsort", RadixSort);

}  // namespace
}  // namespace simtlm::workloads
