// How PTX spells the IR's modifiers and opcodes (`.rn`, `.lt`, `.relaxed`,
// `fma`, ...): the printer's vocabulary, kept apart from its layout logic.
#pragma once

#include <string_view>

#include "frontend/ir/module.h"

namespace simtlm::ir {

std::string_view opcode_name(Opcode op);
std::string_view rounding_name(Rounding v);
std::string_view cmp_name(CmpOp v);
std::string_view bool_name(BoolOp v);
std::string_view order_name(MemOrder v);
std::string_view scope_name(MemScope v);
std::string_view atom_name(AtomOp v);
std::string_view shfl_name(ShflMode v);
std::string_view vote_name(VoteMode v);
std::string_view testp_name(TestProp v);

// prmt's mode suffixes, indexed by the instruction's prmt mode.
extern const std::string_view kPrmtModes[7];

}  // namespace simtlm::ir
