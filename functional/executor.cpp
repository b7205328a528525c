// The per-instruction hot path: guard evaluation, dispatch on the pre-decoded
// handler, ALU calls, control flow, barriers and exits. Memory and warp-
// collective semantics live in executor_memory.cpp / executor_warp_ops.cpp.
#include <sstream>

#include "functional/executor_internal.h"
#include "functional/extensions.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace {

inline uint64_t guard_mask(const uint64_t* p, unsigned w, bool negated) {
  uint64_t m = 0;
  for (unsigned l = 0; l < w; ++l) m |= (p[l] & 1) << l;
  return negated ? ~m : m;
}

inline unsigned first_lane(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }

}  // namespace

std::string describe_lane(const LaunchContext& ctx, const Cta& cta, const Warp& warp,
                          const ir::Instruction* inst, unsigned lane) {
  std::ostringstream os;
  os << "kernel '" << ctx.kernel().name << "'";
  if (inst) os << ", line " << inst->loc.line << " `" << inst->text << "`";
  const Dim3u& c = cta.id();
  const Dim3u t = cta.thread_id(warp.first_thread() + lane);
  os << ", CTA (" << c.x << "," << c.y << "," << c.z << ")";
  if (!cta.role().empty()) os << " on " << cta.role();
  os << ", thread (" << t.x << "," << t.y << "," << t.z << ")";
  return os.str();
}

// Off-chip accesses of a load, store, atomic or reduction (the SPU study's
// I/O measure, Rajasree note §4.2: load/store instructions at element
// granularity): one per executing lane and vector element of a global
// access, or of a generic one that hits neither the shared nor the local
// window.
inline uint64_t offchip_elements(const ExecRecord& r) {
  uint64_t lanes = 0;
  if (r.space == ir::StateSpace::Global) lanes = r.exec_mask;
  else if (r.space == ir::StateSpace::Generic) lanes = r.exec_mask & ~(r.shared_lanes | r.local_lanes);
  else return 0;
  return uint64_t(popcount64(lanes)) * (r.inst->vec ? r.inst->vec : 1u);
}

