// bfs driver: level-synchronous BFS from node 0 over a seeded directed CSR
// graph; one launch per level until a level discovers no node.
#include <deque>
#include <string>
#include <vector>

#include "simtlm/error.h"
#include "workloads/common/compare.h"
#include "workloads/common/csr.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Bfs : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"bfs",
            "level-synchronous breadth-first search on a CSR graph, one thread per node "
            "and one launch per level (divergent, irregular gathers)",
            "cache-sensitive", "bfs"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"bfs_level", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    CsrShape shape;
    uint32_t min_deg, max_deg;
    if (size == Size::Small) {
      shape.rows = shape.cols = 2048;
      shape.band = 32;
      min_deg = 1, max_deg = 7;  // average out-degree 4
    } else {
      shape.rows = shape.cols = 65536;
      shape.band = 64;
      min_deg = 2, max_deg = 14;  // average 8: ~512K edges
    }
    // Three quarters of the edges are local (within the band), the rest random
    // shortcuts: many levels of moderate width rather than a 4-level explosion.
    shape.local_per_256 = 192;
    SplitMix64 rng(stream_seed(seed, 1));
    graph_ = make_csr(shape, rng, [&](SplitMix64& r) { return uint32_t(r.range(min_deg, max_deg)); });
    nodes_ = graph_.rows;

    dist0_.assign(nodes_, -1);
    dist0_[0] = 0;  // the source
    d_rows_ = dev.upload(graph_.row_offsets);
    d_cols_ = dev.upload(graph_.col_indices);
    d_dist_ = dev.upload(dist0_);
    d_changed_ = dev.malloc(sizeof(int32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_dist_, dist0_.data(), dist0_.size() * sizeof(int32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("bfs"), "bfs.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(nodes_, kBlock));
    std::vector<LaunchStats> stats;
    for (int32_t level = 0;; ++level) {
      // A level can only add nodes, so more than `nodes_` levels means a broken kernel.
      if (level > int32_t(nodes_))
        throw Error(ErrorKind::Internal, "bfs: no convergence after " + std::to_string(level) +
                                             " levels on " + std::to_string(nodes_) + " nodes");
      dev.memset(d_changed_, 0, sizeof(int32_t));
      KernelArgs args;
      args.add(d_rows_).add(d_cols_).add(d_dist_).add(level).add(int32_t(nodes_)).add(d_changed_);
      stats.push_back(dev.launch(mod, "bfs_level", cfg, args));
      int32_t changed = 0;
      dev.memcpy_to_host(&changed, d_changed_, sizeof(changed));
      if (changed == 0) break;
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    std::vector<int32_t> dist = dev.download<int32_t>(d_dist_, nodes_);
    // Reference: textbook queue-based BFS.
    std::vector<int32_t> ref(nodes_, -1);
    std::deque<int32_t> queue{0};
    ref[0] = 0;
    int32_t max_level = 0;
    uint32_t reached = 1;
    while (!queue.empty()) {
      const int32_t v = queue.front();
      queue.pop_front();
      for (int32_t e = graph_.row_offsets[v]; e < graph_.row_offsets[v + 1]; ++e) {
        const int32_t u = graph_.col_indices[e];
        if (ref[u] < 0) {
          ref[u] = ref[v] + 1;
          max_level = ref[u];
          ++reached;
          queue.push_back(u);
        }
      }
    }
    CheckResult r = compare_exact("dist", dist, ref);
    r.detail += " (" + std::to_string(nodes_) + " nodes, " + std::to_string(graph_.nnz()) +
                " edges, " + std::to_string(reached) + " reached, " +
                std::to_string(max_level + 1) + " levels)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"dist", d_dist_, nodes_, ElemType::I32}};
  }

 private:
  static constexpr uint32_t kBlock = 256;
  CsrStructure graph_;
  uint32_t nodes_ = 0;
  std::vector<int32_t> dist0_;
  DevicePtr d_rows_ = 0, d_cols_ = 0, d_dist_ = 0, d_changed_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("bfs", Bfs);

}  // namespace
}  // namespace simtlm::workloads
