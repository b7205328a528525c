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

// Global-memory slots of the spilled faces (note §1.7, "a pre-allocated
// region in the global memory"): one allocation of spu.cb_bytes per spill,
// in order, per channel = (vertical?, lane of the whole grid, index of the
// producer pass along the boundary's axis). Pass-by-pass execution finishes
// the producer pass before its consumer starts, so the consumer's restoring
// VIU finds every slot (spill -> restore ordering, note §7.12). Released with
// the launch.
class SpillSlots {
 public:
  explicit SpillSlots(GlobalMemory& memory) : memory_(memory) {}
  SpillSlots(const SpillSlots&) = delete;
  SpillSlots& operator=(const SpillSlots&) = delete;
  ~SpillSlots() {
    for (auto& channel : channels_)
      for (uint64_t a : channel.second) memory_.release(a);
  }
  std::vector<uint64_t>& channel(bool vertical, uint32_t lane, uint32_t producer_pass) {
    return channels_[std::make_tuple(vertical, lane, producer_pass)];
  }
  GlobalMemory& memory() { return memory_; }

 private:
  GlobalMemory& memory_;
  std::map<std::tuple<bool, uint32_t, uint32_t>, std::vector<uint64_t>> channels_;
};

// A virtual IU: the runtime's code of Alg. 2, run by the driver rather than
// as PTX (it depends on no program parameter). It synchronises as its
// partner does (Fabric::arrive_virtual: global or directed, Alg. 2's two
// forms). A spilling VIU (east/south) waits at its sync and, each time it completes, stores the whole CB it
// received into the next slot; a restoring VIU (west/north) loads the next
// slot into its CB and then waits at its sync, until the producer pass's
// spills are used up. Both end when their partner SM's CTA exits
// (Fabric::finish). Every word moved is one off-chip access (element
// granularity: spu.cb_bytes / 4 per spill or restore).
struct VirtualIu {
  Unit* unit = nullptr;
  std::vector<uint64_t>* slots = nullptr;
  size_t next = 0;       // restoring: the slot to load next
  bool started = false;  // it has arrived at least once
};

Dir link_dir_of(const Unit& iu) {  // the side on which an IU's one link leaves it
  switch (iu.iu_dir) {
    case Dir::North: return Dir::South;
    case Dir::West: return Dir::East;
    case Dir::South: return Dir::North;
    case Dir::East: return Dir::West;
  }
  return Dir::North;
}

bool step_virtual_iu(VirtualIu& v, Fabric& fabric, SpillSlots& spills, uint64_t& offchip) {
  Unit& u = *v.unit;
  if (u.finished || u.waiting != SyncKind::None) return false;
  const uint32_t cb = fabric.cb_bytes();
  const Dir dir = link_dir_of(u);
  GlobalMemory& memory = spills.memory();
  if (!is_incoming(u.iu_dir)) {
    if (v.started) {  // released by a completed sync: the face just received
      const uint64_t addr = memory.allocate(cb);
      std::memcpy(memory.translate(addr, cb), fabric.buffer(u, dir), cb);
      v.slots->push_back(addr);
      offchip += cb / 4;
    }
    if (u.partner_done) {
      fabric.finish(u);
      return true;
    }
  } else {
    if (v.started) ++v.next;
    if (v.next >= v.slots->size() || u.partner_done) {
      fabric.finish(u);
      return true;
    }
    std::memcpy(fabric.buffer(u, dir), memory.translate((*v.slots)[v.next], cb), cb);
    offchip += cb / 4;
  }
  v.started = true;
  fabric.arrive_virtual(u);
  return true;
}

// The passes of a launch (note §1.7): pass (px, py) holds the CTAs X in
// [px p, px p + w), Y in [py p, py p + h), CTA (X, Y) on SM (X mod p, Y mod p).
struct PassPlan {
  uint32_t p = 0, gx = 0, gy = 0, npx = 1, npy = 1;
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
      place(u, px, py, w, h);
      if (u.viu) {
        const bool vertical = u.iu_dir == Dir::North || u.iu_dir == Dir::South;
        const uint32_t producer = vertical ? (u.iu_dir == Dir::North ? py - 1 : py) : (u.iu_dir == Dir::West ? px - 1 : px);
        vius.push_back({&u, &spills_.channel(vertical, u.lane, producer)});
        ++iu_index;
        continue;
      }
      const uint32_t cx = std::min(plan_.gx - 1, uint32_t(std::max<int32_t>(0, int32_t(x0) + u.x)));
      const uint32_t cy = std::min(plan_.gy - 1, uint32_t(std::max<int32_t>(0, int32_t(y0) + u.y)));
      ctas.push_back(std::make_unique<Cta>(ctx_, uint64_t(cy) * plan_.gx + cx));
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
          progress |= step_virtual_iu(vius[next_viu++], fabric, spills_, counters_.offchip_accesses);
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
    for (const auto& cta : ctas)
      for (const Warp& wp : cta->warps()) {
        counters_.warp_instructions += wp.instructions();
        counters_.thread_instructions += wp.thread_instructions();
        counters_.offchip_accesses += wp.offchip_accesses();
      }
  }

 private:
  // Pass registers, roles (note §1.7's table, invariant 13), the lane in
  // the whole grid (spu.sreg iuid) and the SM that hosts an edge IU of a
  // partial pass (§1.4: "some of the SMs will take up the role of IUs").
  void place(Unit& u, uint32_t px, uint32_t py, uint32_t w, uint32_t h) {
    const uint32_t p = plan_.p;
    u.pass_x = px;
    u.pass_y = py;
    u.npass_x = plan_.npx;
    u.npass_y = plan_.npy;
    if (!u.is_iu) {
      u.name = "SM (" + std::to_string(u.x) + "," + std::to_string(u.y) + ")";
      return;
    }
    const bool vertical = u.iu_dir == Dir::North || u.iu_dir == Dir::South;
    u.lane += vertical ? px * p : py * p;
    switch (u.iu_dir) {
      case Dir::North: u.viu = py > 0; break;
      case Dir::West: u.viu = px > 0; break;
      case Dir::South: u.viu = py + 1 < plan_.npy; break;
      case Dir::East: u.viu = px + 1 < plan_.npx; break;
    }
    if (u.iu_dir == Dir::East && w < p) u.host_sm = int32_t(uint32_t(u.y) * p + w);
    if (u.iu_dir == Dir::South && h < p) u.host_sm = int32_t(h * p + uint32_t(u.x));
    u.name = std::string(u.viu ? "VIU " : "IU ") + dir_name(u.iu_dir) + " " + std::to_string(u.lane);
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
  PassPlan plan;
  plan.p = request.spu_grid_size;
  plan.gx = request.grid.x;
  plan.gy = request.grid.y;
  plan.npx = (plan.gx + plan.p - 1) / plan.p;
  plan.npy = (plan.gy + plan.p - 1) / plan.p;
  LaunchCounters counters;
  PassRunner runner(ctx, request, on_cta_done, plan, counters);
  // Pass by pass in row-wise order (x fastest, note §1.7): every CTA of a
  // pass exits before the next pass starts (invariant 11).
  for (uint32_t py = 0; py < plan.npy; ++py)
    for (uint32_t px = 0; px < plan.npx; ++px) runner.run(px, py);
  return counters;
}

}  // namespace simtlm::functional::spu
