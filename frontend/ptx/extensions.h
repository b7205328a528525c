// Extension point for instructions that are not part of the PTX ISA but that
// the modelled research designs add and that kernels emit through inline asm:
// `relssp` (scratchpad release), communication-buffer accesses
// (`ld.cb.f32 %f1, [%r1];`, `st.cb.f32 [%r1], %f1;`), `bar.blocksync` with a
// direction operand, and so on.
//
// An extension is registered under a mnemonic: either the first dotted
// component of the opcode ("relssp") or a longer dotted prefix
// ("ld.cb", "bar.blocksync"). When the parser meets an opcode, the longest
// registered prefix wins over the built-in instruction set, so "ld.cb.f32" is
// an extension while "ld.global.f32" stays the built-in ld.
//
// The remaining dotted components are the extension's modifiers: a PTX type
// (".f32") sets Instruction::type (then type2) if `max_types` allows it;
// everything else goes to the optional `parse_modifier` hook, which may set
// any Instruction field (space, vec, order, ...) and returns false for
// modifiers it does not know (-> parse error). Operands are parsed with the
// same syntax and conventions as built-in instructions (see parser.h) and
// checked against `operands`. A parsed instance becomes
// Instruction{op = Opcode::Extension, ext_id = <id>, ops, text}.
//
// The executor looks up semantics by ext_id. ids are indices into the
// registry that was used for parsing (ExtensionRegistry::global() unless a
// registry is passed to parse_ptx explicitly). Built-in ids (trap,
// bar.warp.sync) are fixed constants below.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ir/instruction.h"

namespace simtlm::frontend::ptx {

// Operand kinds an extension operand position accepts (bit mask).
enum ExtOperandKinds : uint32_t {
  kExtReg = 1u << 0,      // register (`%r1`); `!p` allowed when the type is .pred
  kExtImm = 1u << 1,      // immediate literal
  kExtSpecial = 1u << 2,  // special register (`%tid.x`)
  kExtSymbol = 1u << 3,   // variable name used as an address value
  kExtAddress = 1u << 4,  // memory operand `[...]`
  kExtVector = 1u << 5,   // `{a, b, ...}` of registers/immediates/`_`
  kExtLabel = 1u << 6,    // branch label
  kExtName = 1u << 7,     // a bare identifier that is not a register/variable
                          // (e.g. a direction keyword `NORTH`): Imm whose value
                          // is the index of the name in ExtOperand::names
};

struct ExtOperand {
  uint32_t kinds = kExtReg;
  bool is_dst = false;
  // Type of the position: None = the instruction's type (from its modifiers);
  // if that is also None, any register type is accepted and immediates are
  // plain integers.
  ir::DataType type = ir::DataType::None;
  bool optional = false;           // may be omitted (only trailing operands)
  std::vector<std::string> names;  // kExtName: accepted keywords
};

struct ExtensionDef {
  std::string mnemonic;              // "relssp", "ld.cb", "bar.blocksync"
  std::string description;           // one line, for docs/diagnostics
  std::vector<ExtOperand> operands;  // operand shape, in PTX order
  unsigned max_types = 1;            // how many type modifiers are accepted
  bool type_required = false;        // at least one type modifier must be given
  bool allow_guard = true;           // `@p` guard allowed
  // Groups of mutually exclusive modifiers (without the dot), e.g.
  // {{"clamp", "wrap"}, true}: at most one of each group may appear, and
  // exactly one if `required`. Listed modifiers are accepted; parse_modifier
  // (if set) is still called for them to record their meaning.
  struct ModifierGroup {
    std::vector<std::string> names;
    bool required = false;
  };
  std::vector<ModifierGroup> modifier_groups;
  // Custom modifier parsing: return true if `modifier` (without the dot) was
  // consumed; set `error` and return false to reject with a specific message.
  std::function<bool(std::string_view modifier, ir::Instruction& inst, std::string& error)>
      parse_modifier;
  // Final check after operands are parsed (empty error = ok).
  std::function<void(const ir::Instruction& inst, std::string& error)> validate;
};

class ExtensionRegistry {
 public:
  // Built-in ids, present in every registry.
  static constexpr uint16_t kTrap = 0;         // `trap;`   -> device fault
  static constexpr uint16_t kBarWarpSync = 1;  // `bar.warp.sync membermask;` ops = [membermask]
  // `redux.sync.op.type d, a, membermask;` (sm_80+, emitted for cg::reduce and
  // __reduce_*_sync): ops = [d, a, membermask], Instruction::atom = the
  // operation (Add/Min/Max on .u32/.s32, And/Or/Xor on .b32), type = .type.
  static constexpr uint16_t kReduxSync = 2;
  // `bmsk.mode.b32 d, a, b;` (sm_70+, emitted by CUB): d = mask of b bits
  // starting at bit a; Instruction::shift_clamp = .clamp (else .wrap).
  static constexpr uint16_t kBmsk = 3;
  // `vprintf d, fmt, args;`: CUDA's device printf (d = printf's result,
  // .b32; fmt, args = generic addresses, .b64). The parser defines a called
  // .extern vprintf with it (builtin_vprintf.cpp); the executor formats it.
  static constexpr uint16_t kVprintf = 4;
  // `relssp;` (Jatala ch. 3, seed note 000 §2.10): the executing lanes declare
  // that they will not touch the CTA's shared scratchpad region again; when
  // every active thread of the CTA has, the CTA's lock on its pair's shared
  // region is released (models/smem/sharing_allocator.h). No operands. The
  // functional backend runs it as a no-op.
  static constexpr uint16_t kRelssp = 5;
  // 6..17: the SPU's instructions (frontend/ptx/spu_extensions.h).

  ExtensionRegistry();  // registers the built-ins

  // The process-wide registry used by parse_ptx(text, filename). Register
  // extensions before parsing (registration is not thread-safe; lookups are).
  static ExtensionRegistry& global();

  // Registers `def` and returns its id. Throws simtlm::Error(Internal) if the
  // mnemonic is empty, malformed or already registered.
  uint16_t add(ExtensionDef def);

  const ExtensionDef* find(uint16_t id) const;
  // id of the extension registered under exactly `mnemonic`, or -1.
  int id_of(std::string_view mnemonic) const;
  size_t size() const { return defs_.size(); }

  // Longest registered prefix of the opcode `components` (already split at
  // dots). Returns the id and sets `consumed` to the number of components
  // that form the mnemonic; -1 if none matches.
  int match(const std::vector<std::string_view>& components, size_t& consumed) const;

 private:
  std::vector<ExtensionDef> defs_;
  std::vector<std::vector<std::string>> split_;  // mnemonic components per id
  std::unordered_map<std::string, std::vector<uint16_t>> by_first_;
};

}  // namespace simtlm::frontend::ptx
