#include "functional/shared_access.h"

#include <algorithm>

#include "functional/decoded.h"
#include "functional/launch.h"

namespace simtlm::functional {

bool shared_access_range(const LaunchContext& ctx, const Warp& warp, uint32_t pc, uint64_t& lo, uint64_t& hi) {
  const DecodedInst& d = ctx.decoded(pc);
  const bool memory = d.cls == ExecClass::Load || d.cls == ExecClass::Store || d.cls == ExecClass::Atomic ||
                      d.cls == ExecClass::Reduction;
  if (!memory || (d.space != ir::StateSpace::Shared && d.space != ir::StateSpace::Generic)) return false;
  const unsigned w = warp.width();
  uint64_t exec = warp.active_mask();
  if (d.has_guard) {
    const uint64_t* g = warp.reg(0) + d.guard_off;
    uint64_t m = 0;
    for (unsigned l = 0; l < w; ++l) m |= (g[l] & 1) << l;
    exec &= d.guard_negated ? ~m : m;
  }
  const uint64_t bytes = uint64_t{d.elem_bytes} * (d.vec == 0 ? 1 : d.vec);
  const uint64_t* base = d.addr.has_reg ? warp.reg(0) + d.addr.reg_off : nullptr;
  bool any = false;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    uint64_t a = (base ? base[l] : 0) + d.addr.disp;
    if (d.addr.wrap32) a &= 0xffffffffull;  // a no-op in bounds; see AddrOperand
    if (d.space == ir::StateSpace::Generic) {
      if (a - kSharedWindowBase >= kWindowSize) continue;
      a -= kSharedWindowBase;
    }
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, a + bytes) : a + bytes;
    any = true;
  }
  return any;
}

}  // namespace simtlm::functional
