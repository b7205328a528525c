// vectorAdd driver: c = a + b over n floats, one thread per element.
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class VectorAdd : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"vectorAdd", "element-wise float vector addition c = a + b", "convergent",
            "vectorAdd"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"vectorAdd", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    // Small: 4133 elements (not a multiple of the CTA size, to exercise the bound check).
    n_ = size == Size::Small ? 4133u : (1u << 20);
    SplitMix64 rng_a(stream_seed(seed, 1)), rng_b(stream_seed(seed, 2));
    a_.resize(n_);
    b_.resize(n_);
    for (auto& v : a_) v = rng_a.uniform(-100.f, 100.f);
    for (auto& v : b_) v = rng_b.uniform(-100.f, 100.f);
    d_a_ = dev.upload(a_);
    d_b_ = dev.upload(b_);
    d_c_ = dev.malloc(size_t(n_) * sizeof(float));
    dev.memset(d_c_, 0, size_t(n_) * sizeof(float));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("vectorAdd"), "vectorAdd.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(n_, kBlock));
    KernelArgs args;
    args.add(d_a_).add(d_b_).add(d_c_).add(int32_t(n_));
    return {dev.launch(mod, "vectorAdd", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    // IEEE single-precision addition is correctly rounded on both sides, so the
    // CPU's float sum is bit-identical to a correct device result.
    std::vector<float> c = dev.download<float>(d_c_, n_);
    std::vector<float> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) ref[i] = a_[i] + b_[i];
    return compare_exact("c", c, ref);
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"c", d_c_, n_, ElemType::F32}};
  }

 private:
  static constexpr uint32_t kBlock = 256;
  uint32_t n_ = 0;
  std::vector<float> a_, b_;
  DevicePtr d_a_ = 0, d_b_ = 0, d_c_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("vectorAdd", VectorAdd);

}  // namespace
}  // namespace simtlm::workloads