const ExecRecord& execute(Warp& warp, Cta& cta, const LaunchContext& ctx) {
  if (__builtin_expect(!warp.can_issue(), 0)) {
    throw Error(ErrorKind::Internal, "execute() on warp " + std::to_string(warp.index()) + " of kernel '" +
                                         ctx.kernel().name + "', which " +
                                         (warp.finished() ? "has finished" : "waits at a barrier"));
  }
  const uint32_t pc = warp.pc();
  const DecodedInst& d = ctx.decoded(pc);
  ExecRecord& rec = warp.record();
  const uint64_t active = warp.active_mask();
  uint64_t exec = active;
  if (d.has_guard) exec &= guard_mask(warp.regs() + d.guard_off, warp.width(), d.guard_negated);

  rec.inst = d.inst;
  rec.pc = pc;
  rec.cls = d.cls;
  rec.active_mask = active;
  rec.exec_mask = exec;
  rec.space = ir::StateSpace::None;
  rec.access_bytes = 0;
  rec.shared_lanes = 0;
  rec.local_lanes = 0;
  rec.taken = false;
  rec.diverged = false;
  rec.exited_lanes = 0;
  rec.waiting = false;
  rec.released = false;
  warp.count(active);
  cta.tick();

  switch (d.handler) {
    case Handler::Alu: {
      if (exec) {
        AluArgs a;
        a.inst = d.inst;
        uint64_t* regs = warp.regs();
        a.dst[0] = d.dst[0] == kNoDst ? nullptr : regs + d.dst[0];
        a.dst[1] = d.dst[1] == kNoDst ? nullptr : regs + d.dst[1];
        for (unsigned i = 0; i < d.num_src; ++i) a.src[i] = detail::src_lanes(d.src[i], i, warp, cta, ctx);
        a.carry = warp.carry();
        a.mask = exec;
        a.width = warp.width();
        d.alu(a);
      }
      warp.advance();
      break;
    }
    case Handler::Branch:
      rec.taken = exec != 0;
      rec.diverged = warp.branch(exec, d.target, d.rpc);
      break;
    case Handler::Load:
      if (exec) {
        detail::exec_load(d, warp, cta, ctx, exec);
        warp.count_offchip(offchip_elements(rec));
      }
      warp.advance();
      break;
    case Handler::Store:
      if (exec) {
        detail::exec_store(d, warp, cta, ctx, exec);
        warp.count_offchip(offchip_elements(rec));
      }
      warp.advance();
      break;
    case Handler::Atomic:
      if (exec) {
        detail::exec_atomic(d, warp, cta, ctx, exec);
        warp.count_offchip(offchip_elements(rec));
      }
      warp.advance();
      break;
    case Handler::Cvta:
      if (exec) detail::exec_cvta(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::Isspacep:
      if (exec) detail::exec_isspacep(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::MovPack:
      if (exec) detail::exec_mov_pack(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::MovUnpack:
      if (exec) detail::exec_mov_unpack(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::BranchIdx:
      if (exec) {
        rec.taken = true;
        rec.diverged = detail::exec_brx(d, warp, cta, ctx, exec);
      } else {
        warp.advance();
      }
      break;
    case Handler::Exit:
      if (exec != active) warp.advance();
      if (exec) {
        warp.retire(exec);
        rec.exited_lanes = exec;
        rec.released = cta.threads_exited(exec);
      }
      break;
    case Handler::Barrier: {
      if (!exec) {
        warp.advance();
        break;
      }
      const unsigned lane = first_lane(exec);
      const uint64_t id = detail::src_lanes(d.src[0], 0, warp, cta, ctx)[lane];
      uint64_t count = 0;
      if (d.src[1].kind != SrcKind::None) count = detail::src_lanes(d.src[1], 1, warp, cta, ctx)[lane];
      const ir::Instruction& inst = *d.inst;
      const uint64_t* pred = nullptr;
      uint8_t red_op = 0;
      if (inst.barrier == ir::BarrierKind::Red) {
        pred = detail::src_lanes(d.src[2], 2, warp, cta, ctx);
        red_op = inst.bar_red_op;
      }
      const bool wait = inst.barrier != ir::BarrierKind::Arrive;
      warp.advance();
      rec.released = cta.arrive(warp, ctx, id > 0xFFFF ? 0xFFFF : static_cast<unsigned>(id),
                                static_cast<uint32_t>(count & 0xFFFFFFFFu), exec, wait, red_op, pred,
                                d.dst[0]);
      rec.waiting = warp.waiting();
      break;
    }
    case Handler::Shfl:
      if (exec) detail::exec_shfl(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::Vote:
      if (exec) detail::exec_vote(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::Activemask:
      if (exec) detail::exec_activemask(d, warp, exec);
      warp.advance();
      break;
    case Handler::Nop:
      warp.advance();
      break;
    case Handler::Extension: {
      ExtensionCall call{*d.inst, warp, cta, ctx, exec, rec};
      (*d.extension)(call);
      if (!call.control_handled) warp.advance();
      break;
    }
    case Handler::Vprintf:
      if (exec) detail::exec_vprintf(d, warp, cta, ctx, exec);
      warp.advance();
      break;
    case Handler::Trap:
      if (exec) {
        throw Error(ErrorKind::Fault, "trap executed in " +
                                          describe_lane(ctx, cta, warp, d.inst, first_lane(exec)));
      }
      warp.advance();
      break;
    case Handler::Error:
      if (exec) throw Error(ErrorKind::Ptx, ctx.error_message(d.error_index));
      warp.advance();
      break;
  }

  rec.finished = warp.finished();
  rec.next_pc = rec.finished ? 0 : warp.pc();
  return rec;
}

namespace detail {

void fill_special(ir::SpecialReg reg, uint8_t comp, Warp& warp, const Cta& cta,
                  const LaunchContext& ctx, uint64_t* out) {
  const unsigned w = warp.width();
  auto pick = [comp](const Dim3u& d) -> uint64_t { return comp == 0 ? d.x : comp == 1 ? d.y : d.z; };
  auto fill = [out, w](uint64_t v) {
    for (unsigned l = 0; l < w; ++l) out[l] = v;
  };
  const uint64_t clock = cta.cycle_counter()   ? *cta.cycle_counter()
                         : ctx.cycle_counter() ? *ctx.cycle_counter()
                                               : cta.clock();
  switch (reg) {
    case ir::SpecialReg::Tid:
      for (unsigned l = 0; l < w; ++l) out[l] = pick(cta.thread_id(warp.first_thread() + l));
      return;
    case ir::SpecialReg::Ntid: fill(pick(ctx.block())); return;
    case ir::SpecialReg::Ctaid: fill(pick(cta.id())); return;
    case ir::SpecialReg::Nctaid: fill(pick(ctx.grid())); return;
    case ir::SpecialReg::Laneid:
      for (unsigned l = 0; l < w; ++l) out[l] = l & 31;
      return;
    case ir::SpecialReg::Warpid: fill(warp.index()); return;
    case ir::SpecialReg::Nwarpid: fill(ctx.warps_per_cta()); return;
    case ir::SpecialReg::Smid: fill(cta.sm_id()); return;
    case ir::SpecialReg::Nsmid: fill(ctx.num_sms()); return;
    case ir::SpecialReg::Gridid: fill(ctx.grid_id()); return;
    case ir::SpecialReg::Clock: fill(clock & 0xFFFFFFFFu); return;
    case ir::SpecialReg::Clock64: fill(clock); return;
    case ir::SpecialReg::Globaltimer: fill(clock); return;
    case ir::SpecialReg::GlobaltimerLo: fill(clock & 0xFFFFFFFFu); return;
    case ir::SpecialReg::GlobaltimerHi: fill(clock >> 32); return;
    case ir::SpecialReg::LanemaskEq:
      for (unsigned l = 0; l < w; ++l) out[l] = 1ull << (l & 31);
      return;
    case ir::SpecialReg::LanemaskLt:
      for (unsigned l = 0; l < w; ++l) out[l] = (1ull << (l & 31)) - 1;
      return;
    case ir::SpecialReg::LanemaskLe:
      for (unsigned l = 0; l < w; ++l) out[l] = (2ull << (l & 31)) - 1;
      return;
    case ir::SpecialReg::LanemaskGe:
      for (unsigned l = 0; l < w; ++l) out[l] = ~((1ull << (l & 31)) - 1) & 0xFFFFFFFFu;
      return;
    case ir::SpecialReg::LanemaskGt:
      for (unsigned l = 0; l < w; ++l) out[l] = ~((2ull << (l & 31)) - 1) & 0xFFFFFFFFu;
      return;
    case ir::SpecialReg::DynamicSmemSize: fill(ctx.dynamic_shared_bytes()); return;
    case ir::SpecialReg::TotalSmemSize: fill(ctx.shared_bytes()); return;
    // warpSize is the width of the lanes a program sees as one warp: the
    // collectives' segment (warp.h), so offsets and `tid % warpSize` derived
    // from it agree with %laneid and shfl at every width.
    case ir::SpecialReg::WarpSz: fill(w < 32 ? w : 32); return;
    case ir::SpecialReg::None:
      break;
  }
  fill(0);
}

void exec_mov_pack(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* s[4] = {nullptr, nullptr, nullptr, nullptr};
  for (unsigned i = 0; i < d.num_src; ++i) s[i] = src_lanes(d.src[i], i, warp, cta, ctx);
  if (d.dst[0] == kNoDst) return;
  uint64_t* out = warp.regs() + d.dst[0];
  const unsigned bits = d.elem_bytes * 8u;
  const uint64_t emask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    uint64_t v = 0;
    for (unsigned i = 0; i < d.num_src; ++i) v |= (s[i][l] & emask) << (i * bits);
    out[l] = v;
  }
}

void exec_mov_unpack(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* s = src_lanes(d.src[0], 0, warp, cta, ctx);
  uint64_t* regs = warp.regs();
  const unsigned bits = d.elem_bytes * 8u;
  const uint64_t emask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t v = s[l];
    for (unsigned i = 0; i < d.num_dst; ++i) {
      if (d.dst[i] != kNoDst) regs[d.dst[i] + l] = (v >> (i * bits)) & emask;
    }
  }
}

bool exec_brx(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* idx = src_lanes(d.src[0], 0, warp, cta, ctx);
  const std::vector<uint32_t>& table = d.inst->targets;
  uint32_t targets[65];
  uint64_t masks[65];
  unsigned n = 0;
  const uint64_t rest = warp.active_mask() & ~exec;  // guard false: fall through
  if (rest) {
    targets[n] = warp.pc() + 1;
    masks[n++] = rest;
  }
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t i = idx[l] & 0xFFFFFFFFu;
    if (i >= table.size()) {
      throw Error(ErrorKind::Fault, "brx.idx index " + std::to_string(i) + " outside its " +
                                        std::to_string(table.size()) + " targets in " +
                                        describe_lane(ctx, cta, warp, d.inst, l));
    }
    const uint32_t t = table[i];
    unsigned g = 0;
    while (g < n && targets[g] != t) ++g;
    if (g == n) {
      targets[n] = t;
      masks[n++] = 0;
    }
    masks[g] |= 1ull << l;
  }
  return warp.branch_multi(targets, masks, n, d.rpc);
}

}  // namespace detail
}  // namespace simtlm::functional
