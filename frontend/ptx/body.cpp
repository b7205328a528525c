// Function bodies: lexical blocks, labels, statements, instruction framing
// (guard, opcode, operands, text) and label resolution at the end.
#include "frontend/ptx/parser_impl.h"

namespace simtlm::frontend::ptx {

using namespace ir;

// ---------------------------------------------------------------- scopes

void Parser::push_scope() {
  Scope s;
  s.block = static_cast<uint32_t>(block_parent_.size());
  block_parent_.push_back(scopes_.back().block);
  scopes_.push_back(std::move(s));
}

void Parser::pop_scope() { scopes_.pop_back(); }

const Binding* Parser::lookup(std::string_view name) const {
  std::string key(name);
  for (size_t i = scopes_.size(); i-- > 0;) {
    auto it = scopes_[i].names.find(key);
    if (it != scopes_[i].names.end()) return &it->second;
  }
  return nullptr;
}

void Parser::bind(const std::string& name, Binding b, uint32_t tok) {
  auto& names = scopes_.back().names;
  if (!names.emplace(name, b).second)
    fail_tok(tok, "duplicate declaration of '" + name + "' in the same scope");
}

// ---------------------------------------------------------------- bodies

void Parser::parse_body() {
  const Token& open = expect('{', "to open the function body");
  int depth = 0;
  for (;;) {
    const Token& t = peek();
    if (t.kind == TokKind::End)
      fail(open, "unexpected end of file in the body of '" + fn_->name + "' (missing '}')");
    if (t.is('}')) {
      advance();
      if (depth == 0) break;
      pop_scope();
      --depth;
      continue;
    }
    if (t.is('{')) {
      advance();
      push_scope();
      ++depth;
      continue;
    }
    parse_statement();
  }
  resolve_function_labels();
}

void Parser::parse_statement() {
  const Token& t = peek();
  if (t.kind == TokKind::Directive) {
    std::string_view d = t.text.substr(1);
    if (d == "reg") {
      parse_reg_decl();
    } else if (d == "local" || d == "shared" || d == "param" || d == "const" || d == "global") {
      parse_var_decl(false, false);
    } else if (d == "pragma") {
      advance();
      while (peek().kind == TokKind::String || peek().is(',')) advance();
      expect(';', "after .pragma");
    } else if (d == "loc" || d == "file") {
      skip_line(t.line);
    } else if (d == "maxntid" || d == "reqntid" || d == "minnctapersm" || d == "maxnreg") {
      fail(t, "performance directive inside a function body");
    } else if (d == "visible" || d == "extern" || d == "weak" || d == "entry" || d == "func") {
      fail(t, "declaration not allowed inside a function body");
    } else {
      fail(t, "unknown or misplaced directive in function body");
    }
    return;
  }
  if (t.kind == TokKind::Ident && peek(1).is(':')) {
    parse_label(t);
    return;
  }
  if (t.kind == TokKind::Ident || t.is('@')) {
    parse_instruction();
    return;
  }
  if (t.is(';')) {  // empty statement
    advance();
    return;
  }
  fail(t, "expected an instruction, a label or a declaration");
}

void Parser::parse_label(const Token& name_tok) {
  uint32_t tok = pos();
  advance();  // name
  advance();  // ':'
  std::string name(name_tok.text);
  if (name.find('.') != std::string::npos || name[0] == '%') fail(name_tok, "malformed label name");
  const Token& next = peek();
  uint32_t block = scopes_.back().block;
  if (next.is_directive("branchtargets")) {
    advance();
    BranchTargets bt;
    bt.block = block;
    bt.position = static_cast<uint32_t>(fn_->insts.size());
    bt.tok = tok;
    for (;;) {
      const Token& l = expect_ident("(label in .branchtargets)");
      bt.labels.emplace_back(l.text);
      bt.toks.push_back(pos() - 1);
      if (accept(';')) break;
      expect(',', "or ';' in .branchtargets");
    }
    auto& lists = branch_targets_[name];
    for (const auto& other : lists)
      if (other.block == block) fail(name_tok, "duplicate .branchtargets name '" + name + "'");
    lists.push_back(std::move(bt));
    return;
  }
  if (next.is_directive("calltargets") || next.is_directive("callprototype")) {
    // Only meaningful for indirect calls, which are rejected at the call.
    advance();
    while (!peek().is(';')) {
      if (peek().kind == TokKind::End) fail(next, "unterminated " + std::string(next.text));
      advance();
    }
    advance();
    return;
  }
  auto& defs = labels_[name];
  for (const auto& d : defs)
    if (d.block == block) fail(name_tok, "duplicate label '" + name + "'");
  auto inst = static_cast<uint32_t>(fn_->insts.size());
  defs.push_back(LabelDef{block, inst, tok});
  fn_->labels.emplace(name, inst);
}

void Parser::add_label_ref(const std::string& name, uint32_t inst, int32_t op, uint32_t tok) {
  label_refs_.push_back(LabelRef{name, scopes_.back().block, inst, op, tok});
}

bool Parser::find_label(const std::string& name, uint32_t block, uint32_t& inst) const {
  auto it = labels_.find(name);
  if (it == labels_.end()) return false;
  uint32_t b = block;
  for (;;) {
    for (const auto& d : it->second) {
      if (d.block == b) {
        inst = d.inst;
        return true;
      }
    }
    if (b == 0) break;
    b = block_parent_[b];
  }
  if (it->second.size() == 1) {  // a unique label elsewhere in the function
    inst = it->second[0].inst;
    return true;
  }
  return false;
}

void Parser::resolve_function_labels() {
  const auto n_insts = static_cast<uint32_t>(fn_->insts.size());
  for (const BrxRef& ref : brx_refs_) {
    auto it = branch_targets_.find(ref.name);
    const BranchTargets* bt = nullptr;
    if (it != branch_targets_.end()) {
      uint32_t b = ref.block;
      for (;;) {
        for (const auto& cand : it->second)
          if (cand.block == b) bt = &cand;
        if (bt || b == 0) break;
        b = block_parent_[b];
      }
      if (!bt && it->second.size() == 1) bt = &it->second[0];
    }
    if (!bt) fail_tok(ref.tok, "undefined .branchtargets list '" + ref.name + "'");
    Instruction& inst = fn_->insts[ref.inst];
    inst.ops[1].target = bt->position;
    inst.targets.assign(bt->labels.size(), 0);
    for (size_t i = 0; i < bt->labels.size(); ++i) {
      label_refs_.push_back(LabelRef{bt->labels[i], bt->block, ref.inst,
                                     -1 - static_cast<int32_t>(i), bt->toks[i]});
    }
  }
  for (const LabelRef& ref : label_refs_) {
    uint32_t target = 0;
    if (!find_label(ref.name, ref.block, target))
      fail_tok(ref.tok, "undefined label '" + ref.name + "'");
    if (target >= n_insts)
      fail_tok(ref.tok, "branch to label '" + ref.name + "' which is not followed by an instruction");
    Instruction& inst = fn_->insts[ref.inst];
    if (ref.op >= 0)
      inst.ops[static_cast<size_t>(ref.op)].target = target;
    else
      inst.targets[static_cast<size_t>(-1 - ref.op)] = target;
  }
}

// ---------------------------------------------------------------- instructions

namespace {

// Source text of an instruction with comments removed and whitespace runs
// collapsed to single spaces.
void normalize_text(std::string_view src, std::string& out) {
  out.clear();
  bool space = false;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i < src.size() && src[i] != '\n') ++i;
      space = true;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      i += 2;
      while (i + 1 < src.size() && !(src[i] == '*' && src[i + 1] == '/')) ++i;
      ++i;
      space = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
}

}  // namespace

