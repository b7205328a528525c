// Prints the IR back as PTX text, for tests, debugging and dumps.
//
// print_module() produces PTX that frontend::parse_ptx() accepts and that
// parses back to the same instructions (opcode, modifiers, operands, targets)
// as long as the module's variables are declared before the functions (true
// for nvcc output). What the IR does not record is not printed: .nc,
// eviction hints, .loc, prefetch levels (printed as .L2),
// scoping of nested blocks (all registers and locals are declared at the top
// of the function; names that occur more than once get a `$<index>` suffix).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "frontend/ir/module.h"
#include "frontend/ir/ptx_spelling.h"  // opcode_name()

namespace simtlm::ir {

// One instruction (without the trailing ';'), names as declared.
std::string print_instruction(const Module& m, const Function& f, const Instruction& inst);
// One operand, names as declared.
std::string print_operand(const Module& m, const Function& f, const Operand& op);

// Text appended as a `// comment` after an instruction (empty: none); e.g.
// to mark what a pass inserted.
using InstructionComment = std::function<std::string(const Function& f, uint32_t pc)>;

std::string print_function(const Module& m, const Function& f, const InstructionComment& comment = {});
std::string print_module(const Module& m, const InstructionComment& comment = {});

}  // namespace simtlm::ir
