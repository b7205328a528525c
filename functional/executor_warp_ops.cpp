// Warp collectives: shfl.sync, vote.sync, activemask. They operate on 32-lane
// segments of the warp (see warp.h): for W <= 32 the whole warp, for W > 32
// each 32-lane half on its own.
#include "functional/executor_internal.h"

namespace simtlm::functional::detail {

namespace {
inline unsigned first_lane(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }

// Bits of `m` belonging to the segment of `lane`, shifted to bit 0.
inline uint32_t segment_bits(uint64_t m, unsigned lane) {
  return static_cast<uint32_t>(m >> (lane & ~31u));
}
}  // namespace

void exec_shfl(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned w = warp.width();
  const uint64_t* a = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t* b = src_lanes(d.src[1], 1, warp, cta, ctx);
  const uint64_t* c = src_lanes(d.src[2], 2, warp, cta, ctx);
  // Snapshot the source values: d may be the same register as a.
  uint64_t* value = warp.scratch(kTempSlot);
  for (unsigned l = 0; l < w; ++l) value[l] = a[l];
  uint64_t* result = warp.scratch(kTempSlot2);
  uint64_t pvals = 0;
  const ir::ShflMode mode = d.inst->shfl;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned lane = first_lane(m);
    const unsigned seg = lane & ~31u;
    const int l = static_cast<int>(lane & 31u);
    const int bval = static_cast<int>(b[lane] & 31u);
    const uint32_t cv = static_cast<uint32_t>(c[lane]);
    const int cval = static_cast<int>(cv & 31u);
    const int segmask = static_cast<int>((cv >> 8) & 31u);
    const int max_lane = (l & segmask) | (cval & ~segmask);
    const int min_lane = l & segmask;
    int j = l;
    bool pval = false;
    switch (mode) {
      case ir::ShflMode::Up: j = l - bval; pval = j >= max_lane; break;
      case ir::ShflMode::Down: j = l + bval; pval = j <= max_lane; break;
      case ir::ShflMode::Bfly: j = l ^ bval; pval = j <= max_lane; break;
      case ir::ShflMode::Idx: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
      case ir::ShflMode::None: break;
    }
    if (!pval) j = l;
    const unsigned src = seg + static_cast<unsigned>(j);
    const bool readable = src < w && ((exec >> src) & 1);
    result[lane] = readable ? value[src] : value[lane];
    if (pval) pvals |= 1ull << lane;
  }
  uint64_t* regs = warp.regs();
  if (d.dst[0] != kNoDst) {
    uint64_t* out = regs + d.dst[0];
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      out[l] = result[l] & 0xFFFFFFFFu;
    }
  }
  if (d.dst[1] != kNoDst) {
    uint64_t* out = regs + d.dst[1];
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      out[l] = (pvals >> l) & 1;
    }
  }
}

void exec_vote(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* pred = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t* member = src_lanes(d.src[1], 1, warp, cta, ctx);
  uint64_t truth = 0;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    truth |= (pred[l] & 1) << l;
  }
  if (d.dst[0] == kNoDst) return;
  uint64_t* out = warp.regs() + d.dst[0];
  const ir::VoteMode mode = d.inst->vote;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint32_t part = segment_bits(exec, l) & static_cast<uint32_t>(member[l]);
    const uint32_t yes = segment_bits(truth, l) & part;
    uint64_t r = 0;
    switch (mode) {
      case ir::VoteMode::All: r = yes == part; break;
      case ir::VoteMode::Any: r = yes != 0; break;
      case ir::VoteMode::Uni: r = yes == 0 || yes == part; break;
      case ir::VoteMode::Ballot: r = yes; break;
      case ir::VoteMode::None: break;
    }
    out[l] = r;
  }
}

void exec_activemask(const DecodedInst& d, Warp& warp, uint64_t exec) {
  if (d.dst[0] == kNoDst) return;
  uint64_t* out = warp.regs() + d.dst[0];
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    out[l] = segment_bits(exec, l);
  }
}

}  // namespace simtlm::functional::detail
