// Module level of the PTX parser: header directives, linkage, function
// signatures and performance directives, debug sections, and the final
// resolution of calls.
#include "frontend/ptx/parser.h"

#include "frontend/ir/reject.h"
#include "frontend/ptx/diagnostics.h"
#include "frontend/ptx/parser_impl.h"
#include "simtlm/error.h"

namespace simtlm::frontend {

std::unique_ptr<ir::Module> parse_ptx(const std::string& text, const std::string& filename) {
  return parse_ptx(text, filename, ptx::ExtensionRegistry::global());
}

std::unique_ptr<ir::Module> parse_ptx(const std::string& text, const std::string& filename,
                                      const ptx::ExtensionRegistry& extensions) {
  ptx::Parser parser(text, filename, extensions);
  return parser.run();
}

}  // namespace simtlm::frontend

namespace simtlm::frontend::ptx {

using namespace ir;

Parser::Parser(std::string_view text, const std::string& file, const ExtensionRegistry& ext)
    : text_(text), file_(file), ext_(ext) {}

std::unique_ptr<Module> Parser::run() {
  toks_ = tokenize(text_, file_);
  mod_ = std::make_unique<Module>();
  mod_->file = file_;
  scopes_.clear();
  scopes_.emplace_back();  // module scope
  parse_module();
  finish_module();
  throw_if_nothing_usable();
  return std::move(mod_);
}

size_t Parser::matching_brace(size_t open) const {
  int depth = 0;
  for (size_t i = open; i < toks_.size() && toks_[i].kind != TokKind::End; ++i) {
    if (toks_[i].is('{')) ++depth;
    if (toks_[i].is('}') && --depth == 0) return i;
  }
  return SIZE_MAX;
}

void Parser::parse_body_or_reject() {
  const size_t open = pos_;
  const size_t scopes = scopes_.size();
  const size_t fixups = call_fixups_.size();
  try {
    parse_body();
  } catch (const Error& e) {
    const size_t close = matching_brace(open);
    if (e.kind() != ErrorKind::Ptx || close == SIZE_MAX) throw;  // cannot tell where the body ends
    scopes_.resize(scopes);
    call_fixups_.resize(fixups);
    fn_->locals.clear();  // partly declared
    reject_function(*fn_, e.what());
    pos_ = close + 1;
  }
}

void Parser::throw_if_nothing_usable() const {
  const Function* first_rejected = nullptr;
  for (const Function& f : mod_->functions) {
    if (f.is_entry && f.rejected.empty()) return;  // a usable kernel
    if (!f.rejected.empty() && !first_rejected) first_rejected = &f;
  }
  if (first_rejected) throw Error(ErrorKind::Ptx, first_rejected->rejected);
}

void Parser::fail(const Token& t, const std::string& what) const {
  throw_ptx_error(file_, t.line, t.column, what, t.text);
}

const Token& Parser::expect(char p, const char* context) {
  if (!peek().is(p)) fail(peek(), std::string("expected '") + p + "' " + context);
  return advance();
}

const Token& Parser::expect_ident(const char* context) {
  if (peek().kind != TokKind::Ident) fail(peek(), std::string("expected an identifier ") + context);
  return advance();
}

uint64_t Parser::expect_uint(const char* context, uint64_t max) {
  const Token& t = peek();
  if (t.kind != TokKind::Int) fail(t, std::string("expected an integer ") + context);
  Literal lit;
  std::string err;
  if (!parse_literal(t.text, false, lit, err)) fail(t, err);
  if (lit.bits > max) fail(t, std::string("value out of range ") + context);
  advance();
  return lit.bits;
}

void Parser::skip_line(uint32_t line) {
  while (peek().kind != TokKind::End && peek().line == line) advance();
}

void Parser::skip_section() {
  const Token& dir = advance();  // .section
  if (peek().kind != TokKind::Directive && peek().kind != TokKind::Ident)
    fail(peek(), "expected a section name after .section");
  advance();
  if (!peek().is('{')) {
    // A section directive without contents.
    return;
  }
  advance();
  int depth = 1;
  while (depth > 0) {
    const Token& t = peek();
    if (t.kind == TokKind::End) fail(dir, "unterminated .section (missing '}')");
    if (t.is('{')) ++depth;
    if (t.is('}')) --depth;
    advance();
  }
}

void Parser::parse_version() {
  const Token& dir = advance();
  if (seen_version_) fail(dir, "duplicate .version directive");
  const Token& v = peek();
  if (v.kind != TokKind::Float) fail(v, "expected a version number 'major.minor' after .version");
  std::string_view s = v.text;
  size_t dot = s.find('.');
  bool ok = dot != std::string_view::npos && dot > 0 && dot + 1 < s.size();
  for (size_t i = 0; ok && i < s.size(); ++i)
    if (i != dot && (s[i] < '0' || s[i] > '9')) ok = false;
  if (!ok) fail(v, "malformed .version number");
  unsigned major = 0;
  for (size_t i = 0; i < dot; ++i) major = major * 10 + static_cast<unsigned>(s[i] - '0');
  if (dot > 2 || major < 1 || major > 9) fail(v, "unsupported PTX version (1.0 to 9.x accepted)");
  mod_->version = std::string(s);
  advance();
  seen_version_ = true;
}

void Parser::parse_target() {
  const Token& dir = advance();
  if (seen_target_) fail(dir, "duplicate .target directive");
  do {
    const Token& t = peek();
    if (t.kind != TokKind::Ident) fail(t, "expected a target name after .target");
    std::string_view n = t.text;
    bool arch = false;
    auto digits_after = [&](std::string_view prefix) {
      if (n.substr(0, prefix.size()) != prefix || n.size() == prefix.size()) return false;
      size_t i = prefix.size();
      size_t start = i;
      while (i < n.size() && n[i] >= '0' && n[i] <= '9') ++i;
      if (i == start) return false;
      if (i < n.size() && (n[i] == 'a' || n[i] == 'f') && i + 1 == n.size()) ++i;
      return i == n.size();
    };
    if (digits_after("sm_") || digits_after("compute_")) {
      arch = true;
    } else if (n != "debug" && n != "texmode_unified" && n != "texmode_independent" &&
               n != "map_f64_to_f32") {
      fail(t, "unknown .target option");
    }
    if (arch) {
      if (!mod_->target.empty()) fail(t, "more than one architecture in .target");
      mod_->target = std::string(n);
    }
    advance();
  } while (accept(','));
  if (mod_->target.empty()) fail(dir, ".target names no architecture (sm_XX)");
  seen_target_ = true;
}

void Parser::parse_module() {
  for (;;) {
    const Token& t = peek();
    if (t.kind == TokKind::End) break;
    if (!seen_version_ && !t.is_directive("version"))
      fail(t, "missing .version directive (it must come first)");
    if (t.kind != TokKind::Directive) {
      if (t.is('{') || t.is('}')) fail(t, "unexpected brace at module scope");
      fail(t, "expected a directive at module scope");
    }
    std::string_view d = t.text.substr(1);
    if (d == "version") {
      parse_version();
      continue;
    }
    if (d == "target") {
      parse_target();
      continue;
    }
    if (!seen_target_ && d != "file" && d != "pragma")
      fail(t, "missing .target directive before the first declaration");
    if (d == "address_size") {
      const Token& dir = advance();
      if (seen_address_size_) fail(dir, "duplicate .address_size directive");
      const Token& v = peek();
      uint64_t n = expect_uint("after .address_size", 64);
      if (n != 32 && n != 64) fail(v, ".address_size must be 32 or 64");
      mod_->address_size = static_cast<unsigned>(n);
      seen_address_size_ = true;
      continue;
    }
    if (d == "file" || d == "loc") {
      skip_line(t.line);
      continue;
    }
    if (d == "section") {
      skip_section();
      continue;
    }
    if (d == "pragma") {
      advance();
      while (peek().kind == TokKind::String || peek().is(',')) advance();
      expect(';', "after .pragma");
      continue;
    }
    bool visible = false, is_extern = false, weak = false, common = false;
    while (peek().kind == TokKind::Directive) {
      std::string_view l = peek().text.substr(1);
      bool* f = l == "visible" ? &visible
                : l == "extern" ? &is_extern
                : l == "weak"   ? &weak
                : l == "common" ? &common
                                : nullptr;
      if (!f) break;
      if (visible || is_extern || weak || common) fail(peek(), "more than one linkage directive");
      *f = true;
      advance();
    }
    const Token& k = peek();
    if (k.kind != TokKind::Directive) fail(k, "expected .entry, .func or a variable declaration");
    std::string_view kd = k.text.substr(1);
    if (kd == "entry" || kd == "func") {
      if (common) fail(k, ".common applies only to .global variables");
      parse_function(kd == "entry", visible, is_extern, weak);
    } else if (kd == "global" || kd == "const" || kd == "shared" || kd == "local") {
      if (common && kd != "global") fail(k, ".common applies only to .global variables");
      parse_var_decl(is_extern, visible || weak || common);
    } else if (kd == "reg") {
      fail(k, ".reg declaration at module scope");
    } else if (kd == "param") {
      fail(k, ".param declaration at module scope");
    } else if (kd == "alias") {
      fail(k, "unsupported directive .alias");
    } else if (kd == "tex" || kd == "surfref" || kd == "texref" || kd == "samplerref") {
      fail(k, "textures and surfaces are not supported");
    } else {
      fail(k, "unknown or misplaced directive");
    }
  }
  if (!seen_version_) fail(peek(), "missing .version directive");
  if (!seen_target_) fail(peek(), "missing .target directive");
}

ParamDecl Parser::parse_param_decl(bool is_entry) {
  ParamDecl p;
  const Token& kw = peek();
  if (kw.is_directive("reg")) fail(kw, ".reg parameters are not supported (use .param)");
  if (!kw.is_directive("param")) fail(kw, "expected .param");
  advance();
  p.tok = pos();
  bool saw_ptr = false;
  for (;;) {
    const Token& t = peek();
    if (t.kind != TokKind::Directive) break;
    std::string_view d = t.text.substr(1);
    DataType dt;
    if (d == "align") {
      advance();
      const Token& v = peek();
      uint64_t a = expect_uint("after .align", 1u << 20);
      if (a == 0 || (a & (a - 1))) fail(v, ".align must be a power of two");
      if (!saw_ptr) {
        if (p.align) fail(v, "duplicate .align");
        p.align = static_cast<uint32_t>(a);
      }
      continue;
    }
    if (parse_type(d, dt)) {
      if (p.type != DataType::None) fail(t, "more than one type in parameter declaration");
      p.type = dt;
      advance();
      continue;
    }
    if (d == "ptr") {
      if (!is_entry) fail(t, ".ptr is only allowed on kernel parameters");
      if (p.type == DataType::None) fail(t, ".ptr must follow the parameter type");
      saw_ptr = true;
      advance();
      continue;
    }
    if (saw_ptr && (d == "global" || d == "const" || d == "local" || d == "shared")) {
      advance();
      continue;
    }
    fail(t, "unexpected directive in parameter declaration");
  }
  if (p.type == DataType::None) fail(peek(), "parameter declaration has no type");
  if (p.type == DataType::Pred) fail(peek(), ".pred parameters are not allowed");
  const Token& name = expect_ident("(parameter name)");
  if (name.text.find('.') != std::string_view::npos) fail(name, "malformed parameter name");
  p.name = std::string(name.text);
  p.tok = pos() - 1;
  if (accept('[')) {
    if (accept(']')) {
      p.count = 0;
    } else {
      p.count = expect_uint("as array size", uint64_t{1} << 32);
      if (p.count == 0) fail(peek(), "array size must be positive");
      expect(']', "after array size");
    }
    if (peek().is('[')) fail(peek(), "multi-dimensional parameters are not supported");
  }
  return p;
}

void Parser::parse_params(std::vector<ParamDecl>& out, bool is_entry) {
  expect('(', "to open the parameter list");
  if (accept(')')) return;
  for (;;) {
    out.push_back(parse_param_decl(is_entry));
    for (size_t i = 0; i + 1 < out.size(); ++i)
      if (out[i].name == out.back().name) fail_tok(out.back().tok, "duplicate parameter name");
    if (accept(')')) return;
    expect(',', "or ')' in the parameter list");
  }
}

void Parser::parse_perf_directives(Function* f) {
  for (;;) {
    const Token& t = peek();
    if (t.kind != TokKind::Directive) return;
    std::string_view d = t.text.substr(1);
    auto read_dims = [&](uint32_t (&dims)[3]) {
      advance();
      for (int i = 0; i < 3; ++i) {
        uint64_t v = expect_uint("in thread-count directive", 0xFFFFFFFFu);
        if (v == 0) fail(tok_at(pos() - 1), "thread count must be positive");
        if (f) dims[i] = static_cast<uint32_t>(v);
        if (!accept(',')) {
          for (int j = i + 1; j < 3 && f; ++j) dims[j] = 1;
          return;
        }
      }
    };
    uint32_t dummy[3];
    if (d == "maxntid") {
      read_dims(f ? f->maxntid : dummy);
    } else if (d == "reqntid") {
      read_dims(f ? f->reqntid : dummy);
    } else if (d == "minnctapersm" || d == "maxnreg" || d == "maxnctapersm") {
      advance();
      uint64_t v = expect_uint("after performance directive", 0xFFFFFFFFu);
      if (f && d == "minnctapersm") f->minnctapersm = static_cast<uint32_t>(v);
      if (f && d == "maxnreg") f->maxnreg = static_cast<uint32_t>(v);
    } else if (d == "noreturn") {
      advance();
    } else if (d == "pragma") {
      advance();
      while (peek().kind == TokKind::String || peek().is(',')) advance();
      expect(';', "after .pragma");
    } else if (d == "explicitcluster" || d == "reqnctapercluster" || d == "maxclusterrank" ||
               d == "blocksareclusters") {
      fail(t, "thread-block clusters are not supported");
    } else {
      return;
    }
  }
}

namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

bool same_signature(const std::vector<ParamDecl>& a, const std::vector<ParamDecl>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (type_size(a[i].type) * a[i].count != type_size(b[i].type) * b[i].count) return false;
  return true;
}

}  // namespace

