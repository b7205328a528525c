// Internal state of the PTX parser, shared by the files that implement it:
//   parser.cpp        module level: directives, linkage, function signatures
//   declarations.cpp  .reg and variable declarations, initialisers
//   body.cpp          function bodies: scopes, labels, statements, fix-ups
//   operands.cpp      operand syntax and operand resolution/type checks
//   inst_*.cpp        instruction families (decoders)
//   inst_table.cpp    mnemonic -> decoder table, extension instructions
// Not part of the public interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ir/module.h"
#include "frontend/ptx/extensions.h"
#include "frontend/ptx/lexer.h"
#include "frontend/ptx/literals.h"
#include "frontend/ptx/modifiers.h"

namespace simtlm::frontend::ptx {

// Syntactic operand, before name resolution and type checks.
struct RawOperand {
  enum class Kind : uint8_t {
    Name,     // identifier (register, variable, label, function, special register)
    Number,   // literal (with optional unary minus)
    Address,  // [base+offset] / [offset]
    Vector,   // {a, b, ...}
    Paren,    // (a, b, ...) call lists
    Sink,     // _
    Pair,     // a|b
  };
  Kind kind = Kind::Name;
  bool negate = false;        // `!` prefix
  uint32_t tok = 0;           // token index of the operand's first token
  std::string_view name;      // Name; Address base (empty = absolute)
  Literal lit;                // Number
  bool has_offset = false;    // Name+imm / Address with offset
  int64_t offset = 0;
  std::vector<RawOperand> elems;  // Vector, Paren, Pair
};

// Operand kinds a position accepts (bit mask).
enum SlotKind : uint32_t {
  kSlotReg = 1u << 0,
  kSlotImm = 1u << 1,
  kSlotSpecial = 1u << 2,
  kSlotSymbol = 1u << 3,
  kSlotAddress = 1u << 4,
  kSlotVector = 1u << 5,
};

struct Slot {
  uint32_t kinds = kSlotReg;
  ir::DataType type = ir::DataType::None;  // None = any register type, integer immediates
  bool dst = false;
  bool relaxed = false;    // register may be wider than `type` (ld/st/cvt rule)
  bool negate_ok = false;  // `!p` allowed (predicate sources)
  uint8_t vec = 0;         // Vector: required element count (0 = 2 or 4)
  ir::DataType elem = ir::DataType::None;  // Vector element type
};

// A name bound in a scope.
struct Binding {
  enum class Kind : uint8_t { Reg, Var };
  Kind kind;
  uint32_t index;
};

struct LabelRef {
  std::string name;
  uint32_t block;     // block (scope) id where the reference appears
  uint32_t inst;      // instruction index holding the reference
  int32_t op;         // operand index (>= 0), or -1 - i for Instruction::targets[i]
  uint32_t tok;       // token for diagnostics
};

struct LabelDef {
  uint32_t block;
  uint32_t inst;
  uint32_t tok;
};

struct BranchTargets {
  uint32_t block = 0;
  uint32_t position = 0;  // instruction index at the declaration
  uint32_t tok = 0;
  std::vector<std::string> labels;
  std::vector<uint32_t> toks;
};

struct BrxRef {
  std::string name;
  uint32_t block;
  uint32_t inst;
  uint32_t tok;
};

// A lexical block: module scope, a function's outermost scope, or a nested
// `{ }` inside a body. Registers and variables are bound per block.
struct Scope {
  uint32_t block = 0;  // id in Parser::block_parent_
  std::unordered_map<std::string, Binding> names;
};

// A parameter of a function prototype (before Variables are created).
struct ParamDecl {
  std::string name;
  ir::DataType type = ir::DataType::None;
  uint32_t align = 0;
  uint64_t count = 1;  // array elements (0 for `[]`)
  uint32_t tok = 0;
};

struct Prototype {
  std::string name;
  bool is_entry = false;
  std::vector<ParamDecl> returns;
  std::vector<ParamDecl> params;
  uint32_t tok = 0;
  bool defined = false;
  int32_t function = -1;  // index in Module::functions once defined
};

// A declared-only vprintf (CUDA device printf), which the model defines itself.
bool is_vprintf_declaration(const Prototype& p);

struct CallFixup {
  std::string callee;
  uint32_t function;  // caller index in Module::functions
  uint32_t inst;
  uint32_t tok;
};

class Parser;

// Everything a family decoder needs about the instruction being parsed.
struct InstCtx {
  Parser& p;
  ir::Instruction& inst;
  uint32_t op_tok;                        // token index of the opcode
  std::string_view mnemonic;              // first dotted component ("ld")
  std::vector<std::string_view> comps;    // remaining components ("global", "u32")
  std::vector<RawOperand> raw;            // operands as written
  ModSet mods;

  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_at(const RawOperand& r, const std::string& what) const;

