// Executor-friendly form of a kernel's instructions, built once per launch
// (functional::LaunchContext) for the launch's warp width: handler kind,
// cached ALU kernel, operands resolved to register lane-array offsets or to
// pre-broadcast immediate lane arrays, symbol addresses folded into
// constants. The per-instruction path does no string work, no map lookup and
// no allocation.
#pragma once

#include <cstdint>
#include <functional>

#include "frontend/ir/instruction.h"
#include "functional/alu.h"
#include "functional/warp.h"

namespace simtlm::functional {

struct ExtensionCall;
using ExtensionHandler = std::function<void(ExtensionCall&)>;

enum class Handler : uint8_t {
  Alu,         // select_alu kernel
  MovPack,     // mov d, {a, b, ...}
  MovUnpack,   // mov {a, b, ...}, s
  Load,        // ld, ldu
  Store,       // st
  Atomic,      // atom (has_dst) / red
  Cvta,
  Isspacep,
  Branch,      // bra
  BranchIdx,   // brx.idx
  Exit,        // ret/exit in the kernel, or running off its end
  Barrier,     // bar/barrier
  Shfl,
  Vote,
  Activemask,
  Nop,         // membar, fence, prefetch, nanosleep
  Extension,
  Trap,        // trap: device fault
  Vprintf,     // CUDA device printf (ExtensionRegistry::kVprintf): src[0] = format, src[1] = arguments, dst[0] = result
  Error,       // unsupported: throws the recorded message when executed
};

// Where a source operand's lane array comes from.
enum class SrcKind : uint8_t {
  None,
  Reg,      // regs + off
  NotReg,   // !p: materialised into a scratch slot
  Pool,     // pre-broadcast constant: pool + off
  Special,  // special register: materialised into a scratch slot
};

struct Src {
  SrcKind kind = SrcKind::None;
  ir::SpecialReg sreg = ir::SpecialReg::None;
  uint8_t component = 0;
  uint32_t off = 0;  // Reg/NotReg: reg * W; Pool: index into the pool
};

// Memory address operand: lane value of a register plus displacement, or a
// constant (symbol address / absolute address already folded in).
struct AddrOperand {
  bool has_reg = false;
  uint32_t reg_off = 0;   // reg * W
  uint64_t disp = 0;      // added (two's complement) to the register value, or the constant
  // A 32-bit register addressing a 32-bit window (shared, local, param): the
  // sum wraps at 32 bits as on hardware ([%r + 4] with %r = 0xfffffffc is
  // address 0). Applied only where the 64-bit sum is out of bounds, so the
  // common in-bounds path does no extra work.
  bool wrap32 = false;
};

inline constexpr int32_t kNoDst = -1;
inline constexpr unsigned kMaxSrc = 6;

struct DecodedInst {
  Handler handler = Handler::Error;
  ExecClass cls = ExecClass::Nop;
  bool has_guard = false;
  bool guard_negated = false;
  uint32_t guard_off = 0;           // guard register * W
  const ir::Instruction* inst = nullptr;  // nullptr for the implicit final exit

  // Value-computing instructions.
  AluKernel alu = nullptr;
  uint8_t num_dst = 0;
  uint8_t num_src = 0;
  int32_t dst[4] = {kNoDst, kNoDst, kNoDst, kNoDst};  // reg * W or kNoDst
  uint8_t dst_bytes[4] = {0, 0, 0, 0};                 // declared register sizes
  Src src[kMaxSrc];

  // Memory instructions.
  ir::StateSpace space = ir::StateSpace::None;  // effective space (Generic for generic)
  uint8_t elem_bytes = 0;
  uint8_t vec = 1;
  bool sign_extend = false;
  bool fast_load = false;   // scalar load, register address, shared/local/param, no sign extension
  bool fast_store = false;  // scalar store, register address, shared/local
  AddrOperand addr;

  // Control flow.
  uint32_t target = 0;
  uint32_t rpc = ir::kNoReconvergence;

  // Barrier: sources are src[0] = id, src[1] = thread count (kind None if
  // absent), src[2] = bar.red predicate; dst[0] = bar.red result.
  // Extension handler (Handler::Extension).
  const ExtensionHandler* extension = nullptr;
  // Handler::Error: index into LaunchContext's error messages.
  uint32_t error_index = 0;
};

}  // namespace simtlm::functional
