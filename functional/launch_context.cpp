// LaunchContext: launch validation and the one-time pre-decode of the kernel
// into DecodedInst (see decoded.h).
#include <algorithm>
#include <map>
#include <sstream>

#include "frontend/passes/layout_memory.h"
#include "frontend/ptx/extensions.h"
#include "functional/executor.h"
#include "functional/extensions.h"
#include "functional/spu/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm::functional {

namespace {

using ir::DataType;
using ir::Opcode;
using ir::OperandKind;
using ir::StateSpace;

std::string dims(const Dim3u& d) {
  std::ostringstream os;
  os << "(" << d.x << "," << d.y << "," << d.z << ")";
  return os.str();
}

ExecClass alu_class(const ir::Instruction& inst) {
  if (inst.op == Opcode::Mov) return ExecClass::Int;
  const DataType t = inst.type, t2 = inst.type2;
  if (t == DataType::F64 || t2 == DataType::F64) return ExecClass::Dp;
  switch (inst.op) {
    case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Ex2:
    case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos: case Opcode::Tanh:
      return ExecClass::Sfu;
    case Opcode::Div:
      if (ir::is_float(t)) return ExecClass::Sfu;
      break;
    default:
      break;
  }
  if (ir::is_float(t) || ir::is_float(t2)) return ExecClass::Fp;
  return ExecClass::Int;
}

bool has_vector_operand(const ir::Instruction& inst) {
  for (const ir::Operand& op : inst.ops)
    if (op.kind == OperandKind::Vector) return true;
  return false;
}

// Integer atomics/reductions we implement: op x type.
bool atomic_supported(ir::AtomOp op, DataType t) {
  const unsigned size = ir::type_size(t);
  const bool integer = ir::is_signed(t) || ir::is_unsigned(t) || ir::is_bits(t);
  switch (op) {
    case ir::AtomOp::Add:
      return (integer && (size == 4 || size == 8)) || t == DataType::F32 || t == DataType::F64;
    case ir::AtomOp::Min: case ir::AtomOp::Max:
      return (integer && (size == 4 || size == 8)) || t == DataType::F32 || t == DataType::F64;
    case ir::AtomOp::Inc: case ir::AtomOp::Dec:
      return integer && size == 4;
    case ir::AtomOp::Cas:
      return integer && (size == 2 || size == 4 || size == 8);
    case ir::AtomOp::Exch: case ir::AtomOp::And: case ir::AtomOp::Or: case ir::AtomOp::Xor:
      return integer && (size == 4 || size == 8);
    default:
      return false;
  }
}

}  // namespace

LaunchContext::LaunchContext(const LaunchRequest& request, GlobalMemory& memory)
    : module_(request.module), kernel_(request.kernel), memory_(&memory),
      warp_size_(request.warp_size), grid_(request.grid), block_(request.block) {
  if (!module_ || !kernel_) throw Error(ErrorKind::Launch, "launch request without a module or kernel");
  if (!kernel_->is_entry) {
    throw Error(ErrorKind::Launch, "'" + kernel_->name + "' is not a kernel (.entry)");
  }
  const std::string who = "launch of kernel '" + kernel_->name + "'";
  if (warp_size_ < 1 || warp_size_ > 64) {
    throw Error(ErrorKind::Launch, who + ": warp size " + std::to_string(warp_size_) + " outside 1..64");
  }
  if (grid_.x == 0 || grid_.y == 0 || grid_.z == 0) {
    throw Error(ErrorKind::Launch, who + ": empty grid " + dims(grid_));
  }
  if (block_.x == 0 || block_.y == 0 || block_.z == 0) {
    throw Error(ErrorKind::Launch, who + ": empty block " + dims(block_));
  }
  const uint64_t threads = uint64_t(block_.x) * block_.y * block_.z;
  if (threads > (1u << 20)) {
    throw Error(ErrorKind::Launch, who + ": block " + dims(block_) + " has too many threads");
  }
  threads_per_cta_ = static_cast<uint32_t>(threads);
  warps_per_cta_ = (threads_per_cta_ + warp_size_ - 1) / warp_size_;
  num_ctas_ = uint64_t(grid_.x) * grid_.y * grid_.z;
  dynamic_shared_bytes_ = request.dynamic_shared_bytes;
  num_sms_ = request.num_sms;
  grid_id_ = request.grid_id;
  params_ = request.params;
  if (params_.size() < kernel_->param_bytes) {
    throw Error(ErrorKind::Launch, who + ": parameter buffer has " + std::to_string(params_.size()) +
                                       " bytes, the kernel's parameters need " +
                                       std::to_string(kernel_->param_bytes));
  }
  if (request.var_addresses) var_addresses_ = *request.var_addresses;
  printf_buffer_ = request.printf_buffer;

  // The layout pass includes the padding before the dynamic (extern) part in
  // static_shared_bytes: the CTA needs static + dynamic bytes.
  shared_bytes_ = kernel_->static_shared_bytes + dynamic_shared_bytes_;
  local_bytes_ = kernel_->local_bytes;
  decode();
}

