// A parsed PTX module: module-scope variables, functions (kernels are
// functions with is_entry), their registers, instructions and basic blocks,
// plus the results of the analyses that later stages need (reconvergence
// points, register counts and physical numbering, liveness, loops, local
// memory size). Built once, then shared read-only by every warp, SM and
// backend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ir/annotations.h"
#include "frontend/ir/instruction.h"

namespace simtlm::frontend::analysis {
struct FunctionAnalyses;  // frontend/analysis/analyze.h
}

namespace simtlm::ir {

// FunctionAnalysis::phys_regs of a register the function never references.
inline constexpr uint32_t kNoPhysReg = 0xFFFFFFFFu;
// FunctionAnalysis::phys_regs of a register that holds a constant-bank value
// (kernel parameter, %ntid, %nctaid; see analysis::RegAllocOptions): it has
// no physical register of its own.
inline constexpr uint32_t kConstantBank = 0xFFFFFFFEu;

// A virtual register (`%r12`, `%f3`, `%p1`, `%rd7`, or any named `.reg`).
struct Register {
  std::string name;
  DataType type = DataType::None;  // declared type
  unsigned vec = 1;                // .v2/.v4 register declarations (rare)
};

// A variable in an addressable state space (.global/.const/.shared/.local/.param).
struct Variable {
  std::string name;
  StateSpace space = StateSpace::None;
  DataType type = DataType::None;  // element type
  uint32_t align = 0;              // bytes; 0 = natural alignment of `type`
  uint64_t size = 0;               // total bytes (elements × type size); 0 for extern arrays
  bool is_extern = false;          // `.extern .shared ... x[]` = dynamic shared memory
  bool is_kernel_param = false;    // entry parameter (`.param` in the .entry signature)
  bool is_func_param = false;      // .func formal parameter / return value
  bool is_visible = false;         // .visible
  uint64_t param_offset = 0;       // kernel/func parameter: byte offset in the parameter buffer
  // Set by passes::inline_calls on the per-thread .local slots that replace
  // the .param arguments/return values of inlined calls (space is then Local):
  // the timing model may treat accesses to them as parameter passing (on real
  // GPUs these live in registers) rather than as local-memory traffic.
  bool from_call_param = false;
  std::vector<uint8_t> init;       // initialiser bytes (empty = zero / uninitialised)
  // Initialisers that take the address of another variable (`{a, b}` of
  // generic(x)) record (byte offset, variable index) pairs resolved at load time.
  std::vector<std::pair<uint64_t, uint32_t>> address_inits;
  SourceLoc loc;
};

struct BasicBlock {
  uint32_t first = 0;   // index of the first instruction
  uint32_t last = 0;    // one past the last instruction
  std::vector<uint32_t> succs;  // successor block indices
  std::vector<uint32_t> preds;  // predecessor block indices
  std::string label;            // first label naming this block ("" if none)
};

// Where FunctionAnalysis::regs_per_thread (the count CTA admission uses)
// comes from. The front end sets Allocator; the runtime may replace the count
// by the toolchain's (gpu.sm.register_count_source, docs/register-allocation.md).
enum class RegisterCountSource : uint8_t {
  Allocator,          // our allocator's estimate (the configuration asks for it)
  AllocatorFallback,  // our allocator's estimate: no ptxas count is known
  Ptxas,              // ptxas "Used N registers" (recorded, or run on the PTX)
  LaunchSpec,         // given with the launch (simtlm ptx --launch SPEC)
  UnifiedAlloc,       // our allocator on the body rewritten by the pass unified_alloc (its budget R)
};
// "allocator", "allocator_fallback", "ptxas", "launch_spec", "unified_alloc".
const char* register_count_source_name(RegisterCountSource source);

// Per-function results of frontend/analysis, filled by analysis::analyze().
struct FunctionAnalysis {
  bool done = false;
  // 32-bit registers per thread that CTA admission uses: our allocator's
  // estimate unless the runtime chose a toolchain count (regs_source).
  uint32_t regs_per_thread = 0;
  uint32_t allocator_regs_per_thread = 0;  // our allocator's estimate, always
  RegisterCountSource regs_source = RegisterCountSource::Allocator;
  std::string regs_source_detail;  // where a toolchain count came from, or why none was used
  uint32_t pred_regs = 0;            // predicate registers after allocation
  uint32_t max_live_regs32 = 0;      // peak simultaneous live 32-bit register units
  std::vector<uint32_t> loop_headers;  // block indices of natural-loop headers
  // Registers a launch must zero. A thread reads only the registers its own
  // path wrote, except those live at entry (a possibly uninitialised read,
  // listed here); a kernel that reads other lanes' registers (shfl, vote,
  // extension instructions) may see lanes that never wrote them, so all of
  // its registers are zeroed. The rest start undefined, which no thread can
  // observe. Unanalysed functions zero everything.
  bool zero_all_registers = true;
  std::vector<uint32_t> registers_to_zero;
  // The register allocation's physical numbering, per virtual register
  // (Function::regs index): first physical 32-bit register (pairs and quads
  // are aligned), or predicate number for .pred registers; kNoPhysReg or
  // kConstantBank (see above). Register-bank and per-register models index
  // their state by these numbers.
  std::vector<uint32_t> phys_regs;
  uint32_t phys_regs32 = 0;  // 32-bit physical registers the colouring used
  // The number (0-based) register sharing counts each physical 32-bit
  // register by, per physical register 0..phys_regs32-1 (Jatala §2.3: the
  // declaration order; private when < floor(regs_per_thread x t)). Empty: the
  // physical number itself. Set by the pass reorder_registers (§2.6,
  // frontend/passes/reorder_registers.h); analyze() clears it.
  std::vector<uint32_t> register_numbers;
  // Every analysis result (CFG, dominators, loops, per-instruction live-in
  // and live-out sets, the register allocation) for passes and the timing
  // model: immutable, shared by copies of the function (kernel variants).
  // Valid for the instructions and blocks it was computed on: a pass that
  // changes them must run analysis::analyze() again. Null before analysis.
  std::shared_ptr<const frontend::analysis::FunctionAnalyses> analyses;
};

// A .entry (kernel) or .func.
struct Function {
  std::string name;
  bool is_entry = false;
  bool is_visible = false;
  std::vector<uint32_t> params;   // variable indices (Module::vars) of parameters, in order
  std::vector<uint32_t> returns;  // .func return-value parameters
  std::vector<uint32_t> locals;   // function-scope .local/.shared/.param variables
  std::vector<Register> regs;
  std::vector<Instruction> insts;
  std::vector<BasicBlock> blocks;
  std::map<std::string, uint32_t> labels;  // label -> instruction index
  // Performance-tuning directives (.maxntid, .reqntid, .minnctapersm, .maxnreg).
  uint32_t maxntid[3] = {0, 0, 0};
  uint32_t reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0;
  uint32_t maxnreg = 0;
  uint64_t param_bytes = 0;        // size of the kernel parameter buffer
  uint64_t local_bytes = 0;        // per-thread .local bytes (incl. lowered call params)
  uint64_t static_shared_bytes = 0;  // module- and function-scope .shared used by this kernel
  // Byte offset of every variable this function uses, indexed by Module::vars
  // index (filled by passes::layout_memory): .shared -> offset in the CTA's
  // shared memory (extern/dynamic shared starts at the aligned end of the static
  // part), .local -> offset in the thread's local frame, .param -> offset in the
  // kernel parameter buffer. Global/const variables get device addresses at
  // module load instead (functional::LaunchRequest::var_addresses).
  std::vector<uint64_t> var_offsets;
  FunctionAnalysis analysis;
  // Values that passes attach per instruction for the timing model (see
  // annotations.h); empty unless a pass that annotates is enabled.
  InstructionAnnotations annotations;
  SourceLoc loc;
  // Non-empty: this function cannot be run, for the reason given (a PTX
  // diagnostic "file:line:column: error: ..."), while the module's other
  // kernels can: an error in its body (the parser), or in its call tree
  // (passes::inline_calls: recursion, indirect calls, inlined size, a call
  // to a rejected function). Its body is a single `ret`; launching it is
  // that error. A module with no usable kernel is an error at load instead.
  std::string rejected;
};

struct Module {
  std::string file;                // file name for diagnostics ("<string>" for text)
  std::string version;             // ".version" text, e.g. "9.0"
  std::string target;              // ".target" text, e.g. "sm_75"
  unsigned address_size = 64;
  std::vector<Variable> vars;      // all variables: module scope and function scope
  std::vector<Function> functions; // kernels and device functions
  std::map<std::string, uint32_t> function_index;

  const Function* find_kernel(const std::string& name) const {
    auto it = function_index.find(name);
    if (it == function_index.end()) return nullptr;
    const Function& f = functions[it->second];
    return f.is_entry ? &f : nullptr;
  }
};

}  // namespace simtlm::ir
