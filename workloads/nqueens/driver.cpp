// nqueens driver: N-queens solution count. The host enumerates every legal
// placement of the first `prefix_rows_` rows (as column/diagonal bit masks);
// each thread of `nqueens_search` finishes one prefix by backtracking with its
// stack in shared memory (96-thread CTAs, 15,744 B of shared memory per CTA)
// and every CTA writes the sum of its threads' counts.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kThreads = 96;    // = NQ_THREADS in kernel.cu
constexpr uint32_t kMaxLevels = 10;  // = NQ_MAX_LEVELS in kernel.cu

// Known solution counts (OEIS A000170) for n = 0..15.
constexpr uint64_t kKnownTotals[] = {1,   1,    0,     0,     2,      10,      4,       40,
                                     92,  352,  724,   2680,  14200,  73712,   365596,  2279184};

// The independent CPU reference: a plain recursive solver over a board kept
// as boolean column / diagonal occupancy arrays (no bit masks), trying the
// columns of each row left to right. Placements of the first `prefix_rows`
// rows are met in the order the driver enumerates the prefixes (also lowest
// column first), so the count under the k-th one is added to counts[k].
class ArrayBoardSolver {
 public:
  ArrayBoardSolver(int n, int prefix_rows)
      : n_(n), prefix_rows_(prefix_rows), col_(n, false), diag_(2 * n, false),
        anti_(2 * n, false) {}

  // Returns the total; per_prefix receives one count per prefix.
  uint64_t solve(std::vector<uint64_t>& per_prefix) {
    per_prefix.clear();
    total_ = 0;
    out_ = &per_prefix;
    place(0);
    return total_;
  }

 private:
  void place(int row) {
    if (row == prefix_rows_) out_->push_back(0);
    if (row == n_) {
      ++total_;
      ++out_->back();
      return;
    }
    for (int c = 0; c < n_; ++c) {
      // Queens (r1, c1), (r2, c2) share a diagonal when r - c or r + c agree.
      const int d = row - c + n_, a = row + c;
      if (col_[c] || diag_[d] || anti_[a]) continue;
      col_[c] = diag_[d] = anti_[a] = true;
      place(row + 1);
      col_[c] = diag_[d] = anti_[a] = false;
    }
  }

  int n_, prefix_rows_;
  std::vector<bool> col_, diag_, anti_;
  uint64_t total_ = 0;
  std::vector<uint64_t>* out_ = nullptr;
};

class NQueens : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"nqueens",
            "N-queens solution count (NQU style): one host-enumerated prefix per thread, "
            "backtracking with a per-thread stack of row masks in shared memory "
            "(96-thread CTAs, 15,744 B), one count per CTA",
            "scratchpad-limited", "nqueens"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"nqueens_search", kThreads, 0, true}};
  }

  // The problem has no random input: the seed is accepted and unused (the
  // prefixes, and so every thread's work, follow from N alone).
  void setup(Device& dev, Size size, uint64_t /*seed*/) override {
    if (size == Size::Small) {
      n_ = 10, prefix_rows_ = 3;  // 7 levels per thread
    } else {
      n_ = 13, prefix_rows_ = 4;  // 9 levels per thread
    }
    levels_ = n_ - prefix_rows_;  // rows each thread places
    if (levels_ > kMaxLevels) throw std::logic_error("nqueens: more rows than the kernel's stack");
    cols_.clear(), ld_.clear(), rd_.clear();
    enumerate(0, 0, 0, 0);
    num_prefixes_ = uint32_t(cols_.size());
    ctas_ = ceil_div(num_prefixes_, kThreads);
    d_cols_ = dev.upload(cols_);
    d_ld_ = dev.upload(ld_);
    d_rd_ = dev.upload(rd_);
    d_counts_ = dev.malloc(size_t(ctas_) * sizeof(uint32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("nqueens"), "nqueens.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kThreads);
    cfg.grid = Dim3(ctas_);
    KernelArgs args;
    args.add(d_cols_).add(d_ld_).add(d_rd_).add(int32_t(num_prefixes_)).add(int32_t(n_))
        .add(int32_t(levels_)).add(d_counts_);
    return {dev.launch(mod, "nqueens_search", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<uint32_t> got = dev.download<uint32_t>(d_counts_, ctas_);
    std::vector<uint64_t> per_prefix;
    ArrayBoardSolver solver{int(n_), int(prefix_rows_)};
    const uint64_t ref_total = solver.solve(per_prefix);
    CheckResult r;
    if (per_prefix.size() != num_prefixes_) {
      r.detail = "prefixes: the reference met " + std::to_string(per_prefix.size()) +
                 " placements of the first " + std::to_string(prefix_rows_) +
                 " rows, the driver enumerated " + std::to_string(num_prefixes_) + " (mismatch)";
      return r;
    }
    std::vector<uint32_t> ref(ctas_, 0);
    for (uint32_t p = 0; p < num_prefixes_; ++p) ref[p / kThreads] += uint32_t(per_prefix[p]);
    r = compare_exact("cta_counts", got, ref);
    uint64_t got_total = 0;
    for (uint32_t v : got) got_total += v;
    const uint64_t known = kKnownTotals[n_];
    r.detail += "; total " + std::to_string(got_total) + " solutions for N = " +
                std::to_string(n_) + " (reference " + std::to_string(ref_total) + ", known " +
                std::to_string(known) + "; " + std::to_string(num_prefixes_) + " prefixes of " +
                std::to_string(prefix_rows_) + " rows)";
    if (r.passed && (got_total != ref_total || ref_total != known)) {
      r.passed = false;
      r.detail += ": total mismatch";
    }
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"cta_counts", d_counts_, ctas_, ElemType::U32}};
  }

 private:
  // Legal placements of rows [row, prefix_rows_), lowest column first. The
  // masks describe the next row: `ld` / `rd` are the columns attacked along
  // the diagonals through the queens above (shifted one column per row).
  void enumerate(uint32_t row, uint32_t cols, uint32_t ld, uint32_t rd) {
    if (row == prefix_rows_) {
      cols_.push_back(cols), ld_.push_back(ld), rd_.push_back(rd);
      return;
    }
    const uint32_t board = (1u << n_) - 1u;
    for (uint32_t c = 0; c < n_; ++c) {
      const uint32_t q = 1u << c;
      if ((cols | ld | rd) & q & board) continue;
      enumerate(row + 1, cols | q, (ld | q) << 1, (rd | q) >> 1);
    }
  }

  uint32_t n_ = 0, prefix_rows_ = 0, levels_ = 0, num_prefixes_ = 0, ctas_ = 0;
  std::vector<uint32_t> cols_, ld_, rd_;
  DevicePtr d_cols_ = 0, d_ld_ = 0, d_rd_ = 0, d_counts_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("nqueens", NQueens);

}  // namespace
}  // namespace simtlm::workloads
