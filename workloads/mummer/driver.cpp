// mummer driver: a random DNA reference, its suffix trie (depth-capped) built
// on the host, and reads cut from the reference with point mutations (plus a
// share of random reads) matched on the GPU, one thread per read.
#include <algorithm>
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

class Mummer : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"mummer",
            "MUMmerGPU-style read matching: one thread per read walks a depth-capped suffix "
            "trie of the reference from every read offset (pointer chasing, divergent), 256 "
            "threads/CTA",
            "register-limited", "mummer"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"mummer_match", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    uint32_t ref_len;
    if (size == Size::Small) {
      ref_len = 3000, depth_ = 16, read_len_ = 50, reads_ = 300;  // partial CTA, partial words
    } else {
      ref_len = 40000, depth_ = 20, read_len_ = 64, reads_ = 6144;
    }
    min_match_ = 10;
    SplitMix64 rr(stream_seed(seed, 1)), rq(stream_seed(seed, 2));
    ref_.resize(ref_len);
    for (auto& b : ref_) b = uint8_t(rr.below(4));

    // Suffix trie: insert every suffix, cut at depth_, in increasing start
    // order, so a node's first_pos is the start that created it.
    std::vector<int32_t> child{-1, -1, -1, -1}, first_pos{0};
    for (uint32_t i = 0; i < ref_len; ++i) {
      int32_t node = 0;
      for (uint32_t d = 0; d < depth_ && i + d < ref_len; ++d) {
        const uint8_t c = ref_[i + d];
        if (child[4 * size_t(node) + c] < 0) {
          child[4 * size_t(node) + c] = int32_t(first_pos.size());
          first_pos.push_back(int32_t(i));
          child.insert(child.end(), {-1, -1, -1, -1});
        }
        node = child[4 * size_t(node) + c];
      }
    }
    nodes_ = uint32_t(first_pos.size());

    // Reads: 7 in 8 are reference substrings with each base mutated with
    // probability 1/16; the rest are random.
    words_ = ceil_div(read_len_, 16);
    reads_bases_.assign(size_t(reads_) * read_len_, 0);
    std::vector<uint32_t> packed(size_t(reads_) * words_, 0);
    for (uint32_t r = 0; r < reads_; ++r) {
      const bool random = rq.below(8) == 0;
      const uint32_t at = rq.below(ref_len - read_len_ + 1);
      for (uint32_t p = 0; p < read_len_; ++p) {
        uint8_t b = random ? uint8_t(rq.below(4)) : ref_[at + p];
        if (!random && rq.below(16) == 0) b = uint8_t((b + 1 + rq.below(3)) % 4);
        reads_bases_[size_t(r) * read_len_ + p] = b;
        packed[size_t(r) * words_ + p / 16] |= uint32_t(b) << (2 * (p % 16));
      }
    }
    d_child_ = dev.upload(child), d_first_ = dev.upload(first_pos), d_reads_ = dev.upload(packed);
    for (auto& d : d_out_) d = dev.malloc(reads_ * sizeof(int32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    for (auto d : d_out_) dev.memset(d, 0xff, reads_ * sizeof(int32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("mummer"), "mummer.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(reads_, kBlock));
    KernelArgs args;
    args.add(d_child_).add(d_first_).add(d_reads_).add(int32_t(read_len_)).add(int32_t(words_))
        .add(int32_t(reads_)).add(int32_t(depth_)).add(int32_t(min_match_)).add(d_out_[0])
        .add(d_out_[1]).add(d_out_[2]).add(d_out_[3]);
    return {dev.launch(mod, "mummer_match", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    // Reference without the trie: for every length l <= depth, the sorted
    // (2-bit code of ref[i..i+l), i) pairs; a string occurs iff its code is
    // present, and its first occurrence is the smallest i with that code.
    const uint32_t n = uint32_t(ref_.size());
    std::vector<std::vector<std::pair<uint64_t, int32_t>>> table(depth_ + 1);
    for (uint32_t l = 1; l <= depth_; ++l) {
      auto& t = table[l];
      for (uint32_t i = 0; i + l <= n; ++i) {
        uint64_t code = 0;
        for (uint32_t d = 0; d < l; ++d) code = code * 4 + ref_[i + d];
        t.emplace_back(code, int32_t(i));
      }
      std::sort(t.begin(), t.end());
    }
    auto first_occurrence = [&](uint32_t l, uint64_t code) -> int32_t {
      const auto& t = table[l];
      const auto it = std::lower_bound(t.begin(), t.end(), std::make_pair(code, int32_t(-1)));
      return it != t.end() && it->first == code ? it->second : -1;
    };
    std::vector<int32_t> total(reads_), hits(reads_), best(reads_), best_pos(reads_);
    for (uint32_t r = 0; r < reads_; ++r) {
      const uint8_t* read = &reads_bases_[size_t(r) * read_len_];
      int32_t tot = 0, h = 0, b = -1, bp = 0;
      for (uint32_t s = 0; s < read_len_; ++s) {
        const uint32_t limit = std::min(depth_, read_len_ - s);
        uint32_t l = 0;
        int32_t pos = 0;
        uint64_t code = 0;
        while (l < limit) {
          const uint64_t next = code * 4 + read[s + l];
          const int32_t at = first_occurrence(l + 1, next);
          if (at < 0) break;
          code = next, pos = at, ++l;
        }
        tot += int32_t(l);
        h += l >= min_match_;
        if (int32_t(l) > b) b = int32_t(l), bp = pos;
      }
      total[r] = tot, hits[r] = h, best[r] = b, best_pos[r] = bp;
    }
    const char* names[4] = {"total match length", "matches >= min_match", "longest match",
                            "longest match position"};
    const std::vector<int32_t>* refs[4] = {&total, &hits, &best, &best_pos};
    CheckResult all{true, ""};
    for (int k = 0; k < 4; ++k) {
      const CheckResult c = compare_exact(names[k], dev.download<int32_t>(d_out_[k], reads_), *refs[k]);
      all.passed = all.passed && c.passed;
      all.detail += (k ? "; " : "") + c.detail;
    }
    all.detail += " (reference " + std::to_string(n) + " bases, trie " + std::to_string(nodes_) +
                  " nodes, depth " + std::to_string(depth_) + ", " + std::to_string(reads_) +
                  " reads of " + std::to_string(read_len_) + ")";
    return all;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"total", d_out_[0], reads_, ElemType::I32}, {"hits", d_out_[1], reads_, ElemType::I32},
            {"best", d_out_[2], reads_, ElemType::I32}, {"best_pos", d_out_[3], reads_, ElemType::I32}};
  }

 private:
  static constexpr uint32_t kBlock = 256;
  uint32_t depth_ = 0, read_len_ = 0, reads_ = 0, words_ = 0, nodes_ = 0, min_match_ = 0;
  std::vector<uint8_t> ref_, reads_bases_;
  DevicePtr d_child_ = 0, d_first_ = 0, d_reads_ = 0, d_out_[4] = {0, 0, 0, 0};
};

SIMTLM_REGISTER_WORKLOAD("mummer", Mummer);

}  // namespace
}  // namespace simtlm::workloads