Dim3u LaunchContext::cta_id(uint64_t linear) const {
  Dim3u d;
  d.x = static_cast<uint32_t>(linear % grid_.x);
  d.y = static_cast<uint32_t>((linear / grid_.x) % grid_.y);
  d.z = static_cast<uint32_t>(linear / (uint64_t(grid_.x) * grid_.y));
  return d;
}

uint64_t LaunchContext::symbol_value(uint32_t var) const {
  const ir::Variable& v = module_->vars.at(var);
  const uint64_t offset =
      var < kernel_->var_offsets.size() ? kernel_->var_offsets[var] : frontend::passes::kNoOffset;
  switch (v.space) {
    case StateSpace::Global:
    case StateSpace::Const:
      if (var >= var_addresses_.size() || var_addresses_[var] == 0) {
        throw Error(ErrorKind::Launch, "launch of kernel '" + kernel_->name + "': module variable '" +
                                           v.name + "' (line " + std::to_string(v.loc.line) +
                                           ") has no device address");
      }
      return var_addresses_[var];
    case StateSpace::Param:
      return offset != frontend::passes::kNoOffset ? offset : v.param_offset;
    case StateSpace::Shared:
    case StateSpace::Local:
      if (offset == frontend::passes::kNoOffset) {
        throw Error(ErrorKind::Internal, "kernel '" + kernel_->name + "' uses variable '" + v.name +
                                             "' that the memory layout did not place");
      }
      return offset;
    default:
      throw Error(ErrorKind::Internal, "kernel '" + kernel_->name + "': variable '" + v.name +
                                           "' is not in an addressable state space");
  }
}

uint32_t LaunchContext::add_error(const std::string& message) {
  errors_.push_back(message);
  return static_cast<uint32_t>(errors_.size() - 1);
}

uint32_t LaunchContext::pool_constant(uint64_t value) {
  // Linear search over the distinct constants is fine: decode runs once.
  for (size_t off = 0; off < pool_.size(); off += warp_size_) {
    if (pool_[off] == value) return static_cast<uint32_t>(off);
  }
  const uint32_t off = static_cast<uint32_t>(pool_.size());
  pool_.insert(pool_.end(), warp_size_, value);
  return off;
}

namespace {
// Thrown inside decode_one() and turned into a deferred Handler::Error.
struct Unsupported {
  std::string what;
};
}  // namespace

Src LaunchContext::make_src(const ir::Operand& op, const ir::Instruction& inst) {
  Src s;
  switch (op.kind) {
    case OperandKind::Reg:
      s.kind = op.negate ? SrcKind::NotReg : SrcKind::Reg;
      s.off = op.reg * warp_size_;
      return s;
    case OperandKind::Imm:
      s.kind = SrcKind::Pool;
      s.off = pool_constant(op.negate ? ((op.imm & 1) ^ 1) : op.imm);
      return s;
    case OperandKind::Special:
      s.kind = SrcKind::Special;
      s.sreg = op.sreg;
      s.component = op.component;
      return s;
    case OperandKind::Symbol:
      s.kind = SrcKind::Pool;
      s.off = pool_constant(symbol_value(op.var) + static_cast<uint64_t>(op.offset));
      return s;
    default:
      (void)inst;
      throw Unsupported{"unsupported source operand"};
  }
}

