// pathfinder driver: minimum-cost path costs down a rows x cols integer grid,
// pyramid blocking (`kSteps` rows per launch, 128-thread CTAs).
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

class Pathfinder : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"pathfinder",
            "dynamic programming down a grid (min of 3 upper neighbours + weight), "
            "pyramid of 16 rows per launch in a shared-memory row buffer, 128-thread CTAs",
            "thread-limited", "pathfinder"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"pathfinder_rows", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    if (size == Size::Small) {
      rows_ = 41, cols_ = 1000;  // 3 launches (16, 16, 8 rows) after row 0
    } else {
      rows_ = 49, cols_ = 32768;
    }
    SplitMix64 rw(stream_seed(seed, 1));
    wall_.resize(size_t(rows_) * cols_);
    for (auto& v : wall_) v = int32_t(rw.below(10));
    d_wall_ = dev.upload(wall_);
    d_buf_[0] = dev.malloc(size_t(cols_) * 4);
    d_buf_[1] = dev.malloc(size_t(cols_) * 4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    // The cost of row 0 is its weight.
    dev.memcpy_to_device(d_buf_[0], wall_.data(), size_t(cols_) * 4);
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("pathfinder"), "pathfinder.ptx");
    std::vector<LaunchStats> stats;
    int cur = 0;
    for (uint32_t row = 1; row < rows_; row += kSteps) {
      const uint32_t steps = std::min(kSteps, rows_ - row);
      LaunchConfig cfg;
      cfg.block = Dim3(kBlock);
      cfg.grid = Dim3(ceil_div(cols_, kBlock - 2 * steps));
      KernelArgs args;
      args.add(d_wall_).add(d_buf_[cur]).add(d_buf_[cur ^ 1]).add(int32_t(cols_))
          .add(int32_t(row)).add(int32_t(steps));
      stats.push_back(dev.launch(mod, "pathfinder_rows", cfg, args));
      cur ^= 1;
    }
    result_ = d_buf_[cur];
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<int32_t> got = dev.download<int32_t>(result_, cols_);
    // Reference: the row recurrence with explicit edge handling.
    std::vector<int32_t> cost(wall_.begin(), wall_.begin() + cols_), next(cols_);
    for (uint32_t r = 1; r < rows_; ++r) {
      for (uint32_t c = 0; c < cols_; ++c) {
        int32_t best = cost[c];
        if (c > 0) best = std::min(best, cost[c - 1]);
        if (c + 1 < cols_) best = std::min(best, cost[c + 1]);
        next[c] = wall_[size_t(r) * cols_ + c] + best;
      }
      cost.swap(next);
    }
    CheckResult res = compare_exact("cost", got, cost);
    res.detail += " (" + std::to_string(rows_) + " x " + std::to_string(cols_) + " grid)";
    return res;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"cost", result_, cols_, ElemType::I32}};
  }

 private:
  static constexpr uint32_t kBlock = 128, kSteps = 16;
  uint32_t rows_ = 0, cols_ = 0;
  std::vector<int32_t> wall_;
  DevicePtr d_wall_ = 0, d_buf_[2] = {0, 0}, result_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("pathfinder", Pathfinder);

}  // namespace
}  // namespace simtlm::workloads
