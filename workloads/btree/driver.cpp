// btree driver: a B+ tree of order 508 built on the host over seeded sorted
// keys (nodes half to completely full), range queries answered on the GPU
// (one CTA of 508 threads per query) and checked with binary searches.
#include <algorithm>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kOrder = 508;  // = ORDER in kernel.cu; also the threads per CTA

class Btree : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"btree",
            "B+ tree (order 508) range search, findRangeK-style: one 508-thread CTA per "
            "query walks the lo and hi paths level by level, one thread per key slot",
            "register-limited", "btree"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"btree_find_range", kOrder, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = size == Size::Small ? 300000 : 1000000;
    queries_ = size == Size::Small ? 24 : 1500;
    SplitMix64 rk(stream_seed(seed, 1)), rt(stream_seed(seed, 2)), rq(stream_seed(seed, 3));
    sorted_.resize(n);
    int32_t k = int32_t(rk.below(16));
    for (auto& v : sorted_) v = k, k += 1 + int32_t(rk.below(8));

    // Bottom-up: each level groups the one below into nodes of ORDER/2..ORDER
    // entries (the last node of a level takes what is left).
    struct Node {
      std::vector<int32_t> keys, child;
    };
    std::vector<std::vector<Node>> levels;
    std::vector<int32_t> entry_key(sorted_), entry_ref(n);
    for (uint32_t i = 0; i < n; ++i) entry_ref[i] = int32_t(i);
    do {
      std::vector<Node> level;
      for (size_t i = 0; i < entry_key.size();) {
        const size_t len = std::min<size_t>(kOrder / 2 + rt.below(kOrder / 2 + 1), entry_key.size() - i);
        Node node;
        node.keys.assign(entry_key.begin() + i, entry_key.begin() + i + len);
        node.child.assign(entry_ref.begin() + i, entry_ref.begin() + i + len);
        level.push_back(std::move(node));
        i += len;
      }
      entry_key.clear(), entry_ref.clear();
      for (size_t i = 0; i < level.size(); ++i) {
        entry_key.push_back(level[i].keys[0]);
        entry_ref.push_back(int32_t(i));  // index within the level, renumbered below
      }
      levels.push_back(std::move(level));
    } while (levels.back().size() > 1);
    depth_ = uint32_t(levels.size() - 1);  // inner levels above the leaves

    // Number the nodes top-down (root = 0) and flatten.
    std::vector<uint32_t> first(levels.size());
    uint32_t total = 0;
    for (size_t l = levels.size(); l-- > 0;) first[l] = total, total += uint32_t(levels[l].size());
    nodes_ = total;
    std::vector<int32_t> keys(size_t(total) * kOrder, 0), child(size_t(total) * kOrder, 0), nk(total);
    for (size_t l = 0; l < levels.size(); ++l) {
      for (size_t i = 0; i < levels[l].size(); ++i) {
        const Node& node = levels[l][i];
        const size_t id = first[l] + i;
        nk[id] = int32_t(node.keys.size());
        for (size_t s = 0; s < node.keys.size(); ++s) {
          keys[id * kOrder + s] = node.keys[s];
          child[id * kOrder + s] = l == 0 ? node.child[s] : int32_t(first[l - 1]) + node.child[s];
        }
      }
    }
    // Ranges of 0..2000 starting anywhere from below the smallest key to above the largest.
    lo_.resize(queries_), hi_.resize(queries_);
    for (uint32_t q = 0; q < queries_; ++q) {
      lo_[q] = int32_t(rq.range(-20, int64_t(sorted_.back()) + 20));
      hi_[q] = lo_[q] + int32_t(rq.below(2001));
    }
    d_keys_ = dev.upload(keys), d_child_ = dev.upload(child), d_nkeys_ = dev.upload(nk);
    d_lo_ = dev.upload(lo_), d_hi_ = dev.upload(hi_);
    d_start_ = dev.malloc(queries_ * sizeof(int32_t));
    d_count_ = dev.malloc(queries_ * sizeof(int32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_start_, 0xff, queries_ * sizeof(int32_t));
    dev.memset(d_count_, 0xff, queries_ * sizeof(int32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("btree"), "btree.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kOrder);
    cfg.grid = Dim3(queries_);
    KernelArgs args;
    args.add(d_keys_).add(d_child_).add(d_nkeys_).add(int32_t(depth_)).add(d_lo_).add(d_hi_)
        .add(d_start_).add(d_count_).add(int32_t(queries_));
    return {dev.launch(mod, "btree_find_range", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<int32_t> start = dev.download<int32_t>(d_start_, queries_);
    const std::vector<int32_t> count = dev.download<int32_t>(d_count_, queries_);
    std::vector<int32_t> rs(queries_), rc(queries_);
    uint64_t hits = 0;
    for (uint32_t q = 0; q < queries_; ++q) {
      const auto b = std::lower_bound(sorted_.begin(), sorted_.end(), lo_[q]);
      const auto e = std::upper_bound(sorted_.begin(), sorted_.end(), hi_[q]);
      rs[q] = int32_t(b - sorted_.begin());
      rc[q] = int32_t(e - b);
      hits += uint64_t(rc[q]);
    }
    CheckResult c = compare_exact("count", count, rc);
    const CheckResult s = compare_exact("start", start, rs);
    c.passed = c.passed && s.passed;
    c.detail += "; " + s.detail + " (" + std::to_string(sorted_.size()) + " keys, " +
                std::to_string(nodes_) + " nodes, " + std::to_string(depth_ + 1) + " levels, " +
                std::to_string(queries_) + " queries, " + std::to_string(hits) + " keys found)";
    return c;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"count", d_count_, queries_, ElemType::I32}, {"start", d_start_, queries_, ElemType::I32}};
  }

 private:
  uint32_t queries_ = 0, depth_ = 0, nodes_ = 0;
  std::vector<int32_t> sorted_, lo_, hi_;
  DevicePtr d_keys_ = 0, d_child_ = 0, d_nkeys_ = 0, d_lo_ = 0, d_hi_ = 0, d_start_ = 0, d_count_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("btree", Btree);

}  // namespace
}  // namespace simtlm::workloads
