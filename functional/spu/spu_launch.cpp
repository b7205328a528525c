// SPU launch driver of the functional backend (see spu_launch.h).
#include "functional/spu/spu_launch.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "frontend/ptx/spu_extensions.h"
#include "functional/cta.h"
#include "functional/executor.h"
#include "functional/launch_internal.h"
#include "functional/spu/spu_fabric.h"
#include "functional/spu/spu_passes.h"
#include "simtlm/error.h"

namespace simtlm::functional::spu {

const ir::Instruction* first_spu_instruction(const ir::Function& kernel) {
  for (const ir::Instruction& inst : kernel.insts)
    if (inst.op == ir::Opcode::Extension && frontend::ptx::spu::is_spu_instruction(inst.ext_id)) return &inst;
  return nullptr;
}

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

namespace {

void check_grid(const LaunchContext& ctx, const LaunchRequest& request) {
  const Dim3u& g = request.grid;
  if (g.z == 1) return;
  throw Error(ErrorKind::Launch, "kernel '" + ctx.kernel().name + "' is launched with a grid of " +
                                     std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z) +
                                     " CTAs on the SPU: its grid of SMs is two-dimensional (grid z must be 1)");
}

class IuObserver : public detail::IssueObserver {
 public:
  void executed(const ExecRecord& r, const Warp& warp, const Cta& cta, const LaunchContext& ctx) override {
    if (r.exec_mask != 0) check_iu_capabilities(r, warp, cta, ctx);
  }
};

class PassRunner {
 public:
  PassRunner(const LaunchContext& ctx, const LaunchRequest& request, const CtaDoneCallback& on_cta_done,
             const PassPlan& plan, LaunchCounters& counters)
      : ctx_(ctx), request_(request), on_cta_done_(on_cta_done), plan_(plan), counters_(counters),
        spills_(ctx.memory()) {
    limit_ = request.max_warp_instructions;
    budget_ = limit_ != 0 ? limit_ : ~0ull;
  }

  void run(uint32_t px, uint32_t py) {
    const uint32_t p = plan_.p, x0 = px * p, y0 = py * p;
    const uint32_t w = std::min(p, plan_.gx - x0), h = std::min(p, plan_.gy - y0);
    Fabric fabric(w, h, request_.spu_cb_bytes);
    std::vector<std::unique_ptr<Cta>> ctas;
    std::vector<VirtualIu> vius;
    vius.reserve(fabric.units().size());
    uint32_t iu_index = 0;
    for (Unit& u : fabric.units()) {
      place_unit(u, plan_, px, py, w, h);
      if (u.viu) {
        vius.push_back(make_virtual_iu(u, px, py, spills_));
        ++iu_index;
        continue;
      }
      ctas.push_back(std::make_unique<Cta>(ctx_, unit_cta(u, plan_, px, py)));
      Cta& cta = *ctas.back();
      cta.set_spu_unit(&u, u.name);
      cta.set_sm_id(u.is_iu ? p * p + iu_index++ : uint32_t(u.y) * p + uint32_t(u.x));
      u.cta = &cta;
    }
    while (fabric.unfinished() > 0) {
      bool progress = false;
      size_t next_viu = 0;
      for (Unit& u : fabric.units()) {
        if (u.viu) {
          progress |= step(vius[next_viu++], fabric);
          continue;
        }
        if (u.finished) continue;
        progress |= detail::run_until_blocked(*u.cta, ctx_, budget_, limit_, u.is_iu ? &iu_observer_ : nullptr);
        if (u.cta->finished()) {
          fabric.finish(u);
          progress = true;
          if (!u.is_iu) {
            ++counters_.ctas;
            if (on_cta_done_) on_cta_done_(counters_, ctx_.num_ctas());
          }
        } else {
          progress |= fabric.poll(u);
        }
      }
      if (!progress) {
        const bool multi = plan_.npx * plan_.npy > 1;
        throw Error(ErrorKind::Deadlock,
                    "deadlock in kernel '" + ctx_.kernel().name + "' on the SPU (" + std::to_string(w) + "x" +
                        std::to_string(h) + " CTAs and their interface units" +
                        (multi ? ", pass (" + std::to_string(px) + "," + std::to_string(py) + ") of " +
                                     std::to_string(plan_.npx) + "x" + std::to_string(plan_.npy)
                               : std::string()) +
                        "): no unit can make progress" + fabric.describe_waiting(ctx_));
      }
    }
    for (VirtualIu& v : vius)
      if (viu_spills(v)) v.channel->closed = true;  // the consumer pass restores what there is
    for (const auto& cta : ctas)
      for (const Warp& wp : cta->warps()) {
        counters_.warp_instructions += wp.instructions();
        counters_.thread_instructions += wp.thread_instructions();
        counters_.offchip_accesses += wp.offchip_accesses();
      }
  }

 private:
  // One step of a virtual IU: its data move and its next synchronisation
  // at once (the functional backend has no time). True when it progressed.
  bool step(VirtualIu& v, Fabric& fabric) {
    const Unit& u = *v.unit;
    if (u.finished || u.waiting != SyncKind::None) return false;
    const uint32_t bytes = viu_move(v, fabric, spills_);
    counters_.offchip_accesses += bytes / 4;
    if (bytes != 0 && viu_spills(v)) viu_spill_done(v);  // no time: its data is in memory at once
    if (bytes != 0) {
      const size_t node = physical_iu(u, plan_.p);
      auto& per_iu = viu_spills(v) ? counters_.viu_spills : counters_.viu_restores;
      ++per_iu.at(node);
    }
    if (!u.finished) viu_sync(v, fabric);
    return true;
  }

  const LaunchContext& ctx_;
  const LaunchRequest& request_;
  const CtaDoneCallback& on_cta_done_;
  const PassPlan plan_;
  LaunchCounters& counters_;
  SpillSlots spills_;
  IuObserver iu_observer_;
  uint64_t limit_ = 0, budget_ = 0;
};

}  // namespace

LaunchCounters run_spu_launch(const LaunchContext& ctx, const LaunchRequest& request,
                              const CtaDoneCallback& on_cta_done) {
  check_grid(ctx, request);
  const PassPlan plan = PassPlan::of(request.spu_grid_size, request.grid.x, request.grid.y);
  LaunchCounters counters;
  counters.spu_passes = plan.passes();
  counters.viu_spills.assign(4 * size_t(plan.p), 0);
  counters.viu_restores.assign(4 * size_t(plan.p), 0);
  PassRunner runner(ctx, request, on_cta_done, plan, counters);
  // Pass by pass in row-wise order (x fastest, note §1.7): every CTA of a
  // pass exits before the next pass starts (invariant 11).
  for (uint32_t py = 0; py < plan.npy; ++py)
    for (uint32_t px = 0; px < plan.npx; ++px) runner.run(px, py);
  return counters;
}

}  // namespace simtlm::functional::spu
