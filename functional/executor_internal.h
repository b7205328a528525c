// Helpers shared by the executor's translation units (not a public interface).
#pragma once

#include <cstdint>

#include "functional/cta.h"
#include "functional/executor.h"

namespace simtlm::functional::detail {

// Fills out[0..W) with special register `reg` (component `comp`).
void fill_special(ir::SpecialReg reg, uint8_t comp, Warp& warp, const Cta& cta,
                  const LaunchContext& ctx, uint64_t* out);

// Lane array of source `s`; materialised operands use scratch slot `slot`.
inline const uint64_t* src_lanes(const Src& s, unsigned slot, Warp& warp, const Cta& cta,
                                 const LaunchContext& ctx) {
  switch (s.kind) {
    case SrcKind::Reg:
      return warp.regs() + s.off;
    case SrcKind::Pool:
      return ctx.pool() + s.off;
    case SrcKind::NotReg: {
      uint64_t* out = warp.scratch(slot);
      const uint64_t* in = warp.regs() + s.off;
      const unsigned w = warp.width();
      for (unsigned l = 0; l < w; ++l) out[l] = (in[l] & 1) ^ 1;
      return out;
    }
    case SrcKind::Special: {
      uint64_t* out = warp.scratch(slot);
      fill_special(s.sreg, s.component, warp, cta, ctx, out);
      return out;
    }
    case SrcKind::None:
      break;
  }
  return nullptr;
}

// Scratch slots beyond the per-source ones.
inline constexpr unsigned kTempSlot = 6;
inline constexpr unsigned kTempSlot2 = 7;

void exec_load(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_store(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_atomic(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_cvta(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_isspacep(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_shfl(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_vote(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_activemask(const DecodedInst& d, Warp& warp, uint64_t exec);
void exec_mov_pack(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
void exec_mov_unpack(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
// Formats each executing lane's printf call into the launch's printf buffer
// (lane order; the buffer sorts) and writes printf's result to dst[0].
void exec_vprintf(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);
// Returns true when the branch diverged.
bool exec_brx(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec);

}  // namespace simtlm::functional::detail
