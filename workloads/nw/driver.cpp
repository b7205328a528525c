// nw driver: Needleman-Wunsch scores of two seeded protein-like sequences
// with a seeded substitution table; one launch per anti-diagonal of 16x16
// blocks (nw_upper for the first nb diagonals, nw_lower for the rest).
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

constexpr uint32_t kB = 16;        // = B in kernel.cu
constexpr uint32_t kLetters = 24;  // alphabet size (as BLOSUM's 20 amino acids + 4 codes)

class Nw : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"nw",
            "Needleman-Wunsch alignment scores: 16-thread CTAs per 16x16 block with a 17x17 "
            "score tile and a 16x16 substitution tile in shared memory, one launch per block "
            "anti-diagonal (two kernels)",
            "scratchpad-limited", "nw"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"nw_upper", kB, 0, true},
            {"nw_lower", kB, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    len_ = size == Size::Small ? 100 : 1536;
    // The kernels work on whole 16x16 blocks: pad both sequences to a
    // multiple of 16. Padding cells lie below/right of the real ones and the
    // recurrence only looks up and left, so they never influence them.
    n_ = ceil_div(len_, kB) * kB;
    penalty_ = 10;
    SplitMix64 rs(stream_seed(seed, 1)), rt(stream_seed(seed, 2));
    std::vector<int32_t> table(kLetters * kLetters);
    for (uint32_t a = 0; a < kLetters; ++a)
      for (uint32_t b = a; b < kLetters; ++b)
        table[a * kLetters + b] = table[b * kLetters + a] =
            a == b ? int32_t(rt.range(4, 11)) : int32_t(rt.range(-4, 3));
    seq_a_.resize(len_), seq_b_.resize(len_);
    for (auto& c : seq_a_) c = rs.below(kLetters);
    for (auto& c : seq_b_) c = rs.below(kLetters);
    const uint32_t stride = n_ + 1;
    sub_.assign(size_t(stride) * stride, 0);
    score0_.assign(size_t(stride) * stride, 0);
    for (uint32_t i = 1; i <= len_; ++i)
      for (uint32_t j = 1; j <= len_; ++j)
        sub_[size_t(i) * stride + j] = table[seq_a_[i - 1] * kLetters + seq_b_[j - 1]];
    for (uint32_t i = 0; i <= n_; ++i) {
      score0_[size_t(i) * stride] = -int32_t(i) * penalty_;
      score0_[i] = -int32_t(i) * penalty_;
    }
    table_ = table;
    d_sub_ = dev.upload(sub_);
    d_score_ = dev.upload(score0_);
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memcpy_to_device(d_score_, score0_.data(), score0_.size() * sizeof(int32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("nw"), "nw.ptx");
    const uint32_t nb = n_ / kB;
    std::vector<LaunchStats> stats;
    LaunchConfig cfg;
    cfg.block = Dim3(kB);
    for (uint32_t d = 0; d < nb; ++d) {
      cfg.grid = Dim3(d + 1);
      KernelArgs args;
      args.add(d_score_).add(d_sub_).add(int32_t(n_)).add(penalty_).add(int32_t(d));
      stats.push_back(dev.launch(mod, "nw_upper", cfg, args));
    }
    for (uint32_t d = 1; d < nb; ++d) {
      cfg.grid = Dim3(nb - d);
      KernelArgs args;
      args.add(d_score_).add(d_sub_).add(int32_t(n_)).add(penalty_).add(int32_t(d));
      stats.push_back(dev.launch(mod, "nw_lower", cfg, args));
    }
    return stats;
  }

  CheckResult check(Device& dev) override {
    const uint32_t stride = n_ + 1;
    const std::vector<int32_t> all = dev.download<int32_t>(d_score_, size_t(stride) * stride);
    // Reference: the textbook row-by-row recurrence on the unpadded sequences.
    std::vector<int32_t> ref(size_t(len_ + 1) * (len_ + 1)), got(ref.size());
    const uint32_t w = len_ + 1;
    for (uint32_t i = 0; i <= len_; ++i) ref[size_t(i) * w] = -int32_t(i) * penalty_;
    for (uint32_t j = 0; j <= len_; ++j) ref[j] = -int32_t(j) * penalty_;
    for (uint32_t i = 1; i <= len_; ++i)
      for (uint32_t j = 1; j <= len_; ++j)
        ref[size_t(i) * w + j] = std::max(
            {ref[size_t(i - 1) * w + j - 1] + table_[seq_a_[i - 1] * kLetters + seq_b_[j - 1]],
             ref[size_t(i - 1) * w + j] - penalty_, ref[size_t(i) * w + j - 1] - penalty_});
    for (uint32_t i = 0; i <= len_; ++i)
      for (uint32_t j = 0; j <= len_; ++j) got[size_t(i) * w + j] = all[size_t(i) * stride + j];
    CheckResult r = compare_exact("score", got, ref);
    r.detail += " (sequences of " + std::to_string(len_) + ", padded to " + std::to_string(n_) +
                ", final score " + std::to_string(ref.back()) + ")";
    return r;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"score", d_score_, score0_.size(), ElemType::I32}};
  }

 private:
  uint32_t len_ = 0, n_ = 0;
  int32_t penalty_ = 0;
  std::vector<uint32_t> seq_a_, seq_b_;
  std::vector<int32_t> table_, sub_, score0_;
  DevicePtr d_sub_ = 0, d_score_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("nw", Nw);

}  // namespace
}  // namespace simtlm::workloads
