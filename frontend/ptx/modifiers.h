// Classification of the dotted components that follow an opcode mnemonic
// (`.global`, `.u32`, `.rn`, `.ftz`, `.eq`, ...). Each instruction family asks
// only for the categories it accepts, so a word that means different things
// in different families (`.hi` = mul mode or unsigned compare, `.and` = boolean
// combine, atomic op or bar.red op) is never ambiguous.
#pragma once

#include <cstdint>
#include <string_view>

#include "frontend/ir/types.h"

namespace simtlm::frontend::ptx {

// Categories (bit mask) of modifiers a family accepts.
inline constexpr uint64_t kModType = 1ull << 0;       // .u32 .f32 .pred ... (up to 3, in order)
inline constexpr uint64_t kModSpace = 1ull << 1;      // .global .shared(::cta) .local .const .param(::entry/::func)
inline constexpr uint64_t kModRndF = 1ull << 2;       // .rn .rz .rm .rp
inline constexpr uint64_t kModRndI = 1ull << 3;       // .rni .rzi .rmi .rpi
inline constexpr uint64_t kModRna = 1ull << 4;        // .rna
inline constexpr uint64_t kModFtz = 1ull << 5;
inline constexpr uint64_t kModSat = 1ull << 6;
inline constexpr uint64_t kModApprox = 1ull << 7;
inline constexpr uint64_t kModFull = 1ull << 8;
inline constexpr uint64_t kModCc = 1ull << 9;
inline constexpr uint64_t kModCmp = 1ull << 10;       // .eq .ne .lt ... .lo .ls .hi .hs .equ ... .num .nan
inline constexpr uint64_t kModBool = 1ull << 11;      // .and .or .xor
inline constexpr uint64_t kModMulMode = 1ull << 12;   // .lo .hi .wide
inline constexpr uint64_t kModHiLo = 1ull << 13;      // .lo .hi
inline constexpr uint64_t kModUni = 1ull << 14;
inline constexpr uint64_t kModVolatile = 1ull << 15;
inline constexpr uint64_t kModSem = 1ull << 16;       // .weak .relaxed .acquire .release .acq_rel .sc (order)
inline constexpr uint64_t kModScope = 1ull << 17;     // .cta .cluster .gpu .sys
inline constexpr uint64_t kModCacheOp = 1ull << 18;   // .ca .cg .cs .lu .cv .wb .wt
inline constexpr uint64_t kModNc = 1ull << 19;
inline constexpr uint64_t kModVec = 1ull << 20;       // .v2 .v4
inline constexpr uint64_t kModHint = 1ull << 21;      // .L1::evict_* .L2::evict_* .L2::64B/128B/256B (ignored)
inline constexpr uint64_t kModAtomOp = 1ull << 22;    // .add .min .max .inc .dec .cas .exch .and .or .xor
inline constexpr uint64_t kModShfl = 1ull << 23;      // .up .down .bfly .idx
inline constexpr uint64_t kModVote = 1ull << 24;      // .all .any .uni .ballot
inline constexpr uint64_t kModSync = 1ull << 25;      // .sync
inline constexpr uint64_t kModAligned = 1ull << 26;   // .aligned
inline constexpr uint64_t kModTestp = 1ull << 27;     // .finite .infinite .number .notanumber .normal .subnormal
inline constexpr uint64_t kModNaN = 1ull << 28;       // .NaN
inline constexpr uint64_t kModShiftAmt = 1ull << 29;  // .shiftamt
inline constexpr uint64_t kModPrmt = 1ull << 30;      // .f4e .b4e .rc8 .ecl .ecr .rc16
inline constexpr uint64_t kModShfDir = 1ull << 31;    // .l .r
inline constexpr uint64_t kModShfMode = 1ull << 32;   // .wrap .clamp
inline constexpr uint64_t kModTo = 1ull << 33;        // .to
inline constexpr uint64_t kModNoftz = 1ull << 34;     // .noftz (atom.add.f16/bf16)
inline constexpr uint64_t kModBarRed = 1ull << 35;    // .popc .and .or
inline constexpr uint64_t kModMembar = 1ull << 36;    // .cta .gl .sys
inline constexpr uint64_t kModBarCta = 1ull << 37;    // bar{.cta}
inline constexpr uint64_t kModPfLevel = 1ull << 38;   // prefetch: .L1 .L2 .L1::evict_last .L2::evict_last/normal

struct ModSet {
  ir::DataType types[3] = {ir::DataType::None, ir::DataType::None, ir::DataType::None};
  unsigned ntypes = 0;
  ir::StateSpace space = ir::StateSpace::None;
  ir::Rounding rnd = ir::Rounding::None;
  ir::CmpOp cmp = ir::CmpOp::None;
  ir::BoolOp boolop = ir::BoolOp::None;
  ir::MulMode mul = ir::MulMode::None;
  ir::MemOrder order = ir::MemOrder::None;
  ir::MemScope scope = ir::MemScope::None;
  ir::AtomOp atom = ir::AtomOp::None;
  ir::ShflMode shfl = ir::ShflMode::None;
  ir::VoteMode vote = ir::VoteMode::None;
  ir::TestProp testp = ir::TestProp::None;
  ir::CacheOp cache_op = ir::CacheOp::None;
  uint8_t vec = 1;
  uint8_t prmt = 0;
  int8_t shf_left = -1;   // -1 unset, 0 .r, 1 .l
  int8_t shf_clamp = -1;  // -1 unset, 0 .wrap, 1 .clamp
  uint8_t bar_red = 0;    // 1 popc, 2 and, 3 or
  bool ftz = false, sat = false, approx = false, full = false, cc = false, uni = false;
  bool volatile_ = false, nc = false, sync = false, aligned = false, nan = false;
  bool shiftamt = false, to = false, noftz = false, bar_cta = false;
  bool pf_level = false;
  bool has(uint64_t cat) const { return (seen & cat) != 0; }
  uint64_t seen = 0;  // categories that occurred
};

enum class ModResult { Ok, Unknown, Duplicate };

// Classifies one component (without the leading dot) into `m`, trying only
// the categories in `allowed`.
ModResult apply_modifier(std::string_view comp, uint64_t allowed, ModSet& m);

}  // namespace simtlm::frontend::ptx
