// memcached driver: GET requests against a generated chained hash table of
// variable-length keys; one thread per request, 256 threads per CTA.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "workloads/common/compare.h"
#include "workloads/common/outputs.h"
#include "workloads/common/rng.h"
#include "workloads/common/util.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Memcached : public Workload, public HasOutputs {
 public:
  WorkloadInfo info() const override {
    return {"memcached",
            "key-value GET: per-thread FNV-1a hash of a variable-length key, chained bucket "
            "walk and byte-wise key compare (divergent, intra-thread locality), 256 threads/CTA",
            "cache-sensitive", "memcached"};
  }

  std::vector<KernelShape> kernel_shapes() const override {
    return {{"memcached_get", kBlock, 0, true}};
  }

  void setup(Device& dev, Size size, uint64_t seed) override {
    uint32_t entries, buckets;
    if (size == Size::Small) {
      entries = 700, buckets = 256, nreq_ = 1000;
    } else {
      entries = 1u << 17, buckets = 1u << 16, nreq_ = 32768;  // chains of ~2
    }
    // Keys: URL-like strings of 8..40 characters from a 64-letter alphabet, unique.
    static const char kAlphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_";
    SplitMix64 rk(stream_seed(seed, 1)), rv(stream_seed(seed, 2)), rq(stream_seed(seed, 3));
    auto random_key = [&](SplitMix64& r) {
      std::string k(size_t(r.range(8, 40)), ' ');
      for (auto& ch : k) ch = kAlphabet[r.below(64)];
      return k;
    };
    std::unordered_set<std::string> seen;
    keys_.clear();
    while (keys_.size() < entries) {
      std::string k = random_key(rk);
      if (seen.insert(k).second) keys_.push_back(std::move(k));
    }
    values_.resize(entries);
    for (auto& v : values_) v = int32_t(rv.below(1u << 30));

    // The table: entries pushed at the head of their bucket's chain.
    std::vector<uint8_t> key_pool;
    std::vector<int32_t> key_off(entries), key_len(entries), next(entries);
    std::vector<int32_t> head(buckets, -1);
    for (uint32_t e = 0; e < entries; ++e) {
      key_off[e] = int32_t(key_pool.size());
      key_len[e] = int32_t(keys_[e].size());
      key_pool.insert(key_pool.end(), keys_[e].begin(), keys_[e].end());
      const uint32_t b = fnv1a(keys_[e]) % buckets;
      next[e] = head[b];
      head[b] = int32_t(e);
    }

    // Requests: 7 in 8 hit, with a skewed popularity (index below(below(n)+1)
    // favours the first keys, so hot keys repeat); the rest are fresh keys
    // (almost surely misses). Request keys are copies, not pointers into the table.
    requests_.clear();
    std::vector<uint8_t> req_pool;
    std::vector<int32_t> req_off(nreq_), req_len(nreq_);
    for (uint32_t r = 0; r < nreq_; ++r) {
      std::string k = rq.below(8) != 0 ? keys_[rq.below(uint64_t(rq.below(entries)) + 1)]
                                       : random_key(rq);
      req_off[r] = int32_t(req_pool.size());
      req_len[r] = int32_t(k.size());
      req_pool.insert(req_pool.end(), k.begin(), k.end());
      requests_.push_back(std::move(k));
    }
    nbuckets_ = buckets;
    d_req_pool_ = dev.upload(req_pool);
    d_req_off_ = dev.upload(req_off);
    d_req_len_ = dev.upload(req_len);
    d_head_ = dev.upload(head);
    d_key_pool_ = dev.upload(key_pool);
    d_key_off_ = dev.upload(key_off);
    d_key_len_ = dev.upload(key_len);
    d_next_ = dev.upload(next);
    d_value_ = dev.upload(values_);
    d_result_ = dev.malloc(size_t(nreq_) * sizeof(int32_t));
  }

  std::vector<LaunchStats> run(Device& dev) override {
    dev.memset(d_result_, 0, size_t(nreq_) * sizeof(int32_t));
    const ModuleHandle mod = dev.load_module_string(embedded_ptx("memcached"), "memcached.ptx");
    LaunchConfig cfg;
    cfg.block = Dim3(kBlock);
    cfg.grid = Dim3(ceil_div(nreq_, kBlock));
    KernelArgs args;
    args.add(d_req_pool_).add(d_req_off_).add(d_req_len_).add(int32_t(nreq_)).add(d_head_)
        .add(int32_t(nbuckets_)).add(d_key_pool_).add(d_key_off_).add(d_key_len_).add(d_next_)
        .add(d_value_).add(d_result_);
    return {dev.launch(mod, "memcached_get", cfg, args)};
  }

  CheckResult check(Device& dev) override {
    const std::vector<int32_t> got = dev.download<int32_t>(d_result_, nreq_);
    // Reference: a std::unordered_map from key to value (no use of the
    // device table's layout or hash).
    std::unordered_map<std::string, int32_t> store;
    for (size_t e = 0; e < keys_.size(); ++e) store.emplace(keys_[e], values_[e]);
    std::vector<int32_t> ref(nreq_);
    uint32_t hits = 0;
    for (uint32_t r = 0; r < nreq_; ++r) {
      const auto it = store.find(requests_[r]);
      ref[r] = it == store.end() ? -1 : it->second;
      hits += it != store.end();
    }
    CheckResult res = compare_exact("value", got, ref);
    res.detail += " (" + std::to_string(nreq_) + " GETs, " + std::to_string(hits) + " hits, " +
                  std::to_string(keys_.size()) + " keys in " + std::to_string(nbuckets_) +
                  " buckets)";
    return res;
  }

  std::vector<OutputBuffer> outputs() const override {
    return {{"value", d_result_, nreq_, ElemType::I32}};
  }

 private:
  static uint32_t fnv1a(const std::string& k) {
    uint32_t h = 2166136261u;
    for (unsigned char c : k) h = (h ^ c) * 16777619u;
    return h;
  }
  static constexpr uint32_t kBlock = 256;
  uint32_t nreq_ = 0, nbuckets_ = 0;
  std::vector<std::string> keys_, requests_;
  std::vector<int32_t> values_;
  DevicePtr d_req_pool_ = 0, d_req_off_ = 0, d_req_len_ = 0, d_head_ = 0, d_key_pool_ = 0,
            d_key_off_ = 0, d_key_len_ = 0, d_next_ = 0, d_value_ = 0, d_result_ = 0;
};

SIMTLM_REGISTER_WORKLOAD("memcached", Memcached);

}  // namespace
}  // namespace simtlm::workloads