void Parser::parse_instruction() {
  const uint32_t start_tok = pos();
  Instruction inst;
  if (accept('@')) {
    inst.has_guard = true;
    inst.guard_negated = accept('!');
    const Token& g = expect_ident("(guard predicate after '@')");
    const Binding* b = lookup(g.text);
    if (!b || b->kind != Binding::Kind::Reg)
      fail(g, "undefined guard predicate '" + std::string(g.text) + "'");
    if (fn_->regs[b->index].type != DataType::Pred) fail(g, "guard is not a .pred register");
    inst.guard_reg = b->index;
  }
  const Token& op = peek();
  if (op.kind != TokKind::Ident) fail(op, "expected an instruction after the guard");
  const uint32_t op_tok = pos();
  advance();
  inst.loc = SourceLoc{op.line, op.column};

  InstCtx c{*this, inst, op_tok, {}, {}, {}, {}};
  // Split the opcode at dots.
  std::vector<std::string_view> all;
  {
    std::string_view s = op.text;
    size_t start = 0;
    for (;;) {
      size_t dot = s.find('.', start);
      all.push_back(s.substr(start, dot == std::string_view::npos ? s.npos : dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
  }
  // Identify the instruction before its operands, so that unsupported
  // instructions with unusual operand syntax are reported as such.
  size_t consumed = 0;
  int ext_id = ext_.match(all, consumed);
  const OpcodeEntry* e = ext_id >= 0 ? nullptr : find_opcode(all[0]);
  if (ext_id < 0 && !e) fail(op, "unknown instruction '" + std::string(all[0]) + "'");
  parse_raw_operands(c.raw);
  const Token& semi = peek();
  if (!semi.is(';')) fail(semi, "expected ';' at the end of the instruction");
  advance();

  c.mnemonic = all[0];
  if (ext_id >= 0) {
    c.comps.assign(all.begin() + static_cast<std::ptrdiff_t>(consumed), all.end());
    inst.op = Opcode::Extension;
    inst.ext_id = static_cast<uint16_t>(ext_id);
    decode_extension(c, ext_id);
  } else {
    c.comps.assign(all.begin() + 1, all.end());
    inst.op = e->op;
    e->decode(c);
  }
  const Token& first = tok_at(start_tok);
  normalize_text(text_.substr(first.offset, semi.offset - first.offset), text_buf_);
  inst.text = text_buf_;
  fn_->insts.push_back(std::move(inst));
}

}  // namespace simtlm::frontend::ptx