  // Parses all components with the allowed categories (error on unknown or
  // duplicate ones) into `mods`.
  void parse_mods(uint64_t allowed);
  // Requires exactly `n` types (error otherwise) and returns the first.
  ir::DataType need_types(unsigned n);
  // Requires the operand count to be in [lo, hi].
  void need_operands(size_t lo, size_t hi);
  void need_operands(size_t n) { need_operands(n, n); }

  // Converts raw operand `i` for `slot` and appends it to inst.ops.
  void add(size_t i, const Slot& slot);
  // Shorthands.
  void dst(size_t i, ir::DataType t, bool relaxed = false);
  void src(size_t i, ir::DataType t, uint32_t kinds = kSlotReg | kSlotImm | kSlotSpecial,
           bool relaxed = false);
  void pred_src(size_t i, bool negate_ok);  // predicate register source
};

using Decoder = void (*)(InstCtx&);

struct OpcodeEntry {
  ir::Opcode op;
  Decoder decode;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& file, const ExtensionRegistry& ext);
  std::unique_ptr<ir::Module> run();

  // ---- tokens and diagnostics
  const Token& peek(size_t k = 0) const {
    size_t i = pos_ + k;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& tok_at(uint32_t i) const { return toks_[i < toks_.size() ? i : toks_.size() - 1]; }
  uint32_t pos() const { return static_cast<uint32_t>(pos_); }
  const Token& advance() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool accept(char p) {
    if (peek().is(p)) {
      advance();
      return true;
    }
    return false;
  }
  const Token& expect(char p, const char* context);
  const Token& expect_ident(const char* context);
  uint64_t expect_uint(const char* context, uint64_t max);
  [[noreturn]] void fail(const Token& t, const std::string& what) const;
  [[noreturn]] void fail_tok(uint32_t tok, const std::string& what) const { fail(tok_at(tok), what); }

  // ---- module level (parser.cpp)
  void parse_module();
  void parse_version();
  void parse_target();
  void parse_function(bool is_entry, bool visible, bool is_extern, bool weak);
  void parse_params(std::vector<ParamDecl>& out, bool is_entry);
  ParamDecl parse_param_decl(bool is_entry);
  void parse_perf_directives(ir::Function* f);
  void skip_line(uint32_t line);
  void skip_section();
  void finish_module();
  // Gives a called .extern vprintf its built-in definition (builtin_vprintf.cpp).
  void define_vprintf(Prototype& proto);

  // ---- declarations (declarations.cpp)
  void parse_reg_decl();
  // Parses a variable declaration starting at the state-space directive and
  // binds it in the current scope (module scope outside functions).
  void parse_var_decl(bool is_extern, bool visible);
  uint32_t new_variable(ir::Variable v, uint32_t tok);
  void parse_initializer(ir::Variable& v, const std::vector<uint64_t>& dims, uint32_t decl_tok);

  // ---- scopes (body.cpp)
  void push_scope();
  void pop_scope();
  const Binding* lookup(std::string_view name) const;
  void bind(const std::string& name, Binding b, uint32_t tok);
  uint32_t add_register(const std::string& name, ir::DataType t, unsigned vec, uint32_t tok);

  // ---- bodies (body.cpp)
  void parse_body();  // body of fn_
  // parse_body(), keeping an error in the body as the function's rejection
  // (Function::rejected) when the body's braces still match, so that one bad
  // kernel does not take the module's others with it.
  void parse_body_or_reject();
  // Index of the '}' that closes the '{' at token `open`, or SIZE_MAX.
  size_t matching_brace(size_t open) const;
  // After the module: when no kernel is usable (or there is none) and some
  // function was rejected, the first rejection is the module's error.
  void throw_if_nothing_usable() const;
  void parse_statement();
  void parse_label(const Token& name_tok);
  void parse_instruction();
  void add_label_ref(const std::string& name, uint32_t inst, int32_t op, uint32_t tok);
  // Finds the label visible from `block` (innermost first, then any unique
  // label of the function); returns false if none.
  bool find_label(const std::string& name, uint32_t block, uint32_t& inst) const;
  void resolve_function_labels();

  // ---- operands (operands.cpp)
  void parse_raw_operands(std::vector<RawOperand>& out);
  RawOperand parse_raw_operand();
  RawOperand parse_raw_primary();
  ir::Operand convert(const RawOperand& r, const Slot& s);
  void check_reg_type(const RawOperand& r, uint32_t reg, const Slot& s);
  bool is_function_name(std::string_view name) const;

  // ---- instruction table (inst_table.cpp)
  const OpcodeEntry* find_opcode(std::string_view mnemonic) const;
  void decode_extension(InstCtx& c, int ext_id);

  // ---- state
  std::string_view text_;
  const std::string& file_;
  const ExtensionRegistry& ext_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::unique_ptr<ir::Module> mod_;
  std::vector<Scope> scopes_;       // scopes_[0] = module scope
  // Per function being parsed: block tree and label bookkeeping.
  std::vector<uint32_t> block_parent_;   // parent block id (root = 0 = function scope)
  std::unordered_map<std::string, std::vector<LabelDef>> labels_;
  std::unordered_map<std::string, std::vector<BranchTargets>> branch_targets_;
  std::vector<LabelRef> label_refs_;
  std::vector<BrxRef> brx_refs_;
  ir::Function* fn_ = nullptr;      // function whose body is being parsed
  uint32_t fn_index_ = 0;
  std::unordered_map<std::string, Prototype> protos_;
  std::vector<std::string> proto_order_;
  std::vector<CallFixup> call_fixups_;
  bool seen_version_ = false;
  bool seen_target_ = false;
  bool seen_address_size_ = false;
  std::string text_buf_;            // scratch for instruction text
  int operand_depth_ = 0;           // nesting of {..}/(..) operand lists
};

// Family decoders (inst_*.cpp).
void decode_mov(InstCtx& c);
void decode_ld(InstCtx& c);
void decode_ldu(InstCtx& c);
void decode_st(InstCtx& c);
void decode_cvta(InstCtx& c);
void decode_cvt(InstCtx& c);
void decode_prefetch(InstCtx& c);
void decode_isspacep(InstCtx& c);
void decode_atom(InstCtx& c);  // atom and red
void decode_add_sub(InstCtx& c);
void decode_addc_subc(InstCtx& c);
void decode_mul(InstCtx& c);
void decode_mad(InstCtx& c);
void decode_madc(InstCtx& c);
void decode_mul24(InstCtx& c);  // mul24 and mad24
void decode_sad(InstCtx& c);
void decode_div(InstCtx& c);
void decode_rem(InstCtx& c);
void decode_abs_neg(InstCtx& c);
void decode_min_max(InstCtx& c);
void decode_fma(InstCtx& c);
void decode_rcp_sqrt(InstCtx& c);  // rcp, sqrt, rsqrt
void decode_approx_unary(InstCtx& c);  // ex2, lg2, sin, cos, tanh
void decode_copysign(InstCtx& c);
void decode_testp(InstCtx& c);
void decode_bitcount(InstCtx& c);  // popc, clz, bfind, brev
void decode_bfe(InstCtx& c);
void decode_bfi(InstCtx& c);
void decode_prmt(InstCtx& c);
void decode_dp(InstCtx& c);  // dp4a, dp2a
void decode_logic(InstCtx& c);  // and, or, xor
void decode_not(InstCtx& c);    // not, cnot
void decode_lop3(InstCtx& c);
void decode_shift(InstCtx& c);  // shl, shr
void decode_shf(InstCtx& c);
void decode_setp(InstCtx& c);
void decode_set(InstCtx& c);
void decode_selp(InstCtx& c);
void decode_slct(InstCtx& c);
void decode_bra(InstCtx& c);
void decode_brx(InstCtx& c);
void decode_call(InstCtx& c);
void decode_ret_exit(InstCtx& c);
void decode_bar(InstCtx& c);  // bar, barrier
void decode_membar(InstCtx& c);
void decode_fence(InstCtx& c);
void decode_shfl(InstCtx& c);
void decode_vote(InstCtx& c);
void decode_activemask(InstCtx& c);
void decode_nanosleep(InstCtx& c);

}  // namespace simtlm::frontend::ptx