void Parser::parse_function(bool is_entry, bool visible, bool is_extern, bool weak) {
  const Token& kw = advance();
  Prototype proto;
  proto.is_entry = is_entry;
  if (peek().is('(')) {
    if (is_entry) fail(peek(), "a kernel (.entry) cannot return values");
    parse_params(proto.returns, false);
    if (proto.returns.size() > 1) fail_tok(proto.returns[1].tok, "more than one return parameter");
  }
  const Token& name = expect_ident("(function name)");
  if (name.text.find('.') != std::string_view::npos || name.text[0] == '%')
    fail(name, "malformed function name");
  proto.name = std::string(name.text);
  proto.tok = pos() - 1;
  if (peek().is('(')) parse_params(proto.params, is_entry);

  auto existing = protos_.find(proto.name);
  if (existing != protos_.end()) {
    Prototype& e = existing->second;
    if (e.is_entry != is_entry || !same_signature(e.params, proto.params) ||
        !same_signature(e.returns, proto.returns))
      fail(name, "declaration of '" + proto.name + "' does not match an earlier declaration");
  }
  if (scopes_[0].names.count(proto.name)) fail(name, "'" + proto.name + "' is already a variable");

  // Performance directives may follow either a declaration or a definition.
  Function f;
  parse_perf_directives(&f);
  if (accept(';')) {
    if (existing == protos_.end()) {
      proto_order_.push_back(proto.name);
      protos_.emplace(proto.name, std::move(proto));
    }
    return;
  }
  if (!peek().is('{')) fail(peek(), "expected '{' to open the function body or ';'");
  if (is_extern) fail(kw, ".extern function with a body");
  if (existing != protos_.end() && existing->second.defined)
    fail(name, "duplicate definition of function '" + proto.name + "'");

  f.name = proto.name;
  f.is_entry = is_entry;
  f.is_visible = visible || weak;
  f.loc = SourceLoc{kw.line, kw.column};
  mod_->functions.push_back(std::move(f));
  fn_index_ = static_cast<uint32_t>(mod_->functions.size() - 1);
  fn_ = &mod_->functions.back();
  mod_->function_index[fn_->name] = fn_index_;

  proto.defined = true;
  proto.function = static_cast<int32_t>(fn_index_);
  if (existing != protos_.end()) {
    existing->second = proto;
  } else {
    proto_order_.push_back(proto.name);
    protos_.emplace(proto.name, proto);
  }

  // Function scope: parameters and return values are variables bound here.
  block_parent_.assign(1, 0);
  labels_.clear();
  branch_targets_.clear();
  label_refs_.clear();
  brx_refs_.clear();
  scopes_.emplace_back();
  scopes_.back().block = 0;

  auto make_params = [&](const std::vector<ParamDecl>& decls, std::vector<uint32_t>& out) {
    uint64_t offset = 0;
    for (const ParamDecl& d : decls) {
      Variable v;
      v.name = d.name;
      v.space = StateSpace::Param;
      v.type = d.type;
      v.align = d.align;
      v.size = type_size(d.type) * d.count;
      v.is_kernel_param = is_entry;
      v.is_func_param = !is_entry;
      uint64_t a = d.align ? d.align : type_size(d.type);
      offset = align_up(offset, a);
      v.param_offset = offset;
      offset += v.size;
      const Token& pt = tok_at(d.tok);
      v.loc = SourceLoc{pt.line, pt.column};
      out.push_back(new_variable(std::move(v), d.tok));
    }
    return offset;
  };
  make_params(proto.returns, fn_->returns);
  fn_->param_bytes = make_params(proto.params, fn_->params);

  parse_body_or_reject();
  scopes_.pop_back();
  fn_ = nullptr;
}

