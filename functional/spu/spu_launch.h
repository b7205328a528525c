// The functional backend's SPU launch (docs/spu.md): every CTA of a kernel
// that uses SPU instructions runs together with the interface units around
// them, switching between units when their warps block at bar.blocksync, so
// SPU kernels run, and are checked, without timing.
#pragma once

#include "frontend/ir/module.h"
#include "functional/decoded.h"
#include "functional/launch.h"

namespace simtlm::functional {
class Cta;
class LaunchContext;
class Warp;
}

namespace simtlm::functional::spu {

// The first SPU instruction of `kernel` in program order, or nullptr.
const ir::Instruction* first_spu_instruction(const ir::Function& kernel);
inline bool uses_spu_instructions(const ir::Function& kernel) { return first_spu_instruction(kernel) != nullptr; }

// The semantics of SPU extension `ext_id`, or nullptr when it is not one.
const ExtensionHandler* semantics(uint16_t ext_id);

// Runs the launch on a request.spu_grid_size-wide SPU (p): in passes of at
// most p x p CTAs, row-wise (note §1.7), each pass's CTAs together with the
// interface units around them. CTA (X, Y) runs on SM (X mod p, Y mod p)
// (the restricted mapping; %smid = y * p + x); the IUs run the same kernel
// (%smid = p * p + their index in the pass), except those that act as
// virtual IUs (east/south before the last pass column/row, west/north after
// the first), which run the runtime's spill/restore code (Alg. 2) through
// global memory. Counters: ctas = the grid's CTAs; instructions include the
// IUs' (not the VIUs', which run no PTX); offchip_accesses include the IUs'
// and the VIUs' words. IU code that uses what an IU lacks (FPU, SFU, shared
// memory; Table 5.2) is Error(Ptx). Error(Launch) for gz > 1;
// Error(Deadlock) naming every waiting unit when none can progress.
// An interface unit is a truncated SM (Rajasree Table 5.2): Error(Ptx) naming
// the instruction, the unit and what it lacks when IU code executes (at least
// one lane) an Fp/Dp/Sfu instruction or accesses shared memory. Called after
// every IU instruction by this driver and by the timing model's SPU platform.
void check_iu_capabilities(const ExecRecord& r, const Warp& warp, const Cta& cta, const LaunchContext& ctx);

LaunchCounters run_spu_launch(const LaunchContext& ctx, const LaunchRequest& request,
                              const CtaDoneCallback& on_cta_done);

}  // namespace simtlm::functional::spu
