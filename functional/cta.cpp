// CTA state: warps, shared/local memory, named barriers.
#include "functional/cta.h"

#include <sstream>

#include "functional/executor.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace {
inline uint32_t popcount(uint64_t m) { return popcount64(m); }
}  // namespace

Cta::Cta(const LaunchContext& ctx, uint64_t linear_id)
    : linear_id_(linear_id),
      id_(ctx.cta_id(linear_id)),
      block_(ctx.block()),
      shared_(ctx.shared_bytes(), 0),
      local_(size_t(ctx.threads_per_cta()) * ctx.local_bytes(), 0),
      local_bytes_(ctx.local_bytes()),
      live_threads_(ctx.threads_per_cta()) {
  const unsigned w = ctx.warp_size();
  const uint32_t threads = ctx.threads_per_cta();
  const uint32_t regs = static_cast<uint32_t>(ctx.kernel().regs.size());
  const ir::FunctionAnalysis& analysis = ctx.kernel().analysis;
  const std::vector<uint32_t>* zero_regs = analysis.zero_all_registers ? nullptr : &analysis.registers_to_zero;
  warps_.reserve(ctx.warps_per_cta());
  for (uint32_t i = 0; i < ctx.warps_per_cta(); ++i) {
    const uint32_t first = i * w;
    const uint32_t lanes = threads - first < w ? threads - first : w;
    const uint64_t live = lanes >= 64 ? ~0ull : ((1ull << lanes) - 1);
    warps_.emplace_back(w, regs, i, first, live, zero_regs);
  }
}

Dim3u Cta::thread_id(uint32_t t) const {
  Dim3u d;
  d.x = t % block_.x;
  d.y = (t / block_.x) % block_.y;
  d.z = t / (block_.x * block_.y);
  return d;
}

bool Cta::arrive(Warp& warp, const LaunchContext& ctx, unsigned id, uint32_t count, uint64_t lanes,
                 bool wait, uint8_t red_op, const uint64_t* pred, int32_t red_dst) {
  const ExecRecord& rec = warp.record();
  if (id >= kNumBarriers) {
    unsigned lane = static_cast<unsigned>(__builtin_ctzll(lanes));
    throw Error(ErrorKind::Ptx, "barrier id " + std::to_string(id) + " outside 0..15 in " +
                                    describe_lane(ctx, *this, warp, rec.inst, lane));
  }
  Barrier& b = barriers_[id];
  if (b.arrived == 0) {
    b = Barrier{};
    b.expected = count;
    b.red_op = red_op;
  } else if (b.expected != count || b.red_op != red_op) {
    unsigned lane = static_cast<unsigned>(__builtin_ctzll(lanes));
    throw Error(ErrorKind::Ptx,
                "barrier " + std::to_string(id) + " used with a different thread count or reduction (" +
                    std::to_string(count) + " vs " + std::to_string(b.expected) + ") in " +
                    describe_lane(ctx, *this, warp, rec.inst, lane));
  }
  if (red_op != 0) {
    for (uint64_t m = lanes; m; m &= m - 1) {
      const bool p = (pred[__builtin_ctzll(m)] & 1) != 0;
      b.red_popc += p;
      b.red_all = b.red_all && p;
      b.red_any = b.red_any || p;
    }
  }
  // Barriers execute per warp (PTX ISA, bar): the warp's arrival counts all
  // its live threads, including lanes parked on a divergent path.
  b.arrived += popcount(warp.live_mask());
  if (wait) {
    warp.set_waiting(id, lanes, red_dst, rec.pc);
    b.has_waiters = true;
  }
  return try_release(id);
}

bool Cta::try_release(unsigned id) {
  Barrier& b = barriers_[id];
  if (b.arrived == 0) return false;
  const uint32_t target = b.expected ? b.expected : live_threads_;
  if (b.arrived < target) return false;
  uint64_t value = 0;
  switch (b.red_op) {
    case 1: value = b.red_popc; break;
    case 2: value = b.red_all ? 1 : 0; break;
    case 3: value = b.red_any ? 1 : 0; break;
    default: break;
  }
  if (b.has_waiters) {
    for (Warp& w : warps_) {
      if (!w.waiting() || w.barrier_id() != id) continue;
      if (b.red_op != 0 && w.barrier_red_dst() >= 0) {
        uint64_t* dst = w.regs() + w.barrier_red_dst();
        for (uint64_t m = w.barrier_lanes(); m; m &= m - 1) dst[__builtin_ctzll(m)] = value;
      }
      w.clear_waiting();
    }
  }
  b = Barrier{};
  return true;
}

bool Cta::threads_exited(uint64_t lanes) {
  live_threads_ -= popcount(lanes);
  bool released = false;
  for (unsigned id = 0; id < kNumBarriers; ++id) {
    if (barriers_[id].arrived != 0 && barriers_[id].expected == 0) released |= try_release(id);
  }
  return released;
}

std::string Cta::describe_waiting(const LaunchContext& ctx) const {
  std::ostringstream os;
  for (const Warp& w : warps_) {
    if (w.finished()) continue;
    os << "\n  warp " << w.index();
    if (w.waiting() && w.barrier_id() >= kNumBarriers) {
      const ir::Instruction* inst = ctx.decoded(w.barrier_pc()).inst;
      os << " waits outside the CTA";
      if (inst) os << " at line " << inst->loc.line << ": `" << inst->text << "`";
    } else if (w.waiting()) {
      const Barrier& b = barriers_[w.barrier_id()];
      const ir::Instruction* inst = ctx.decoded(w.barrier_pc()).inst;
      os << " waits at barrier " << w.barrier_id();
      if (inst) os << " (line " << inst->loc.line << ": `" << inst->text << "`)";
      os << ", " << b.arrived << " of " << (b.expected ? b.expected : live_threads_)
         << " threads arrived";
    } else {
      const ir::Instruction* inst = ctx.decoded(w.pc()).inst;
      os << " runnable at pc " << w.pc();
      if (inst) os << " (line " << inst->loc.line << ")";
    }
  }
  return os.str();
}

}  // namespace simtlm::functional
