#include "models/sm/inst_timing.h"

#include <algorithm>
#include <string>

#include "frontend/analysis/regalloc.h"
#include "models/sm/extension_timing.h"
#include "simtlm/error.h"

namespace simtlm::models {

using functional::DecodedInst;
using functional::ExecClass;
using functional::SrcKind;
using ir::Opcode;

const char* to_string(ExecUnit unit) {
  switch (unit) {
    case ExecUnit::Sp: return "SP";
    case ExecUnit::Sfu: return "SFU";
    case ExecUnit::Dp: return "DP";
    case ExecUnit::Int: return "INT";
    case ExecUnit::Ldst: return "LD/ST";
  }
  return "?";
}

namespace {

enum class OpKind { None, Add, Max, Mul, Mad, Div };

OpKind op_kind(Opcode op) {
  switch (op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Addc: case Opcode::Subc: return OpKind::Add;
    case Opcode::Min: case Opcode::Max: return OpKind::Max;
    case Opcode::Mul: case Opcode::Mul24: return OpKind::Mul;
    case Opcode::Mad: case Opcode::Mad24: case Opcode::Madc: case Opcode::Fma: case Opcode::Sad:
    case Opcode::Dp4a: case Opcode::Dp2a: return OpKind::Mad;
    case Opcode::Div: case Opcode::Rem: return OpKind::Div;
    default: return OpKind::None;
  }
}

const OpTiming* pick(const OpTable& t, OpKind k) {
  switch (k) {
    case OpKind::Add: return &t.add;
    case OpKind::Max: return &t.max;
    case OpKind::Mul: return &t.mul;
    case OpKind::Mad: return &t.mad;
    case OpKind::Div: return &t.div;
    case OpKind::None: break;
  }
  return nullptr;
}

void add_reg(InstTiming& t, uint32_t reg) {
  for (unsigned i = 0; i < t.num_src; ++i) {
    if (t.src[i] == reg) return;
  }
  if (t.num_src < InstTiming::kMaxSrc) t.src[t.num_src++] = reg;
}

bool uses_call_param_slot(const ir::Instruction& inst, const ir::Module& module) {
  for (const ir::Operand& op : inst.ops) {
    if (op.kind == ir::OperandKind::Address && op.base == ir::OperandKind::Symbol && op.var < module.vars.size() &&
        module.vars[op.var].from_call_param) {
      return true;
    }
  }
  return false;
}

MemPath mem_path(const DecodedInst& d, const ir::Module& module) {
  switch (d.space) {
    case ir::StateSpace::Shared: case ir::StateSpace::SharedCluster: return MemPath::Shared;
    case ir::StateSpace::Const: return MemPath::Const;
    case ir::StateSpace::Param: return MemPath::Param;
    case ir::StateSpace::Local:
      return d.inst != nullptr && uses_call_param_slot(*d.inst, module) ? MemPath::CallParam : MemPath::Local;
    case ir::StateSpace::Generic: return MemPath::Generic;
    default: return MemPath::Global;
  }
}

// The path of an extension instruction's lanes: a built-in space, or an extra
// memory space of the SM.
MemPath extension_path(const ExtensionTiming& ext, const DecodedInst& d, const ir::Module& module,
                       const SmParams& p, uint8_t& space_index) {
  const std::string& s = ext.memory_space;
  if (s == "global") return MemPath::Global;
  if (s == "shared") return MemPath::Shared;
  if (s == "local") return MemPath::Local;
  for (size_t i = 0; i < p.memory_spaces.size(); ++i) {
    if (p.memory_spaces[i] == s) {
      space_index = static_cast<uint8_t>(i);
      return MemPath::Space;
    }
  }
  throw Error(ErrorKind::Ptx, module.file + ":" + std::to_string(d.inst->loc.line) + ": `" + d.inst->text +
                                  "` accesses memory space '" + s + "', which SM " + std::to_string(p.id) +
                                  " of this platform does not have");
}

// Appends the physical 32-bit registers of virtual register `reg` to `out`
// (distinct, at most `cap`): none for predicates and constant-bank values.
void add_bank_regs(const ir::Function& fn, uint32_t reg, uint16_t* out, uint8_t& n, unsigned cap) {
  const ir::Register& r = fn.regs[reg];
  const uint32_t units = frontend::analysis::reg_units(r);
  uint32_t first = reg;
  if (!fn.analysis.phys_regs.empty()) {
    first = fn.analysis.phys_regs[reg];
    if (first == ir::kNoPhysReg || first == ir::kConstantBank) return;
  } else if (units == 0) {
    return;
  }
  for (uint32_t k = 0; k < units; ++k) {
    const uint16_t p = static_cast<uint16_t>(first + k);  // < 65536: registers per thread are <= 255
    bool known = false;
    for (unsigned i = 0; i < n; ++i) known = known || out[i] == p;
    if (!known && n < cap) out[n++] = p;
  }
}

// The highest number (1-based) register sharing gives the physical registers
// of virtual register `reg` (FunctionAnalysis::register_numbers, else the
// physical numbering), 0 when it has none.
uint32_t highest_register_number(const ir::Function& fn, uint32_t reg) {
  const uint32_t units = frontend::analysis::reg_units(fn.regs[reg]);
  uint32_t first = reg;
  if (!fn.analysis.phys_regs.empty()) {
    first = fn.analysis.phys_regs[reg];
    if (first == ir::kNoPhysReg || first == ir::kConstantBank) return 0;
  }
  const std::vector<uint32_t>& numbers = fn.analysis.register_numbers;
  uint32_t highest = 0;
  for (uint32_t k = 0; k < units; ++k) {
    const uint32_t p = first + k;
    highest = std::max(highest, (numbers.empty() ? p : numbers.at(p)) + 1);
  }
  return highest;
}

ExecUnit resolve(ExecUnit u, const SmParams& p) {
  if (u == ExecUnit::Int && p.int_unit.count == 0) return ExecUnit::Sp;
  if (u == ExecUnit::Dp && p.dp.count == 0) return ExecUnit::Sfu;
  return u;
}

}  // namespace

KernelTiming::KernelTiming(const functional::LaunchContext& ctx, const SmParams& p)
    : ctx_(&ctx), num_regs_(static_cast<uint32_t>(ctx.kernel().regs.size())) {
  const uint32_t n = ctx.num_instructions() + 1;  // + implicit exit
  const unsigned w = ctx.warp_size();
  const ir::Function& fn = ctx.kernel();
  insts_.resize(n);
  if (!fn.analysis.register_numbers.empty() && fn.analysis.register_numbers.size() != fn.analysis.phys_regs32) {
    throw Error(ErrorKind::Internal, "kernel '" + fn.name + "': register_numbers does not number its " +
                                         std::to_string(fn.analysis.phys_regs32) + " physical registers");
  }
  for (uint32_t pc = 0; pc < n; ++pc) {
    const DecodedInst& d = ctx.decoded(pc);
    InstTiming& t = insts_[pc];
    t.cls = d.cls;
    // Registers. Decoded operands hold lane-array offsets (reg * W).
    if (d.has_guard) add_reg(t, d.guard_off / w);
    for (unsigned i = 0; i < d.num_src && i < functional::kMaxSrc; ++i) {
      if (d.src[i].kind == SrcKind::Reg || d.src[i].kind == SrcKind::NotReg) add_reg(t, d.src[i].off / w);
    }
    if (d.addr.has_reg) add_reg(t, d.addr.reg_off / w);
    for (unsigned i = 0; i < d.num_dst && i < InstTiming::kMaxDst; ++i) {
      if (d.dst[i] == functional::kNoDst) continue;
      t.dst[t.num_dst++] = static_cast<uint32_t>(d.dst[i]) / w;
    }
    // Extension instructions read their operands themselves: every register
    // they name is treated as read and written (conservative scoreboarding).
    if (d.handler == functional::Handler::Extension && d.inst != nullptr) {
      for (const ir::Operand& o : d.inst->ops) {
        if (o.kind != ir::OperandKind::Reg) continue;
        add_reg(t, o.reg);
        bool known = false;
        for (unsigned i = 0; i < t.num_dst; ++i) known = known || t.dst[i] == o.reg;
        if (!known && t.num_dst < InstTiming::kMaxDst) t.dst[t.num_dst++] = o.reg;
      }
    }

    for (unsigned i = 0; i < t.num_src; ++i) add_bank_regs(fn, t.src[i], t.rf_reads, t.num_rf_reads, InstTiming::kMaxRfReads);
    for (unsigned i = 0; i < t.num_dst; ++i) {
      add_bank_regs(fn, t.dst[i], t.rf_writes, t.num_rf_writes, InstTiming::kMaxRfWrites);
    }
    for (unsigned i = 0; i < t.num_src + t.num_dst; ++i) {
      const uint32_t r = i < t.num_src ? t.src[i] : t.dst[i - t.num_src];
      t.max_reg_number = static_cast<uint16_t>(std::max<uint32_t>(t.max_reg_number, highest_register_number(fn, r)));
      if (r < 128) {
        t.operand_mask[r / 64] |= uint64_t(1) << (r % 64);
      } else {
        t.operand_mask_complete = false;
      }
    }

    const Opcode op = d.inst != nullptr ? d.inst->op : Opcode::Exit;
    const OpKind kind = op_kind(op);
    ExecClass cls = d.cls;
    if (op == Opcode::Extension && d.inst != nullptr) {
      t.extension = find_extension_timing(d.inst->ext_id);
      if (t.extension != nullptr) cls = t.cls = t.extension->cls;
    }
    ExecUnit unit = ExecUnit::Sp;
    const ExecUnitParams* defaults = &p.sp;
    const OpTiming* specific = nullptr;
    switch (cls) {
      case ExecClass::Int:
        unit = kind == OpKind::Div ? ExecUnit::Sfu : ExecUnit::Int;
        defaults = &p.int_unit;
        specific = pick(p.op_int, kind);
        break;
      case ExecClass::Fp:
        unit = ExecUnit::Sp;
        defaults = &p.sp;
        specific = pick(p.op_fp, kind);
        break;
      case ExecClass::Sfu:
        unit = ExecUnit::Sfu;
        defaults = &p.sfu;
        if (kind == OpKind::Div) specific = &p.op_fp.div;
        break;
      case ExecClass::Dp:
        unit = kind == OpKind::Div ? ExecUnit::Sfu : ExecUnit::Dp;
        defaults = &p.dp;
        specific = pick(p.op_dp, kind);
        break;
      case ExecClass::Load: case ExecClass::Store: case ExecClass::Atomic: case ExecClass::Reduction:
        unit = ExecUnit::Ldst;
        defaults = &p.ldst;
        t.path = t.extension != nullptr ? extension_path(*t.extension, d, ctx.module(), p, t.space_index)
                                        : mem_path(d, ctx.module());
        if (p.cache_operators && d.inst != nullptr) {
          const ir::CacheOp cop = d.inst->cache_op;
          t.global_skips_l1d = d.cls == ExecClass::Load && (cop == ir::CacheOp::Cg || cop == ir::CacheOp::Cv);
          t.evict_first = cop == ir::CacheOp::Cs || cop == ir::CacheOp::Lu;
        }
        break;
      default:
        break;
    }
    t.unit = resolve(unit, p);
    t.collector = t.unit == ExecUnit::Ldst ? CollectorSet::Mem
                  : t.unit == ExecUnit::Sfu ? CollectorSet::Sfu
                                            : CollectorSet::Alu;
    t.latency = specific != nullptr ? specific->latency : defaults->latency;
    t.interval = specific != nullptr ? specific->initiation_interval : defaults->initiation_interval;
  }
}

}  // namespace simtlm::models