void Parser::finish_module() {
  for (const CallFixup& fx : call_fixups_) {
    auto it = protos_.find(fx.callee);
    if (it == protos_.end()) fail_tok(fx.tok, "call to undefined function '" + fx.callee + "'");
    if (is_vprintf_declaration(it->second)) define_vprintf(it->second);
    const Prototype& pr = it->second;
    if (!pr.defined)
      fail_tok(fx.tok, "call to function '" + fx.callee +
                           "' which is declared but not defined in this module (linking is not "
                           "supported)");
    if (pr.is_entry) fail_tok(fx.tok, "call to a kernel (.entry) '" + fx.callee + "'");
    Function& caller = mod_->functions[fx.function];
    Instruction& inst = caller.insts[fx.inst];
    const Function& callee = mod_->functions[static_cast<size_t>(pr.function)];
    inst.ops[1].func = static_cast<uint32_t>(pr.function);
    inst.ops[1].target = static_cast<uint32_t>(pr.function);
    const Operand& rets = inst.ops[0];
    const Operand& args = inst.ops[2];
    if (rets.elems.size() != callee.returns.size())
      fail_tok(fx.tok, "call to '" + fx.callee + "' expects " +
                           std::to_string(callee.returns.size()) + " return value(s), got " +
                           std::to_string(rets.elems.size()));
    if (args.elems.size() != callee.params.size())
      fail_tok(fx.tok, "call to '" + fx.callee + "' expects " +
                           std::to_string(callee.params.size()) + " argument(s), got " +
                           std::to_string(args.elems.size()));
    auto check = [&](const Operand& o, uint32_t param_var, size_t i, const char* what) {
      const Variable& pv = mod_->vars[param_var];
      uint64_t have = 0;
      if (o.kind == OperandKind::Symbol)
        have = mod_->vars[o.var].size;
      else if (o.kind == OperandKind::Reg)
        have = type_size(caller.regs[o.reg].type);
      else
        return;  // immediates take the parameter's size
      if (have != pv.size)
        fail_tok(fx.tok, std::string(what) + " " + std::to_string(i + 1) + " of call to '" +
                             fx.callee + "' has " + std::to_string(have) + " bytes, parameter '" +
                             pv.name + "' has " + std::to_string(pv.size));
    };
    for (size_t i = 0; i < rets.elems.size(); ++i)
      check(rets.elems[i], callee.returns[i], i, "return value");
    for (size_t i = 0; i < args.elems.size(); ++i)
      check(args.elems[i], callee.params[i], i, "argument");
  }
}

}  // namespace simtlm::frontend::ptx
