// Basic PTX vocabulary shared by the parser, the analyses and both backends:
// data types, state spaces and the small enums that qualify instructions.
// Kept free of SystemC so the front end builds and tests on its own.
#pragma once

#include <cstdint>
#include <string_view>

namespace simtlm::ir {

// PTX fundamental types (PTX ISA §5.2). `None` marks "no type given".
enum class DataType : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
};

// Size in bytes of one value of `t` (Pred counts as 1; None as 0).
unsigned type_size(DataType t);
bool is_float(DataType t);     // F16, F16x2, BF16, BF16x2, F32, F64
bool is_signed(DataType t);    // S8..S64
bool is_unsigned(DataType t);  // U8..U64
bool is_bits(DataType t);      // B8..B128
std::string_view type_name(DataType t);  // ".u32" etc. without the dot
// Parses "u32", "f64", ... (no leading dot). Returns false if unknown.
bool parse_type(std::string_view text, DataType& out);

// PTX state spaces (PTX ISA §5.1). `Generic` = no space qualifier on a memory op.
enum class StateSpace : uint8_t {
  None, Reg, Sreg, Const, Global, Local, Param, Shared, SharedCluster, Tex, Generic,
};
std::string_view space_name(StateSpace s);

// Comparison operators of setp/set/slct (PTX ISA §9.7.x "Comparison").
enum class CmpOp : uint8_t {
  None,
  Eq, Ne, Lt, Le, Gt, Ge,           // signed / ordered float
  Lo, Ls, Hi, Hs,                   // unsigned
  Equ, Neu, Ltu, Leu, Gtu, Geu,     // unordered float
  Num, Nan,
};

// Boolean combine of setp/set (`.and`, `.or`, `.xor`).
enum class BoolOp : uint8_t { None, And, Or, Xor };

// Rounding modifiers of cvt/float arithmetic.
enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rni, Rzi, Rmi, Rpi };

// mul/mad width selection.
enum class MulMode : uint8_t { None, Lo, Hi, Wide };

// Atomic / reduction operations.
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, Cas, Exch, And, Or, Xor };

// shfl.sync modes.
enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };

// vote.sync modes.
enum class VoteMode : uint8_t { None, All, Any, Uni, Ballot };

// Barrier flavours (bar.sync, barrier.sync, bar.arrive, bar.red).
enum class BarrierKind : uint8_t { None, Sync, Arrive, Red };

// Memory-consistency scope / ordering of fence, membar, atom (accepted, recorded).
enum class MemScope : uint8_t { None, Cta, Cluster, Gpu, Sys };
enum class MemOrder : uint8_t { None, Relaxed, Acquire, Release, AcqRel, Sc, Weak, Volatile };

// Cache operators of ld/st (PTX ISA "Cache Operators"): performance hints
// that never change the values a program reads. Loads: .ca .cg .cs .lu .cv;
// stores: .wb .cg .cs .wt. None = not given (.ca for ld, .wb for st).
enum class CacheOp : uint8_t { None, Ca, Cg, Cs, Lu, Cv, Wb, Wt };
std::string_view cache_op_name(CacheOp c);

// testp properties.
enum class TestProp : uint8_t { None, Finite, Infinite, Number, NotANumber, Normal, Subnormal };

// Special registers (PTX ISA §10). Components are selected by Operand::component.
enum class SpecialReg : uint8_t {
  None,
  Tid, Ntid, Ctaid, Nctaid,    // vector: component x/y/z
  Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid,
  Clock, Clock64, Globaltimer, GlobaltimerLo, GlobaltimerHi,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  DynamicSmemSize, TotalSmemSize,
  WarpSz,  // WARP_SZ: nvcc's PTX for `warpSize` (no '%'; see special_regs.cpp)
};

}  // namespace simtlm::ir