int32_t LaunchContext::make_dst(const ir::Operand& op, const ir::Instruction& inst, uint8_t* bytes) {
  (void)inst;
  if (op.kind == OperandKind::Sink) return kNoDst;
  if (op.kind != OperandKind::Reg) throw Unsupported{"unsupported destination operand"};
  if (bytes) {
    const ir::Register& r = kernel_->regs.at(op.reg);
    *bytes = static_cast<uint8_t>(std::min(8u, ir::type_size(r.type)));
  }
  return static_cast<int32_t>(op.reg * warp_size_);
}

AddrOperand LaunchContext::make_addr(const ir::Operand& op, const ir::Instruction& inst,
                                     StateSpace& space) {
  (void)inst;
  AddrOperand a;
  OperandKind base = op.kind == OperandKind::Address ? op.base : op.kind;
  const int64_t disp = op.kind == OperandKind::Address || op.kind == OperandKind::Symbol ? op.offset : 0;
  switch (base) {
    case OperandKind::Reg:
      a.has_reg = true;
      a.reg_off = op.reg * warp_size_;
      a.disp = static_cast<uint64_t>(disp);
      a.wrap32 = ir::type_size(kernel_->regs.at(op.reg).type) == 4 &&
                 (space == StateSpace::Shared || space == StateSpace::Local || space == StateSpace::Param);
      return a;
    case OperandKind::None:
      a.disp = static_cast<uint64_t>(op.kind == OperandKind::Imm ? static_cast<int64_t>(op.imm) : disp);
      return a;
    case OperandKind::Symbol: {
      const ir::Variable& v = module_->vars.at(op.var);
      uint64_t value = symbol_value(op.var) + static_cast<uint64_t>(disp);
      if (v.space == StateSpace::Param && !v.is_kernel_param) {
        // Function-scope .param (lowered call arguments) live in the local frame.
        if (space == StateSpace::Param) space = StateSpace::Local;
        else if (space == StateSpace::Generic) value += kLocalWindowBase;
      } else if (space == StateSpace::Generic) {
        if (v.space == StateSpace::Shared) value += kSharedWindowBase;
        if (v.space == StateSpace::Local) value += kLocalWindowBase;
      }
      a.disp = value;
      return a;
    }
    default:
      throw Unsupported{"unsupported address operand"};
  }
}

