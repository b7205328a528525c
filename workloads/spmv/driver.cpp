// spmv driver: y = A * x, CSR, one row per thread.
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

class Spmv : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"spmv",
            "CSR sparse matrix-vector product, scalar kernel (one row per thread, "
            "variable row lengths, irregular x gathers)",
            "cache-sensitive", "spmv"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"spmv_csr_scalar", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    CsrShape shape;
    uint32_t short_lo, short_hi, long_lo, long_hi;
    if (size == Size::Small) {
      shape.rows = shape.cols = 1000;
      shape.band = 32;
      short_lo = 0, short_hi = 20, long_lo = 20, long_hi = 80;
    } else {
      shape.rows = shape.cols = 16384;
      shape.band = 256;
      short_lo = 24, short_hi = 96, long_lo = 96, long_hi = 384;
    }
    shape.local_per_256 = 128;  // half the entries near the diagonal, half anywhere
    // Row lengths: 7 of 8 rows short, 1 of 8 long, so a warp's lanes finish
    // their loops at very different iterations.
    SplitMix64 rs(stream_seed(seed, 1)), rv(stream_seed(seed, 2)), rx(stream_seed(seed, 3));
    a_ = make_csr(shape, rs, [&](SplitMix64& r) {
      return r.below(8) == 0 ? uint32_t(r.range(long_lo, long_hi))
                             : uint32_t(r.range(short_lo, short_hi));
    });
    values_.resize(a_.nnz());
    for (auto& v : values_) v = rv.uniform(-1.f, 1.f);
    x_.resize(a_.cols);
    for (auto& v : x_) v = rx.uniform(-1.f, 1.f);
    d_rows_ = dev.upload(a_.row_offsets);
    d_cols_ = dev.upload(a_.col_indices);
    d_vals_ = dev.upload(values_);
    d_x_ = dev.upload(x_);
    d_y_ = dev.malloc(size_t(a_.rows) * sizeof(float));
    dev.memset(d_y_, 0, size_t(a_.rows) * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("spmv"), "spmv.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(a_.rows, kBlock));
    KernelArgs args;
    args.add(d_rows_).add(d_cols_).add(d_vals_).add(d_x_).add(d_y_).add(int32_t(a_.rows));
    return {dev.launch(mod, "spmv_csr_scalar", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    std::vector<float> y = dev.download<float>(d_y_, a_.rows);
    std::vector<double> ref(a_.rows), tol(a_.rows);
    for (uint32_t r = 0; r < a_.rows; ++r) {
      double sum = 0.0, mag = 0.0;
      const int32_t begin = a_.row_offsets[r], end = a_.row_offsets[r + 1];
      for (int32_t e = begin; e < end; ++e) {
        const double p = double(values_[size_t(e)]) * double(x_[size_t(a_.col_indices[size_t(e)])]);
        sum += p;
        mag += std::fabs(p);
      }
      ref[r] = sum;
      // A row of L entries is an L-long chain of float FMAs (or multiply-adds:
      // 2L roundings) accumulated in a fixed order: |err| <= gamma_{2L} * sum|a x|.
      tol[r] = gamma_n(2.0 * double(end - begin)) * mag;
    }
    const std::string rule = "|err| <= gamma_{2L}*sum_j|a_rj*x_j| per row of length L, "
                             "gamma_n = n*u/(1-n*u), u = 2^-24 (worst-case bound of an L-term "
                             "float dot product); " + std::to_string(a_.nnz()) + " nonzeros";
    return compare_with_tolerance("y", y, ref, [&](size_t i) { return tol[i]; }, rule);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"y", d_y_, a_.rows, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 128;
  CsrStructure a_;
  std::vector<float> values_, x_;
  DevicePtr d_rows_ = 0, d_cols_ = 0, d_vals_ = 0, d_x_ = 0, d_y_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("spmv", Spmv);

}  // namespace
}  // namespace simtlm::workloads
