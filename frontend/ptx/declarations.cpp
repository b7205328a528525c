// Register and variable declarations, including initialisers.
#include <algorithm>

#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

namespace {

constexpr uint64_t kMaxRegsPerDecl = 1u << 20;
constexpr uint64_t kMaxInitBytes = uint64_t{1} << 28;

void write_le(std::vector<uint8_t>& buf, uint64_t offset, uint64_t value, unsigned size) {
  for (unsigned i = 0; i < size; ++i) buf[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

}  // namespace

uint32_t Parser::add_register(const std::string& name, DataType t, unsigned vec, uint32_t tok) {
  Register r;
  r.name = name;
  r.type = t;
  r.vec = vec;
  auto index = static_cast<uint32_t>(fn_->regs.size());
  bind(name, Binding{Binding::Kind::Reg, index}, tok);
  fn_->regs.push_back(std::move(r));
  return index;
}

void Parser::parse_reg_decl() {
  advance();  // .reg
  unsigned vec = 1;
  DataType type = DataType::None;
  while (peek().kind == TokKind::Directive) {
    const Token& t = peek();
    std::string_view d = t.text.substr(1);
    DataType dt;
    if (d == "v2" || d == "v4" || d == "v8") {
      if (vec != 1) fail(t, "duplicate vector size in .reg declaration");
      vec = d == "v2" ? 2 : d == "v4" ? 4 : 8;
    } else if (parse_type(d, dt)) {
      if (type != DataType::None) fail(t, "more than one type in .reg declaration");
      type = dt;
    } else if (d == "align") {
      fail(t, ".align is not allowed on .reg declarations");
    } else {
      fail(t, "unexpected directive in .reg declaration");
    }
    advance();
  }
  if (type == DataType::None) fail(peek(), ".reg declaration has no type");
  if (vec != 1 && type == DataType::Pred) fail(peek(), "vector of predicates is not allowed");
  for (;;) {
    const Token& name = expect_ident("(register name)");
    uint32_t name_tok = pos() - 1;
    if (name.text.find('.') != std::string_view::npos)
      fail(name, "malformed register name");
    if (accept('<')) {
      const Token& nt = peek();
      uint64_t n = expect_uint("as register count", kMaxRegsPerDecl);
      if (n == 0) fail(nt, "register count must be positive");
      expect('>', "after register count");
      std::string base(name.text);
      fn_->regs.reserve(fn_->regs.size() + n);
      for (uint64_t i = 0; i < n; ++i) add_register(base + std::to_string(i), type, vec, name_tok);
    } else {
      add_register(std::string(name.text), type, vec, name_tok);
    }
    if (accept(';')) return;
    expect(',', "or ';' in .reg declaration");
  }
}

uint32_t Parser::new_variable(Variable v, uint32_t tok) {
  auto index = static_cast<uint32_t>(mod_->vars.size());
  std::string name = v.name;
  bind(name, Binding{Binding::Kind::Var, index}, tok);
  mod_->vars.push_back(std::move(v));
  return index;
}

void Parser::parse_var_decl(bool is_extern, bool visible) {
  const Token& sp_tok = advance();
  std::string_view sp = sp_tok.text.substr(1);
  StateSpace space = sp == "global"   ? StateSpace::Global
                     : sp == "const"  ? StateSpace::Const
                     : sp == "shared" ? StateSpace::Shared
                     : sp == "local"  ? StateSpace::Local
                                      : StateSpace::Param;
  uint32_t align = 0;
  unsigned vec = 1;
  DataType type = DataType::None;
  while (peek().kind == TokKind::Directive) {
    const Token& t = peek();
    std::string_view d = t.text.substr(1);
    DataType dt;
    if (d == "align") {
      advance();
      const Token& v = peek();
      uint64_t a = expect_uint("after .align", 1u << 20);
      if (a == 0 || (a & (a - 1))) fail(v, ".align must be a power of two");
      if (align) fail(v, "duplicate .align");
      align = static_cast<uint32_t>(a);
      continue;
    }
    if (d == "v2" || d == "v4") {
      if (vec != 1) fail(t, "duplicate vector size");
      vec = d == "v2" ? 2 : 4;
    } else if (parse_type(d, dt)) {
      if (type != DataType::None) fail(t, "more than one type in variable declaration");
      type = dt;
    } else if (d == "attribute") {
      advance();
      expect('(', "after .attribute");
      while (!peek().is(')')) {
        if (peek().kind != TokKind::Directive && !peek().is(','))
          fail(peek(), "malformed .attribute");
        advance();
      }
      advance();
      continue;
    } else if (d == "ptr") {
      fail(t, ".ptr is only allowed on kernel parameters");
    } else {
      fail(t, "unexpected directive in variable declaration");
    }
    advance();
  }
  if (type == DataType::None) fail(peek(), "variable declaration has no type");
  if (type == DataType::Pred) fail(peek(), ".pred variables are not allowed in memory");
  for (;;) {
    const Token& name = expect_ident("(variable name)");
    uint32_t name_tok = pos() - 1;
    if (name.text.find('.') != std::string_view::npos || name.text == "_")
      fail(name, "malformed variable name");
    if (!fn_ && protos_.count(std::string(name.text)))
      fail(name, "'" + std::string(name.text) + "' is already a function");
    Variable v;
    v.name = std::string(name.text);
    v.space = space;
    v.type = type;
    v.align = align;
    v.is_extern = is_extern;
    v.is_visible = visible;
    v.loc = SourceLoc{name.line, name.column};
    std::vector<uint64_t> dims;  // 0 = unsized `[]`
    while (accept('[')) {
      if (accept(']')) {
        if (!dims.empty()) fail(tok_at(pos() - 1), "only the first array dimension may be empty");
        dims.push_back(0);
        continue;
      }
      if (dims.size() >= 8) fail(peek(), "too many array dimensions");
      uint64_t n = expect_uint("as array size", uint64_t{1} << 40);
      if (n == 0) fail(tok_at(pos() - 1), "array size must be positive");
      dims.push_back(n);
      expect(']', "after array size");
    }
    uint64_t elems = vec;
    for (uint64_t d : dims) {
      elems *= d;
      if (elems > (uint64_t{1} << 40)) fail(name, "variable too large");
    }
    v.size = elems * type_size(type);
    if (accept('=')) {
      if (space != StateSpace::Global && space != StateSpace::Const)
        fail(tok_at(pos() - 1), "initialisers are only allowed on .global and .const variables");
      if (is_extern) fail(tok_at(pos() - 1), "an .extern variable cannot have an initialiser");
      std::vector<uint64_t> init_dims = dims;
      if (vec > 1) init_dims.push_back(vec);
      parse_initializer(v, init_dims, name_tok);
    } else if (!dims.empty() && dims[0] == 0 && !is_extern) {
      fail(name, "array of unknown size needs .extern or an initialiser");
    }
    uint32_t index = new_variable(std::move(v), name_tok);
    if (fn_) fn_->locals.push_back(index);
    if (accept(';')) return;
    expect(',', "or ';' in variable declaration");
  }
}

void Parser::parse_initializer(Variable& v, const std::vector<uint64_t>& dims, uint32_t decl_tok) {
  // `dims` lists the array dimensions (first may be 0 = sized by the
  // initialiser) plus, for vector types, the vector width as innermost one.
  const unsigned esize = type_size(v.type);
  const bool unsized = !dims.empty() && dims[0] == 0;
  const uint64_t known_elems = unsized ? 0 : v.size / esize;
  if (!unsized && v.size > kMaxInitBytes) fail_tok(decl_tok, "initialised variable too large");
  if (!unsized) v.init.assign(v.size, 0);

  // strides[level] = scalars covered by one item of the list at `level`.
  std::vector<uint64_t> strides;
  for (size_t i = 0; i < dims.size(); ++i) {
    uint64_t s = 1;
    for (size_t j = i + 1; j < dims.size(); ++j) s *= dims[j];
    strides.push_back(s);
  }

  uint64_t max_written = 0;
  auto write_scalar = [&](uint64_t elem) {
    const Token& t = peek();
    uint32_t t_index = pos();
    uint64_t off = elem * esize;
    if (unsized) {
      if (off + esize > kMaxInitBytes) fail(t, "initialiser too large");
      if (v.init.size() < off + esize) v.init.resize(off + esize, 0);
    } else if (off + esize > v.init.size()) {
      fail(t, "too many initialisers for '" + v.name + "'");
    }
    max_written = std::max(max_written, elem + 1);
    // generic(var)[+off] / var[+off]
    if (t.kind == TokKind::Ident) {
      bool generic = t.text == "generic";
      std::string_view target;
      if (generic) {
        advance();
        expect('(', "after generic");
        target = expect_ident("(variable name in generic())").text;
        expect(')', "after generic(variable");
      } else {
        target = t.text;
        advance();
      }
      int64_t addend = 0;
      if (peek().is('+') || peek().is('-')) {
        bool neg = advance().is('-');
        uint64_t n = expect_uint("as address offset", uint64_t{1} << 40);
        addend = neg ? -static_cast<int64_t>(n) : static_cast<int64_t>(n);
      }
      const Binding* b = lookup(target);
      if (!b || b->kind != Binding::Kind::Var) {
        if (protos_.count(std::string(target)))
          fail_tok(t_index, "function addresses in initialisers are not supported (indirect "
                            "calls are not supported)");
        fail_tok(t_index, "undefined variable '" + std::string(target) + "' in initialiser");
      }
      unsigned ptr_size = mod_->address_size / 8;
      if (esize != ptr_size && !(esize == 8 && ptr_size == 4))
        fail_tok(t_index, "an address initialiser needs a " + std::to_string(ptr_size * 8) +
                              "-bit element type");
      v.address_inits.emplace_back(off, b->index);
      write_le(v.init, off, static_cast<uint64_t>(addend), esize);
      return;
    }
    if (t.kind == TokKind::Int && (peek(1).is('('))) fail(t, "masked initialisers are not supported");
    bool neg = false;
    if (peek().is('-')) {
      neg = true;
      advance();
    }
    const Token& nt = peek();
    if (nt.kind != TokKind::Int && nt.kind != TokKind::Float)
      fail(nt, "expected a constant in initialiser");
    Literal lit;
    std::string err;
    if (!parse_literal(nt.text, nt.kind == TokKind::Float, lit, err)) fail(nt, err);
    lit.negative = neg;
    uint64_t bits = 0;
    if (!literal_to_bits(lit, v.type, bits, err)) fail(nt, err);
    advance();
    write_le(v.init, off, bits, esize);
  };

  // Recursive list parser with brace elision (C-style).
  auto parse_list = [&](auto& self, size_t level, uint64_t base, uint64_t limit) -> uint64_t {
    const Token& open = expect('{', "to open the initialiser list");
    uint64_t cursor = base;
    if (peek().is('}')) fail(peek(), "empty initialiser list");
    for (;;) {
      if (peek().is('{')) {
        if (level + 1 >= strides.size()) fail(peek(), "too many braces in initialiser");
        uint64_t s = strides[level];
        uint64_t rel = cursor - base;
        if (rel % s) cursor = base + (rel / s + 1) * s;
        if (limit && cursor + s > base + limit) fail(peek(), "too many initialisers");
        self(self, level + 1, cursor, s);
        cursor += s;
      } else {
        if (limit && cursor >= base + limit) fail(peek(), "too many initialisers");
        write_scalar(cursor);
        ++cursor;
      }
      if (accept('}')) break;
      if (peek().kind == TokKind::End) fail(open, "unterminated initialiser list");
      expect(',', "or '}' in initialiser list");
    }
    return cursor;
  };

  if (peek().is('{')) {
    uint64_t limit = unsized ? 0 : known_elems;
    if (dims.empty() && known_elems <= 1) fail(peek(), "brace initialiser for a scalar variable");
    parse_list(parse_list, 0, 0, limit);
    if (unsized) {
      uint64_t item = strides.empty() ? 1 : strides[0];
      uint64_t items = (max_written + item - 1) / item;
      v.size = items * item * esize;
      v.init.resize(v.size, 0);
    }
  } else {
    if (!dims.empty()) fail(peek(), "array initialiser must be a brace list");
    write_scalar(0);
  }
}

}  // namespace simtlm::frontend::ptx