DecodedInst LaunchContext::decode_one(const ir::Instruction& inst) {
  DecodedInst d;
  d.inst = &inst;
  d.has_guard = inst.has_guard;
  d.guard_negated = inst.guard_negated;
  d.guard_off = inst.guard_reg * warp_size_;
  d.rpc = inst.reconverge_pc;
  const auto& ops = inst.ops;
  auto need = [&](size_t n) {
    if (ops.size() < n) throw Unsupported{"too few operands"};
  };

  switch (inst.op) {
    case Opcode::Ld:
    case Opcode::Ldu: {
      need(2);
      d.handler = Handler::Load;
      d.cls = ExecClass::Load;
      d.space = inst.space == StateSpace::None ? StateSpace::Generic : inst.space;
      d.elem_bytes = static_cast<uint8_t>(ir::type_size(inst.type));
      d.vec = inst.vec ? inst.vec : 1;
      if (d.elem_bytes == 0 || d.elem_bytes > 8 || d.vec > 4) throw Unsupported{"unsupported load type"};
      d.sign_extend = ir::is_signed(inst.type);
      if (ops[0].kind == OperandKind::Vector) {
        if (ops[0].elems.size() != d.vec) throw Unsupported{"vector size mismatch"};
        for (unsigned i = 0; i < d.vec; ++i) d.dst[i] = make_dst(ops[0].elems[i], inst, &d.dst_bytes[i]);
      } else {
        if (d.vec != 1) throw Unsupported{"vector load into a scalar"};
        d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
      }
      d.num_dst = d.vec;
      d.addr = make_addr(ops[1], inst, d.space);
      d.fast_load = d.vec == 1 && d.addr.has_reg &&
                    (d.space == StateSpace::Shared || d.space == StateSpace::Local ||
                     d.space == StateSpace::Param) &&
                    !(d.sign_extend && d.dst_bytes[0] > d.elem_bytes);
      return d;
    }
    case Opcode::St: {
      need(2);
      d.handler = Handler::Store;
      d.cls = ExecClass::Store;
      d.space = inst.space == StateSpace::None ? StateSpace::Generic : inst.space;
      d.elem_bytes = static_cast<uint8_t>(ir::type_size(inst.type));
      d.vec = inst.vec ? inst.vec : 1;
      if (d.elem_bytes == 0 || d.elem_bytes > 8 || d.vec > 4) throw Unsupported{"unsupported store type"};
      if (ops[1].kind == OperandKind::Vector) {
        if (ops[1].elems.size() != d.vec) throw Unsupported{"vector size mismatch"};
        for (unsigned i = 0; i < d.vec; ++i) d.src[i] = make_src(ops[1].elems[i], inst);
      } else {
        if (d.vec != 1) throw Unsupported{"vector store from a scalar"};
        d.src[0] = make_src(ops[1], inst);
      }
      d.num_src = d.vec;
      d.addr = make_addr(ops[0], inst, d.space);
      if (d.space == StateSpace::Const) throw Unsupported{"store to the const space"};
      d.fast_store = d.vec == 1 && d.addr.has_reg &&
                     (d.space == StateSpace::Shared || d.space == StateSpace::Local);
      return d;
    }
    case Opcode::Atom:
    case Opcode::Red: {
      const bool atom = inst.op == Opcode::Atom;
      d.handler = Handler::Atomic;
      d.cls = atom ? ExecClass::Atomic : ExecClass::Reduction;
      d.space = inst.space == StateSpace::None ? StateSpace::Generic : inst.space;
      if (d.space != StateSpace::Global && d.space != StateSpace::Shared && d.space != StateSpace::Generic) {
        throw Unsupported{"atomic operation on this state space"};
      }
      if (!atomic_supported(inst.atom, inst.type) || inst.vec > 1) {
        throw Unsupported{"unsupported atomic operation/type combination"};
      }
      d.elem_bytes = static_cast<uint8_t>(ir::type_size(inst.type));
      size_t i = 0;
      if (atom) {
        need(3);
        d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
        d.num_dst = 1;
        i = 1;
      } else {
        need(2);
      }
      d.addr = make_addr(ops[i], inst, d.space);
      d.src[0] = make_src(ops[i + 1], inst);
      d.num_src = 1;
      if (inst.atom == ir::AtomOp::Cas) {
        need(i + 3);
        d.src[1] = make_src(ops[i + 2], inst);
        d.num_src = 2;
      }
      return d;
    }
    case Opcode::Cvta:
    case Opcode::Isspacep:
      need(2);
      d.handler = inst.op == Opcode::Cvta ? Handler::Cvta : Handler::Isspacep;
      d.cls = ExecClass::Int;
      d.space = inst.space;
      d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
      d.num_dst = 1;
      d.src[0] = make_src(ops[1], inst);
      d.num_src = 1;
      if (inst.op == Opcode::Cvta && d.space != StateSpace::Global && d.space != StateSpace::Shared &&
          d.space != StateSpace::Local && d.space != StateSpace::Const) {
        throw Unsupported{"cvta for this state space"};
      }
      return d;
    case Opcode::Bra:
      need(1);
      if (ops[0].kind != OperandKind::Label) throw Unsupported{"branch without a label"};
      d.handler = Handler::Branch;
      d.cls = ExecClass::Branch;
      d.target = ops[0].target;
      return d;
    case Opcode::BrxIdx:
      need(1);
      if (inst.targets.empty()) throw Unsupported{"brx.idx without targets"};
      d.handler = Handler::BranchIdx;
      d.cls = ExecClass::Branch;
      d.src[0] = make_src(ops[0], inst);
      d.num_src = 1;
      return d;
    case Opcode::Call: {
      std::string callee;
      for (const ir::Operand& op : ops)
        if (op.kind == OperandKind::Function && op.func < module_->functions.size())
          callee = module_->functions[op.func].name;
      throw Unsupported{"call" + (callee.empty() ? std::string() : " to '" + callee + "'") +
                        " was not inlined (device functions without a body are not supported)"};
    }
    case Opcode::Ret:
    case Opcode::Exit:
      d.handler = Handler::Exit;
      d.cls = ExecClass::Exit;
      return d;
    case Opcode::Bar: {
      d.handler = Handler::Barrier;
      d.cls = ExecClass::Barrier;
      if (inst.barrier == ir::BarrierKind::None) {
        // bar.warp.sync: lanes of a warp execute in lockstep here.
        d.handler = Handler::Nop;
        return d;
      }
      size_t first = 0, last = ops.size();
      if (inst.barrier == ir::BarrierKind::Red) {
        need(3);
        if (inst.bar_red_op < 1 || inst.bar_red_op > 3) throw Unsupported{"unknown bar.red operation"};
        d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
        d.num_dst = 1;
        d.src[2] = make_src(ops[ops.size() - 1], inst);
        first = 1;
        last = ops.size() - 1;
      }
      if (last <= first) {
        // `barrier.sync` / `bar.sync` without operands is barrier 0.
        d.src[0].kind = SrcKind::Pool;
        d.src[0].off = pool_constant(0);
      } else {
        d.src[0] = make_src(ops[first], inst);
        if (last - first >= 2) d.src[1] = make_src(ops[first + 1], inst);
      }
      if (inst.barrier == ir::BarrierKind::Arrive && d.src[1].kind == SrcKind::None) {
        throw Unsupported{"bar.arrive needs a thread count"};
      }
      d.num_src = 3;
      return d;
    }
    case Opcode::Membar:
    case Opcode::Fence:
    case Opcode::Prefetch:
    case Opcode::Nanosleep:
      d.handler = Handler::Nop;
      d.cls = ExecClass::Nop;
      return d;
    case Opcode::Shfl: {
      d.handler = Handler::Shfl;
      d.cls = ExecClass::Collective;
      size_t i = 0;
      d.dst[0] = make_dst(ops.at(i++), inst, &d.dst_bytes[0]);
      if (inst.dual_dst) d.dst[1] = make_dst(ops.at(i++), inst, &d.dst_bytes[1]);
      d.num_dst = 2;
      need(i + 3);
      for (unsigned k = 0; k < 3; ++k) d.src[k] = make_src(ops[i + k], inst);
      if (ops.size() > i + 3) d.src[3] = make_src(ops[i + 3], inst);
      else { d.src[3].kind = SrcKind::Pool; d.src[3].off = pool_constant(0xFFFFFFFFull); }
      d.num_src = 4;
      if (inst.shfl == ir::ShflMode::None) throw Unsupported{"shfl without a mode"};
      return d;
    }
    case Opcode::Vote: {
      need(2);
      d.handler = Handler::Vote;
      d.cls = ExecClass::Collective;
      d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
      d.num_dst = 1;
      d.src[0] = make_src(ops[1], inst);
      if (ops.size() > 2) d.src[1] = make_src(ops[2], inst);
      else { d.src[1].kind = SrcKind::Pool; d.src[1].off = pool_constant(0xFFFFFFFFull); }
      d.num_src = 2;
      if (inst.vote == ir::VoteMode::None) throw Unsupported{"vote without a mode"};
      return d;
    }
    case Opcode::Activemask:
      need(1);
      d.handler = Handler::Activemask;
      d.cls = ExecClass::Collective;
      d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
      d.num_dst = 1;
      return d;
    case Opcode::Extension:
      d.handler = Handler::Extension;
      d.cls = ExecClass::Extension;
      d.extension = find_extension_semantics(inst.ext_id);
      if (!d.extension) d.extension = spu::semantics(inst.ext_id);  // SPU instructions (functional/spu/)
      if (d.extension) return d;
      // Built-in extensions of the parser's registry, unless overridden above.
      if (inst.ext_id == frontend::ptx::ExtensionRegistry::kTrap) {
        d.handler = Handler::Trap;
        d.cls = ExecClass::Exit;
        return d;
      }
      if (inst.ext_id == frontend::ptx::ExtensionRegistry::kVprintf) {
        need(3);
        d.handler = Handler::Vprintf;  // timed as an unregistered extension (one SP instruction)
        d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
        d.num_dst = 1;
        d.src[0] = make_src(ops[1], inst);
        d.src[1] = make_src(ops[2], inst);
        d.num_src = 2;
        return d;
      }
      if (inst.ext_id == frontend::ptx::ExtensionRegistry::kRelssp) {
        d.handler = Handler::Nop;  // only the timing model's scratchpad lock sees it
        d.cls = ExecClass::Nop;
        return d;
      }
      if (inst.ext_id == frontend::ptx::ExtensionRegistry::kBarWarpSync) {
        d.handler = Handler::Nop;  // lanes of a warp execute in lockstep here
        d.cls = ExecClass::Nop;
        return d;
      }
      throw Unsupported{"extension instruction has no registered semantics"};
    case Opcode::Invalid:
      throw Unsupported{"invalid instruction"};
    default:
      break;
  }

  if (inst.op == Opcode::Mov && has_vector_operand(inst)) {
    need(2);
    const unsigned total = ir::type_size(inst.type);
    if (total == 0 || total > 8) throw Unsupported{"unsupported mov type"};
    d.cls = ExecClass::Int;
    if (ops[1].kind == OperandKind::Vector) {
      d.handler = Handler::MovPack;
      const size_t n = ops[1].elems.size();
      if (n < 2 || n > 4 || total % n) throw Unsupported{"unsupported vector mov"};
      d.dst[0] = make_dst(ops[0], inst, &d.dst_bytes[0]);
      d.num_dst = 1;
      for (size_t k = 0; k < n; ++k) d.src[k] = make_src(ops[1].elems[k], inst);
      d.num_src = static_cast<uint8_t>(n);
      d.elem_bytes = static_cast<uint8_t>(total / n);
    } else {
      d.handler = Handler::MovUnpack;
      const size_t n = ops[0].elems.size();
      if (n < 2 || n > 4 || total % n) throw Unsupported{"unsupported vector mov"};
      for (size_t k = 0; k < n; ++k) d.dst[k] = make_dst(ops[0].elems[k], inst, &d.dst_bytes[k]);
      d.num_dst = static_cast<uint8_t>(n);
      d.src[0] = make_src(ops[1], inst);
      d.num_src = 1;
      d.elem_bytes = static_cast<uint8_t>(total / n);
    }
    return d;
  }

  // Value-computing instruction: the ALU.
  d.alu = select_alu(inst);
  if (!d.alu) throw Unsupported{"instruction not supported by the functional engine"};
  d.handler = Handler::Alu;
  d.cls = alu_class(inst);
  const size_t ndst = inst.dual_dst ? 2 : 1;
  need(ndst);
  for (size_t k = 0; k < ndst; ++k) d.dst[k] = make_dst(ops[k], inst, &d.dst_bytes[k]);
  d.num_dst = static_cast<uint8_t>(ndst);
  if (ops.size() - ndst > 4) throw Unsupported{"too many source operands"};
  for (size_t k = ndst; k < ops.size(); ++k) d.src[k - ndst] = make_src(ops[k], inst);
  d.num_src = static_cast<uint8_t>(ops.size() - ndst);
  return d;
}

