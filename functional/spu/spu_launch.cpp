// SPU launch driver of the functional backend (see spu_launch.h).
#include "functional/spu/spu_launch.h"

#include <memory>
#include <vector>

#include "frontend/ptx/spu_extensions.h"
#include "functional/cta.h"
#include "functional/executor.h"
#include "functional/launch_internal.h"
#include "functional/spu/spu_fabric.h"
#include "simtlm/error.h"

namespace simtlm::functional::spu {

const ir::Instruction* first_spu_instruction(const ir::Function& kernel) {
  for (const ir::Instruction& inst : kernel.insts)
    if (inst.op == ir::Opcode::Extension && frontend::ptx::spu::is_spu_instruction(inst.ext_id)) return &inst;
  return nullptr;
}

namespace {

void check_grid(const LaunchContext& ctx, const LaunchRequest& request) {
  const Dim3u& g = request.grid;
  const uint32_t p = request.spu_grid_size;
  if (g.z == 1 && g.x <= p && g.y <= p) return;
  throw Error(ErrorKind::Launch,
              "kernel '" + ctx.kernel().name + "' is launched with a grid of " + std::to_string(g.x) + "x" +
                  std::to_string(g.y) + "x" + std::to_string(g.z) + " CTAs on a " + std::to_string(p) + "x" +
                  std::to_string(p) + " SPU (spu.grid_size = " + std::to_string(p) +
                  "): a grid of at most " + std::to_string(p) + "x" + std::to_string(p) +
                  "x1 runs in one pass; multi-pass execution (virtual IUs) is not built yet");
}

// Lanes x vector elements of a global access (generic ones that hit neither
// the shared nor the local window).
uint64_t offchip_elements(const ExecRecord& r) {
  switch (r.cls) {
    case ExecClass::Load: case ExecClass::Store: case ExecClass::Atomic: case ExecClass::Reduction: break;
    default: return 0;
  }
  uint64_t lanes = 0;
  if (r.space == ir::StateSpace::Global) lanes = r.exec_mask;
  else if (r.space == ir::StateSpace::Generic) lanes = r.exec_mask & ~(r.shared_lanes | r.local_lanes);
  return uint64_t(popcount64(lanes)) * (r.inst ? r.inst->vec : 1u);
}

class UnitObserver : public detail::IssueObserver {
 public:
  explicit UnitObserver(uint64_t& offchip) : offchip_(offchip) {}
  bool interface_unit = false;
  void executed(const ExecRecord& r, const Warp& warp, const Cta& cta, const LaunchContext& ctx) override {
    if (r.exec_mask == 0) return;
    if (interface_unit) check_iu_capabilities(r, warp, cta, ctx);
    offchip_ += offchip_elements(r);
  }

 private:
  uint64_t& offchip_;
};

// The CTA an IU sees as %ctaid: the grid's CTA next to it.
uint64_t adjacent_cta(const Unit& u, uint32_t gx, uint32_t gy) {
  const uint32_t x = u.x < 0 ? 0 : (u.x >= int32_t(gx) ? gx - 1 : uint32_t(u.x));
  const uint32_t y = u.y < 0 ? 0 : (u.y >= int32_t(gy) ? gy - 1 : uint32_t(u.y));
  return uint64_t(y) * gx + x;
}

}  // namespace

// An interface unit is a truncated SM (Rajasree Table 5.2, note §1.4): it
// fetches and schedules instructions and has the register file, the integer
// ALU and mul/div, the constant cache, the communication buffers and global
// loads/stores, but no floating-point unit, special-function unit, shared
// memory or texture cache. IU code that uses one of those, with at least one
// lane executing, ends the launch naming the instruction.
void check_iu_capabilities(const ExecRecord& r, const Warp& warp, const Cta& cta, const LaunchContext& ctx) {
  if (r.exec_mask == 0) return;
  const char* lacks = nullptr;
  switch (r.cls) {
    case ExecClass::Fp: case ExecClass::Dp: lacks = "floating-point unit"; break;
    case ExecClass::Sfu: lacks = "special-function unit"; break;
    default: break;
  }
  if (r.space == ir::StateSpace::Shared || r.shared_lanes != 0) lacks = "shared memory";
  if (!lacks) return;
  const unsigned lane = static_cast<unsigned>(__builtin_ctzll(r.exec_mask));
  throw Error(ErrorKind::Ptx, describe_lane(ctx, cta, warp, r.inst, lane) + ": " + cta.role() + " has no " + lacks +
                                  " (an interface unit is a truncated SM: integer ALU, mul/div, constant cache, "
                                  "communication buffers and global memory only; Rajasree Table 5.2)");
}

LaunchCounters run_spu_launch(const LaunchContext& ctx, const LaunchRequest& request,
                              const CtaDoneCallback& on_cta_done) {
  check_grid(ctx, request);
  const uint32_t p = request.spu_grid_size, gx = request.grid.x, gy = request.grid.y;
  Fabric fabric(gx, gy, request.spu_cb_bytes);
  std::vector<std::unique_ptr<Cta>> ctas;
  uint32_t iu_index = 0;
  for (Unit& u : fabric.units()) {
    const uint64_t linear = u.is_iu ? adjacent_cta(u, gx, gy) : uint64_t(u.y) * gx + uint32_t(u.x);
    ctas.push_back(std::make_unique<Cta>(ctx, linear));
    Cta& cta = *ctas.back();
    cta.set_spu_unit(&u, u.name);
    cta.set_sm_id(u.is_iu ? p * p + iu_index++ : uint32_t(u.y) * p + uint32_t(u.x));
    u.cta = &cta;
  }

  LaunchCounters counters;
  UnitObserver sm_observer(counters.offchip_accesses), iu_observer(counters.offchip_accesses);
  iu_observer.interface_unit = true;
  const uint64_t limit = request.max_warp_instructions;
  uint64_t budget = limit != 0 ? limit : ~0ull;
  while (fabric.unfinished() > 0) {
    bool progress = false;
    for (Unit& u : fabric.units()) {
      if (u.finished) continue;
      progress |= detail::run_until_blocked(*u.cta, ctx, budget, limit, u.is_iu ? &iu_observer : &sm_observer);
      if (u.cta->finished()) {
        fabric.finish(u);
        progress = true;
        if (!u.is_iu) {
          ++counters.ctas;
          if (on_cta_done) on_cta_done(counters, ctx.num_ctas());
        }
      } else {
        progress |= fabric.poll(u);
      }
    }
    if (!progress) {
      throw Error(ErrorKind::Deadlock, "deadlock in kernel '" + ctx.kernel().name + "' on the SPU (" +
                                           std::to_string(gx) + "x" + std::to_string(gy) +
                                           " CTAs and their interface units): no unit can make progress" +
                                           fabric.describe_waiting(ctx));
    }
  }
  for (const auto& cta : ctas)
    for (const Warp& w : cta->warps()) {
      counters.warp_instructions += w.instructions();
      counters.thread_instructions += w.thread_instructions();
    }
  return counters;
}

}  // namespace simtlm::functional::spu
