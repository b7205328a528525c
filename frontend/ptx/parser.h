// PTX text -> ir::Module. Accepts the PTX that nvcc (CUDA 12/13, .version up
// to 9.x) emits; rejects anything malformed or unsupported with
// simtlm::Error(ErrorKind::Ptx) whose message is
//   "file:line:column: error: <what> near '<text>'".
// The parser builds instructions, registers, variables and labels only: basic
// blocks and reconvergence points (frontend/analysis) and memory layout
// (var_offsets, local_bytes, static_shared_bytes: frontend/passes) are filled
// in by later stages. See docs/ptx-support.md for the accepted language.
//
// ============================ OPERAND CONVENTIONS ============================
// ir::Instruction::ops lists operands in PTX order, destinations first.
//
// Registers   Operand{kind=Reg, reg=index into Function::regs}. A predicate
//             source written `!p` (setp/set combine operand c, vote's a,
//             bar.red's c) has negate=true.
// Immediates  Operand{kind=Imm, imm=raw bits of the value in the type of that
//             operand position}: integer literals sign-/zero-extended to 64
//             bits (`-1` in a .u32 position is 0xFFFFFFFFFFFFFFFF); float
//             literals (0f..., 0d..., 1.5) converted to the float type of the
//             position (0f in an .f64 position: the f32 value widened; decimal
//             in .f32: rounded to f32); an integer literal in a float position
//             is converted by value (1 -> 1.0); in a .bN position a float
//             literal keeps its IEEE bits at that width (.b16: half). .f16/.bf16
//             positions: float literal -> half bits, integer literal = raw bits.
//             Positions whose type the ISA fixes (shift amounts, bfe/bfi pos and
//             len, shf amount, shfl lane/clamp/mask, vote/bar member masks,
//             prmt selector, lop3 lut, barrier ids/counts) are .u32/.b32.
// Special     Operand{kind=Special, sreg, component (x=0, y=1, z=2)}.
// Symbol      a variable used as a value (`mov.u64 %rd1, smem;`,
//             `cvta.shared.u64 %rd1, smem;`, `mov.u64 %rd1, arr+8;`):
//             Operand{kind=Symbol, var=Module::vars index, offset=byte offset}.
// Address     `[reg]`, `[reg+imm]`, `[reg+-imm]`, `[var]`, `[var+imm]`, `[imm]`:
//             Operand{kind=Address, base=Reg (reg) | Symbol (var) | None,
//             offset=byte offset}.
// Vector      `{a, b, c, d}`: Operand{kind=Vector, elems} with Reg, Imm or
//             Sink (`_`, destinations only) elements.
//
// Per family (d = destination):
//   mov        [d, a]; a may be Reg/Imm/Special/Symbol. Pack: mov.b64 d, {a,b}
//              -> [Reg, Vector]; unpack: mov.b64 {a,b}, s -> [Vector, Reg].
//   ld / ldu   [dst (Reg or Vector of Reg/Sink for .v2/.v4), Address].
//   st         [Address, src (Reg, Imm or Vector of Reg/Imm)].
//              `space` = state space (Generic when none is written), `vec`,
//              `order` (Weak/Relaxed/Acquire/Release; Volatile for .volatile,
//              which also sets volatile_), `scope`. Cache operators, .nc and
//              eviction/prefetch-size hints are accepted and not recorded.
//   cvta       [d, a]; type = .u32/.u64, space = the space, cvta_to for
//              cvta.to; a is Reg or Symbol (cvta.shared.u64 %rd1, smem).
//   cvt        [d, a]; type = destination, type2 = source, rounding, ftz, sat.
//              cvt.rn.f16x2.f32 d, a, b -> [d, a, b] (a goes to the upper half).
//   add/sub/mul/mad/div/rem/min/max/abs/neg/addc/subc/madc/mul24/mad24/sad:
//              [d, a, b(, c)]; mul/mad `mul` = Lo/Hi/Wide; for .wide `type` is
//              the SOURCE type (d, and mad's c, are twice as wide). .cc -> cc,
//              .sat, .ftz, rounding, div .approx/.full -> approx/full.
//              min/max .NaN -> cmp = CmpOp::Nan.
//   fma/rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh/copysign: [d, a(, b, c)].
//   testp      [p, a]; testp = property.
//   popc/clz/bfind/brev/not/cnot/abs/neg: [d, a] (popc/clz/bfind d is .u32).
//              bfind.shiftamt -> shift_left = true.
//   bfe        [d, a, b(pos), c(len)].   bfi [f, a(insert), b(base), c(pos), d(len)].
//   prmt       [d, a, b, c]; prmt_mode 0 = default, 1..6 = f4e,b4e,rc8,ecl,ecr,rc16.
//   lop3       [d, a, b, c, Imm lut]; lop3_lut = lut.
//   dp4a/dp2a  [d, a, b, c]; type = a's type, type2 = b's type; dp2a mul = Lo/Hi.
//   shl/shr    [d, a, b(amount, .u32)].  shf [d, a, b, c(amount)], shift_left,
//              shift_clamp.
//   setp       [p, (q if dual_dst), a, b, (c if boolop)]; type = compared type,
//              cmp, boolop; c may be negated.
//   set        [d, a, b, (c)]; type = destination type, type2 = source type.
//   selp       [d, a, b, c(pred)].   slct [d, a, b, c]; type = d/a/b type,
//              type2 = c's type (.s32/.f32).
//   bra        [Label(target = instruction index)]; uni.
//   brx.idx    [index Reg, Label(target = instruction index at the
//              .branchtargets declaration)]; targets = resolved instruction
//              indices of the list.
//   call       [Vector of return operands (Symbol of .param vars or Reg; empty
//              Vector if none), Function(func = target = Module::functions
//              index), Vector of arguments (Symbol for .param variables, Reg or
//              Imm)]; uni. Calls may precede the callee's definition; calls to
//              undefined or declared-only (.extern) functions are errors, except
//              to vprintf, which the parser then defines (builtin_vprintf.cpp).
//   ret/exit   []; ret.uni -> uni.
//   bar/barrier [a, (b)] with barrier = Sync/Arrive; bar.red: [d, a, (b), c]
//              with barrier = Red, bar_red_op 1=popc 2=and 3=or, c may be negated.
//              bar.sync and barrier.sync(.aligned) both give Sync.
//   membar     []; scope = Cta/Gpu(.gl)/Sys, order = Sc.
//   fence      []; order = Sc/AcqRel (default)/Acquire/Release, scope.
//   atom       [d, Address, b, (c for cas)]; red [Address, b]; atom = op,
//              type = operand type, space (Generic when none), order, scope.
//   shfl.sync  [d, (p if dual_dst), a, b, c, membermask]; shfl = mode.
//   vote.sync  [d, a(pred, may be negated), membermask]; vote = mode,
//              type = .pred or .b32 (ballot).
//   activemask [d].   nanosleep [t].   prefetch/prefetchu [Address]; space.
//   isspacep   [p, a]; space = the tested space.
//   trap       Opcode::Extension, ext_id = ExtensionRegistry::kTrap, [].
//   bar.warp.sync  Opcode::Extension, ext_id = ExtensionRegistry::kBarWarpSync,
//              [membermask].
//   redux.sync Opcode::Extension, ext_id = kReduxSync, [d, a, membermask];
//              atom = Add/Min/Max/And/Or/Xor, type = .u32/.s32/.b32.
//   bmsk       Opcode::Extension, ext_id = kBmsk, [d, a(start), b(width)];
//              shift_clamp = .clamp (else .wrap).
//   vprintf    Opcode::Extension, ext_id = kVprintf, [d, fmt, args].
//   relssp     Opcode::Extension, ext_id = kRelssp, [] (scratchpad release).
//   extensions Opcode::Extension, ext_id = registered id (extensions.h); the
//              operands follow the registered shape, same encodings as above.
//
// Guards `@p` / `@!p` set has_guard, guard_negated, guard_reg. Every
// instruction has loc (line/column of the opcode) and text (its source text,
// comments removed, whitespace collapsed, without the ';').
//
// Variables: Module::vars holds every variable (module scope, function scope,
// nested call-sequence blocks: each declaration is a distinct Variable found
// by scope). Kernel/function parameters have is_kernel_param/is_func_param and
// param_offset (each aligned to its .align or natural alignment);
// Function::param_bytes is the parameter buffer size (return values have their
// own offsets starting at 0). Initialisers fill Variable::init (element bytes,
// little endian); `generic(x)`, `x` and `generic(x)+n` elements add
// (byte offset, var) to address_inits and leave the addend n in init at that
// offset (the loader adds the variable's address to it).
// Registers declared in nested blocks are distinct Function::regs entries.
// ============================================================================
#pragma once

#include <memory>
#include <string>

#include "frontend/ir/module.h"

namespace simtlm::frontend {

namespace ptx {
class ExtensionRegistry;
}

// Parses with the process-wide extension registry (ptx::ExtensionRegistry::global()).
std::unique_ptr<ir::Module> parse_ptx(const std::string& text, const std::string& filename);

// Parses with an explicit extension registry (ext_ids index into it).
std::unique_ptr<ir::Module> parse_ptx(const std::string& text, const std::string& filename,
                                      const ptx::ExtensionRegistry& extensions);

}  // namespace simtlm::frontend
