// gcmark driver: GC mark phase over a generated object graph; one thread per
// start object (roots first, then overflow lists), 256 threads per CTA,
// relaunched until no thread's private stack overflows.
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

class GcMark : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"gcmark",
            "GC mark phase: per-thread depth-first pointer chasing over an object graph with "
            "a private stack, mark bitmap set by atomicOr, overflow relaunches",
            "cache-sensitive", "gcmark"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"gc_mark", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    uint32_t roots;
    if (size == Size::Small) {
      nobj_ = 5000, roots = 300;
    } else {
      nobj_ = 1u << 18, roots = 8192;
    }
    // Objects have 0..6 pointer fields (a sixth of them null). Three in four
    // non-null fields point near the object (allocation locality: a window of
    // +-64 objects), the rest anywhere; a share of objects stays unreachable.
    SplitMix64 rg(stream_seed(seed, 1)), rr(stream_seed(seed, 2));
    first_.assign(1, 0);
    fields_.clear();
    for (uint32_t o = 0; o < nobj_; ++o) {
      const uint32_t n = rg.below(7);
      for (uint32_t f = 0; f < n; ++f) {
        int32_t c;
        if (rg.below(6) == 0) {
          c = -1;
        } else if (rg.below(4) != 0) {
          c = int32_t((int64_t(o) + rg.range(-64, 64) + nobj_) % nobj_);
        } else {
          c = int32_t(rg.below(nobj_));
        }
        fields_.push_back(c);
      }
      first_.push_back(int32_t(fields_.size()));
    }
    roots_.resize(roots);
    for (auto& r : roots_) r = int32_t(rr.below(nobj_));
    words_ = ceil_div(nobj_, 32);
    d_first_ = dev.upload(first_);
    d_fields_ = dev.upload(fields_);
    d_roots_ = dev.upload(roots_);
    d_bitmap_ = dev.malloc(size_t(words_) * 4);
    // Every object is marked once, so it overflows at most once.
    d_overflow_[0] = dev.malloc(size_t(nobj_) * 4);
    d_overflow_[1] = dev.malloc(size_t(nobj_) * 4);
    d_count_ = dev.malloc(4);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_bitmap_, 0, size_t(words_) * 4);
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("gcmark"), "gcmark.ptx");
    std::vector<LaunchStats> stats;
    DevicePtr starts = d_roots_;
    int32_t nstarts = int32_t(roots_.size()), marked = 0;
    for (int pass = 0; nstarts > 0; ++pass) {
      if (pass > int32_t(nobj_))
        throw Error(ErrorKind::Internal, "gcmark: overflow relaunches do not terminate");
      const DevicePtr out = d_overflow_[pass & 1];
      dev.memset(d_count_, 0, 4);
      LaunchConfig cfg;
      cfg.block = Dim3(kBlock);
      cfg.grid = Dim3(ceil_div(uint32_t(nstarts), kBlock));
      KernelArgs args;
      args.add(starts).add(nstarts).add(marked).add(d_first_).add(d_fields_).add(d_bitmap_)
          .add(out).add(d_count_);
      stats.push_back(dev.launch(mod, "gc_mark", cfg, args));
      dev.memcpy_to_host(&nstarts, d_count_, 4);
      starts = out;
      marked = 1;
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const std::vector<uint32_t> got = dev.download<uint32_t>(d_bitmap_, words_);
    // Reference: reachability by an explicit-stack depth-first search.
    std::vector<uint8_t> seen(nobj_, 0);
    std::vector<int32_t> todo;
    for (int32_t r : roots_)
      if (!seen[r]) seen[r] = 1, todo.push_back(r);
    uint32_t reached = 0;
    while (!todo.empty()) {
      const int32_t o = todo.back();
      todo.pop_back();
      ++reached;
      for (int32_t f = first_[o]; f < first_[o + 1]; ++f) {
        const int32_t c = fields_[f];
        if (c >= 0 && !seen[c]) seen[c] = 1, todo.push_back(c);
      }
    }
    std::vector<uint32_t> ref(words_, 0);
    for (uint32_t o = 0; o < nobj_; ++o)
      if (seen[o]) ref[o / 32] |= 1u << (o % 32);
    CheckResult r = compare_exact("mark bitmap word", got, ref);
    r.detail += " (" + std::to_string(nobj_) + " objects, " + std::to_string(fields_.size()) +
                " fields, " + std::to_string(roots_.size()) + " roots, " +
                std::to_string(reached) + " reachable)";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"bitmap", d_bitmap_, words_, ElemType::U32}};
  }

 private:
  static constexpr uint32_t kBlock = 256;
  uint32_t nobj_ = 0, words_ = 0;
  std::vector<int32_t> first_, fields_, roots_;
  DevicePtr d_first_ = 0, d_fields_ = 0, d_roots_ = 0, d_bitmap_ = 0, d_count_ = 0;
  DevicePtr d_overflow_[2] = {0, 0};
};

SIMTLM_REGISTER_WORKLOAD("gcmark", GcMark);

}  // namespace
}  // namespace simtlm::workloads
