// Unrolling and reordering of register declarations (Jatala §2.3.2, Fig. 2.10;
// seed note 000 §2.6), the front-end pass `reorder_registers`, chosen by
// gpu.sm.regfile.sharing_reorder (runtime/pass_config.cpp).
//
// Register sharing (models/regfile/sharing_allocator.h) splits a thread's
// registers by their number: n <= floor(regs_per_thread x t) is private, the
// rest is shared under the warp pair's lock. The thesis numbers registers by
// declaration order; rewriting the declarations one register each, in the
// order of first use in the static program text, gives the registers used
// first the smallest numbers, so a non-owner warp runs longer before it needs
// the lock.
//
// Our model numbers the register-file registers physically (the register
// allocation's FunctionAnalysis::phys_regs stands for the declaration order),
// so the pass numbers the physical 32-bit registers: walking the virtual
// registers in first-use order (first_use_order), each physical register
// takes the next number when first met; physical registers no instruction
// names (constant-bank temporaries) follow in ascending order. The result is
// FunctionAnalysis::register_numbers, which only the register-sharing check
// reads: register banks keep the physical numbering, as GPGPU-Sim's PTXPlus
// keeps the architectural register numbers for its banks.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::frontend::passes {

inline constexpr const char* kReorderRegistersPass = "reorder_registers";

// The thesis's rewrite (§2.6): virtual register indices (Function::regs,
// predicates included) in the order of first use in static text order (per
// instruction the guard predicate, then the operands as written, address
// bases and vector elements included), then the registers no instruction
// names, in declaration order.
std::vector<uint32_t> first_use_order(const ir::Function& fn);

// The new number (0-based) of every physical 32-bit register 0..phys_regs32-1
// of an analysed function (see above). Empty when the function has no
// register allocation.
std::vector<uint32_t> register_numbers_by_first_use(const ir::Function& fn);

// Sets FunctionAnalysis::register_numbers of every analysed function.
void reorder_registers(ir::Module& module);

// The pass (after `analyze`, off by default), for the pass registry.
PassInfo reorder_registers_pass();

}  // namespace simtlm::frontend::passes