void LaunchContext::decode() {
  const auto& insts = kernel_->insts;
  code_.reserve(insts.size() + 1);
  for (const ir::Instruction& inst : insts) {
    try {
      code_.push_back(decode_one(inst));
    } catch (const Unsupported& u) {
      DecodedInst d;
      d.inst = &inst;
      d.handler = Handler::Error;
      d.has_guard = inst.has_guard;
      d.guard_negated = inst.guard_negated;
      d.guard_off = inst.guard_reg * warp_size_;
      d.error_index = add_error(module_->file + ":" + std::to_string(inst.loc.line) + ": error: " + u.what +
                                " in kernel '" + kernel_->name + "': `" + inst.text + "`");
      code_.push_back(d);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Ptx) throw;
      // select_alu rejected a type/modifier combination: report it if executed.
      DecodedInst d;
      d.inst = &inst;
      d.handler = Handler::Error;
      d.has_guard = inst.has_guard;
      d.guard_negated = inst.guard_negated;
      d.guard_off = inst.guard_reg * warp_size_;
      d.error_index = add_error(e.what());
      code_.push_back(d);
    }
  }
  DecodedInst end;  // running off the end of the kernel = exit
  end.handler = Handler::Exit;
  end.cls = ExecClass::Exit;
  code_.push_back(end);
}

}  // namespace simtlm::functional
