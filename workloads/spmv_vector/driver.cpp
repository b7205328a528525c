// spmv_vector driver: y = A x, CSR, one warp per row with a warp-shuffle
// reduction (the SPMV-Vector counterpart of the scalar `spmv`).
#include <cmath>
#include <string>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/csr.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class SpmvVector : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"spmv_vector",
            "y = A*x, CSR, one 32-thread warp per row (coalesced row streams, irregular x "
            "gathers), warp-shuffle reduction; 128 threads per CTA",
            "cache-sensitive", "spmv_vector"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"spmv_csr_vector", kBlock, 0, true}};
  }

  bool assumes_32_lane_warps() const override { return true; }

  void setup(Device& dev, Size size, uint64_t seed) override {
    check_warp_size(*this, dev.options().warp_size);
    CsrShape shape;
    uint32_t lo, hi;
    if (size == Size::Small) {
      shape.rows = 601, shape.cols = 700;  // 151 CTAs, the last one partial
      lo = 0, hi = 100;                    // empty rows to rows of > 3 warp widths
    } else {
      shape.rows = shape.cols = 8192;  // the DAWS chapter-5 input: 8k rows, ~80 nnz, random
      lo = 40, hi = 120;
    }
    shape.local_per_256 = 0;  // columns uniformly random
    SplitMix64 rs(stream_seed(seed, 1)), rv(stream_seed(seed, 2)), rx(stream_seed(seed, 3));
    a_ = make_csr(shape, rs, [&](SplitMix64& r) { return uint32_t(r.range(lo, hi)); });
    vals_.resize(a_.nnz());
    for (auto& v : vals_) v = rv.uniform(-1.f, 1.f);
    x_.resize(a_.cols);
    for (auto& v : x_) v = rx.uniform(-1.f, 1.f);
    d_rows_ = dev.upload(a_.row_offsets);
    d_cols_ = dev.upload(a_.col_indices);
    d_vals_ = dev.upload(vals_);
    d_x_ = dev.upload(x_);
    d_y_ = dev.malloc(size_t(a_.rows) * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_y_, 0, size_t(a_.rows) * sizeof(float));
    const ModuleHandle mod =
        dev.load_module_string(embedded_ptx("spmv_vector"), "spmv_vector.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(uint64_t(a_.rows) * 32, kBlock));
    KernelArgs args;
    args.add(d_rows_).add(d_cols_).add(d_vals_).add(d_x_).add(d_y_).add(int32_t(a_.rows));
    return {dev.launch(mod, "spmv_csr_vector", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<float> y = dev.download<float>(d_y_, a_.rows);
    std::vector<double> ref(a_.rows), tol(a_.rows);
    for (uint32_t r = 0; r < a_.rows; ++r) {
      double s = 0.0, mag = 0.0;
      const int32_t b = a_.row_offsets[r], e = a_.row_offsets[r + 1];
      for (int32_t k = b; k < e; ++k) {
        const double p = double(vals_[k]) * double(x_[a_.col_indices[k]]);
        s += p;
        mag += std::fabs(p);
      }
      ref[r] = s;
      // A product reaches y through its rounding (unless fused), at most
      // ceil(L/32) lane-sum additions and 5 shuffle levels.
      const double n = 2.0 * double(ceil_div(uint64_t(e - b), 32)) + 5.0;
      tol[r] = gamma_n(n) * mag;
    }
    CheckResult res = compare_with_tolerance(
        "y", y, ref, [&](size_t i) { return tol[i]; },
        "|err| <= gamma_{2*ceil(L/32)+5} * sum_j |a_rj x_j| (per-lane FMA/add chain of "
        "ceil(L/32) terms plus a 5-level shuffle tree, 32-lane warps)");
    res.detail += " (" + std::to_string(a_.rows) + " rows, " + std::to_string(a_.nnz()) + " nnz)";
    return res;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"y", d_y_, a_.rows, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 128;
  CsrStructure a_;
  std::vector<float> vals_, x_;
  DevicePtr d_rows_ = 0, d_cols_ = 0, d_vals_ = 0, d_x_ = 0, d_y_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("spmv_vector", SpmvVector);

}  // namespace
}  // namespace simtlm::workloads
