// Operand syntax (raw operands) and their resolution into ir::Operand with
// the type rules of the PTX ISA (operand type checking, §"Operand Type
// Information"): bit-size positions accept any register of the same size,
// integer positions any integer/bit register of the same size, float
// positions a float register of that type or a bit register of the same size;
// ld/st/cvt additionally accept wider integer/bit registers.
#include <cstring>

#include "frontend/ptx/parser_impl.h"
#include "frontend/ptx/special_regs.h"

namespace simtlm::frontend::ptx {

using namespace ir;

// ---------------------------------------------------------------- raw syntax

void Parser::parse_raw_operands(std::vector<RawOperand>& out) {
  if (peek().is(';')) return;
  for (;;) {
    out.push_back(parse_raw_operand());
    if (!accept(',')) return;
  }
}

RawOperand Parser::parse_raw_operand() {
  RawOperand r = parse_raw_primary();
  if (peek().is('|')) {
    RawOperand pair;
    pair.kind = RawOperand::Kind::Pair;
    pair.tok = r.tok;
    advance();
    pair.elems.push_back(std::move(r));
    pair.elems.push_back(parse_raw_primary());
    return pair;
  }
  return r;
}

namespace {

int64_t offset_value(Parser& p, bool negative) {
  const Token& t = p.peek();
  if (t.kind != TokKind::Int) p.fail(t, "expected an integer offset");
  Literal lit;
  std::string err;
  if (!parse_literal(t.text, false, lit, err)) p.fail(t, err);
  if (lit.bits > (uint64_t{1} << 62)) p.fail(t, "offset out of range");
  p.advance();
  auto v = static_cast<int64_t>(lit.bits);
  return negative ? -v : v;
}

// Parses an optional `+imm`, `+-imm` or `-imm` suffix.
bool parse_offset_suffix(Parser& p, int64_t& out) {
  if (p.peek().is('+')) {
    p.advance();
    bool neg = p.accept('-');
    out = offset_value(p, neg);
    return true;
  }
  if (p.peek().is('-') && p.peek(1).kind == TokKind::Int) {
    p.advance();
    out = offset_value(p, true);
    return true;
  }
  return false;
}

}  // namespace

RawOperand Parser::parse_raw_primary() {
  RawOperand r;
  r.tok = pos();
  if (accept('!')) r.negate = true;
  const Token& t = peek();
  if (t.is('-') || t.kind == TokKind::Int || t.kind == TokKind::Float) {
    bool neg = false;
    if (t.is('-')) {
      neg = true;
      advance();
    }
    const Token& n = peek();
    if (n.kind != TokKind::Int && n.kind != TokKind::Float) fail(n, "expected a number after '-'");
    std::string err;
    if (!parse_literal(n.text, n.kind == TokKind::Float, r.lit, err)) fail(n, err);
    r.lit.negative = neg;
    r.kind = RawOperand::Kind::Number;
    advance();
    if (r.negate) fail_tok(r.tok, "'!' applies only to predicate registers");
    return r;
  }
  if (t.kind == TokKind::Ident) {
    advance();
    if (t.text == "_") {
      r.kind = RawOperand::Kind::Sink;
      if (r.negate) fail_tok(r.tok, "'!' applied to '_'");
      return r;
    }
    r.kind = RawOperand::Kind::Name;
    r.name = t.text;
    if (!r.negate && parse_offset_suffix(*this, r.offset)) r.has_offset = true;
    return r;
  }
  if (r.negate) fail(t, "expected a predicate register after '!'");
  if (t.is('[')) {
    advance();
    r.kind = RawOperand::Kind::Address;
    const Token& b = peek();
    if (b.kind == TokKind::Ident) {
      r.name = b.text;
      advance();
      if (parse_offset_suffix(*this, r.offset)) r.has_offset = true;
    } else if (b.kind == TokKind::Int || b.is('-')) {
      bool neg = accept('-');
      r.offset = offset_value(*this, neg);
      r.has_offset = true;
      int64_t extra = 0;
      if (parse_offset_suffix(*this, extra)) r.offset += extra;
    } else {
      fail(b, "expected a register, variable or constant address inside '[ ]'");
    }
    expect(']', "to close the address");
    return r;
  }
  if (t.is('{') || t.is('(')) {
    const char close = t.is('{') ? '}' : ')';
    if (operand_depth_ >= 1) fail(t, "nested operand lists are not allowed");
    struct DepthGuard {
      int& d;
      explicit DepthGuard(int& depth) : d(depth) { ++d; }
      ~DepthGuard() { --d; }
    } guard(operand_depth_);
    r.kind = t.is('{') ? RawOperand::Kind::Vector : RawOperand::Kind::Paren;
    const Token& open = advance();
    if (accept(close)) {
      if (r.kind == RawOperand::Kind::Vector) fail(open, "empty vector operand");
      return r;
    }
    for (;;) {
      if (peek().kind == TokKind::End) fail(open, "unterminated operand list");
      if (r.kind == RawOperand::Kind::Vector) {
        RawOperand e = parse_raw_primary();
        if (e.kind != RawOperand::Kind::Name && e.kind != RawOperand::Kind::Number &&
            e.kind != RawOperand::Kind::Sink)
          fail_tok(e.tok, "vector elements must be registers, constants or '_'");
        r.elems.push_back(std::move(e));
      } else {
        RawOperand e = parse_raw_primary();
        if (e.kind != RawOperand::Kind::Name && e.kind != RawOperand::Kind::Number)
          fail_tok(e.tok, "call operands must be names, registers or constants");
        r.elems.push_back(std::move(e));
      }
      if (accept(close)) break;
      if (!peek().is(',')) fail(peek(), std::string("expected ',' or '") + close + "'");
      advance();
    }
    return r;
  }
  fail(t, "expected an operand");
}

// ---------------------------------------------------------------- resolution

bool Parser::is_function_name(std::string_view name) const {
  return protos_.count(std::string(name)) != 0;
}

namespace {

bool int_like(DataType t) { return is_signed(t) || is_unsigned(t) || is_bits(t); }

bool float_family_match(DataType reg, DataType want) {
  if (reg == want) return true;
  bool r16 = reg == DataType::F16 || reg == DataType::BF16;
  bool w16 = want == DataType::F16 || want == DataType::BF16;
  bool r32 = reg == DataType::F16x2 || reg == DataType::BF16x2;
  bool w32 = want == DataType::F16x2 || want == DataType::BF16x2;
  return (r16 && w16) || (r32 && w32);
}

}  // namespace

void Parser::check_reg_type(const RawOperand& r, uint32_t reg, const Slot& s) {
  const Register& R = fn_->regs[reg];
  if (R.vec > 1)
    fail_tok(r.tok, "vector register '" + R.name + "' used as an operand (not supported)");
  const DataType want = s.type;
  if (want == DataType::None) return;
  const DataType have = R.type;
  auto mismatch = [&]() {
    fail_tok(r.tok, "register '" + R.name + "' of type ." + std::string(type_name(have)) +
                        " does not match operand type ." + std::string(type_name(want)));
  };
  if (want == DataType::Pred || have == DataType::Pred) {
    if (want != have) mismatch();
    return;
  }
  const unsigned hs = type_size(have), ws = type_size(want);
  const bool size_ok = hs == ws || (s.relaxed && hs > ws && !is_float(have));
  if (is_float(want)) {
    if (is_float(have)) {
      if (!float_family_match(have, want)) mismatch();
    } else if (is_bits(have)) {
      if (!size_ok) mismatch();
    } else {
      mismatch();
    }
    return;
  }
  if (is_signed(want) || is_unsigned(want)) {
    if (!int_like(have) || !size_ok) mismatch();
    return;
  }
  // bit-size position: any type of the same size (wider int/bit if relaxed)
  if (!size_ok) mismatch();
}

Operand Parser::convert(const RawOperand& r, const Slot& s) {
  Operand o;
  switch (r.kind) {
    case RawOperand::Kind::Name: {
      const Binding* b = lookup(r.name);
      if (b && b->kind == Binding::Kind::Reg) {
        if (!(s.kinds & kSlotReg)) fail_tok(r.tok, "a register is not allowed here");
        if (r.has_offset) fail_tok(r.tok, "register operands cannot take an offset");
        check_reg_type(r, b->index, s);
        if (r.negate) {
          if (!s.negate_ok || fn_->regs[b->index].type != DataType::Pred)
            fail_tok(r.tok, "'!' is not allowed on this operand");
          o.negate = true;
        }
        o.kind = OperandKind::Reg;
        o.reg = b->index;
        return o;
      }
      if (r.negate) fail_tok(r.tok, "'!' applies only to predicate registers");
      if (b && b->kind == Binding::Kind::Var) {
        if (!(s.kinds & kSlotSymbol))
          fail_tok(r.tok, "variable '" + std::string(r.name) + "' cannot be used as a value here");
        unsigned bits = type_size(s.type) * 8;
        if (s.type != DataType::None && bits != 32 && bits != 64)
          fail_tok(r.tok, "a variable address needs a 32- or 64-bit operand");
        o.kind = OperandKind::Symbol;
        o.var = b->index;
        o.offset = r.offset;
        return o;
      }
      SpecialReg sr;
      uint8_t comp = 0;
      unsigned sbits = 0;
      if (!r.name.empty() && (r.name[0] == '%' || r.name == "WARP_SZ")) {
        SpecialLookup res = lookup_special_register(r.name, sr, comp, sbits);
        if (res == SpecialLookup::Unsupported)
          fail_tok(r.tok, "unsupported special register '" + std::string(r.name) + "'");
        if (res == SpecialLookup::BadComponent)
          fail_tok(r.tok, "special register '" + std::string(r.name) + "' needs a .x/.y/.z component");
        if (res == SpecialLookup::Found) {
          if (s.dst) fail_tok(r.tok, "special registers are read-only");
          if (!(s.kinds & kSlotSpecial)) fail_tok(r.tok, "a special register is not allowed here");
          if (r.has_offset) fail_tok(r.tok, "special registers cannot take an offset");
          if (s.type != DataType::None) {
            unsigned want = type_size(s.type) * 8;
            bool ok = want == sbits || (sbits == 32 && want == 64 && s.relaxed) ||
                      (sbits == 32 && want == 16);
            if (!ok || is_float(s.type) || s.type == DataType::Pred)
              fail_tok(r.tok, "special register '" + std::string(r.name) + "' is " +
                                  std::to_string(sbits) + "-bit, operand is ." +
                                  std::string(type_name(s.type)));
          }
          o.kind = OperandKind::Special;
          o.sreg = sr;
          o.component = comp;
          return o;
        }
      }
      if (is_function_name(r.name))
        fail_tok(r.tok, "function addresses are not supported (indirect calls are not supported)");
      fail_tok(r.tok, "undefined identifier '" + std::string(r.name) + "'");
    }
    case RawOperand::Kind::Number: {
      if (!(s.kinds & kSlotImm)) {
        if (s.dst) fail_tok(r.tok, "a constant cannot be a destination");
        fail_tok(r.tok, "a constant is not allowed here");
      }
      std::string err;
      if (!literal_to_bits(r.lit, s.type, o.imm, err)) fail_tok(r.tok, err);
      o.kind = OperandKind::Imm;
      return o;
    }
    case RawOperand::Kind::Address: {
      if (!(s.kinds & kSlotAddress)) fail_tok(r.tok, "a memory operand '[...]' is not allowed here");
      o.kind = OperandKind::Address;
      o.offset = r.offset;
      if (r.name.empty()) {
        o.base = OperandKind::None;
        return o;
      }
      const Binding* b = lookup(r.name);
      if (!b) {
        if (is_function_name(r.name)) fail_tok(r.tok, "a function cannot be used as an address");
        fail_tok(r.tok, "undefined identifier '" + std::string(r.name) + "' in address");
      }
      if (b->kind == Binding::Kind::Reg) {
        const Register& R = fn_->regs[b->index];
        unsigned sz = type_size(R.type);
        if (R.vec > 1 || !int_like(R.type) || (sz != 4 && sz != 8))
          fail_tok(r.tok, "address register '" + R.name + "' must be a 32- or 64-bit integer");
        o.base = OperandKind::Reg;
        o.reg = b->index;
      } else {
        o.base = OperandKind::Symbol;
        o.var = b->index;
      }
      return o;
    }
    case RawOperand::Kind::Vector: {
      if (!(s.kinds & kSlotVector)) fail_tok(r.tok, "a vector operand '{...}' is not allowed here");
      size_t n = r.elems.size();
      if (s.vec ? n != s.vec : (n != 2 && n != 4))
        fail_tok(r.tok, "vector operand has " + std::to_string(n) + " elements, expected " +
                            (s.vec ? std::to_string(s.vec) : std::string("2 or 4")));
      o.kind = OperandKind::Vector;
      Slot es;
      es.type = s.elem;
      es.dst = s.dst;
      es.relaxed = s.relaxed;
      es.kinds = s.dst ? kSlotReg : (kSlotReg | kSlotImm);
      for (const RawOperand& e : r.elems) {
        if (e.kind == RawOperand::Kind::Sink) {
          if (!s.dst) fail_tok(e.tok, "'_' is only allowed in destination vectors");
          Operand sink;
          sink.kind = OperandKind::Sink;
          o.elems.push_back(sink);
          continue;
        }
        o.elems.push_back(convert(e, es));
      }
      return o;
    }
    case RawOperand::Kind::Sink:
      fail_tok(r.tok, "'_' is only allowed inside a destination vector");
    case RawOperand::Kind::Paren:
      fail_tok(r.tok, "a parenthesised list is only allowed in call");
    case RawOperand::Kind::Pair:
      fail_tok(r.tok, "a dual destination 'a|b' is not allowed here");
  }
  fail_tok(r.tok, "malformed operand");
}

// ---------------------------------------------------------------- InstCtx

void InstCtx::fail(const std::string& what) const { p.fail_tok(op_tok, what); }

void InstCtx::fail_at(const RawOperand& r, const std::string& what) const {
  p.fail_tok(r.tok, what);
}

void InstCtx::parse_mods(uint64_t allowed) {
  for (std::string_view comp : comps) {
    ModResult r = apply_modifier(comp, allowed, mods);
    if (r == ModResult::Unknown)
      fail("unknown or unsupported modifier '." + std::string(comp) + "' for " +
           std::string(mnemonic));
    if (r == ModResult::Duplicate)
      fail("duplicate or conflicting modifier '." + std::string(comp) + "'");
  }
}

DataType InstCtx::need_types(unsigned n) {
  if (mods.ntypes != n) {
    if (mods.ntypes == 0) fail("missing type modifier");
    fail(n == 1 ? "expected exactly one type modifier"
                : "expected exactly " + std::to_string(n) + " type modifiers");
  }
  return mods.types[0];
}

void InstCtx::need_operands(size_t lo, size_t hi) {
  size_t n = raw.size();
  if (n < lo || n > hi) {
    std::string expect = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    fail(std::string(mnemonic) + " expects " + expect + " operands, got " + std::to_string(n));
  }
}

void InstCtx::add(size_t i, const Slot& slot) { inst.ops.push_back(p.convert(raw.at(i), slot)); }

void InstCtx::dst(size_t i, DataType t, bool relaxed) {
  Slot s;
  s.kinds = kSlotReg;
  s.type = t;
  s.dst = true;
  s.relaxed = relaxed;
  add(i, s);
}

void InstCtx::src(size_t i, DataType t, uint32_t kinds, bool relaxed) {
  Slot s;
  s.kinds = kinds;
  s.type = t;
  s.relaxed = relaxed;
  add(i, s);
}

void InstCtx::pred_src(size_t i, bool negate_ok) {
  Slot s;
  s.kinds = kSlotReg | kSlotImm;
  s.type = DataType::Pred;
  s.negate_ok = negate_ok;
  add(i, s);
}

}  // namespace simtlm::frontend::ptx
