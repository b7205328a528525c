// Module-level directives, functions, parameters, registers, variables,
// initialisers, scopes and labels.
#include <gtest/gtest.h>

#include <cstring>

#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;

namespace {

const Function& fn(const Module& m, const std::string& name) {
  return m.functions.at(m.function_index.at(name));
}

const Variable& var(const Module& m, const std::string& name) {
  for (const Variable& v : m.vars)
    if (v.name == name) return v;
  throw std::runtime_error("no variable " + name);
}

std::string header_error(const std::string& text) { return error_of(text); }

}  // namespace

TEST(Module, HeaderDirectives) {
  auto m = parse(".version 7.8\n.target sm_80, texmode_independent, debug\n.address_size 32\n");
  EXPECT_EQ(m->version, "7.8");
  EXPECT_EQ(m->target, "sm_80");
  EXPECT_EQ(m->address_size, 32u);
  EXPECT_TRUE(m->functions.empty());
  auto d = parse(".version 9.0\n.target sm_90a\n");
  EXPECT_EQ(d->address_size, 64u);
  EXPECT_EQ(d->target, "sm_90a");
}

TEST(Module, HeaderErrors) {
  EXPECT_NE(header_error(".target sm_75\n").find("missing .version"), std::string::npos);
  EXPECT_NE(header_error("").find("missing .version"), std::string::npos);
  EXPECT_NE(header_error(".version 10.0\n.target sm_75\n").find("unsupported PTX version"), std::string::npos);
  EXPECT_NE(header_error(".version 9\n.target sm_75\n").find("version number"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.version 9.0\n").find("duplicate .version"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n").find("missing .target"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.target sm_75, fancy\n").find("unknown .target option"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.target sm_75\n.address_size 48\n").find("32 or 64"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.global .u32 x;\n").find("missing .target"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.target sm_75\nfoo\n").find("expected a directive"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.target sm_75\n.bogus\n").find("unknown or misplaced directive"), std::string::npos);
  EXPECT_NE(header_error(".version 9.0\n.target sm_75\n.reg .b32 r;\n").find("module scope"), std::string::npos);
}

TEST(Module, FunctionsAndLinkage) {
  auto m = parse(std::string(kHeader) +
                 ".func (.param .b32 rv) f(.param .b32 a, .param .b64 b)\n{\n .reg .b32 %r<2>;\n"
                 " ld.param.b32 %r1, [a];\n st.param.b32 [rv+0], %r1;\n ret;\n}\n"
                 ".weak .func g()\n.noreturn\n{\n trap;\n}\n"
                 ".visible .entry k()\n.maxntid 128\n.reqntid 64, 2\n.minnctapersm 3\n.maxnreg 40\n"
                 ".pragma \"nounroll\";\n{\n exit;\n}\n");
  ASSERT_EQ(m->functions.size(), 3u);
  const Function& f = fn(*m, "f");
  EXPECT_FALSE(f.is_entry);
  EXPECT_FALSE(f.is_visible);
  ASSERT_EQ(f.returns.size(), 1u);
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_TRUE(m->vars[f.params[0]].is_func_param);
  EXPECT_FALSE(m->vars[f.params[0]].is_kernel_param);
  EXPECT_EQ(m->vars[f.params[1]].param_offset, 8u);
  EXPECT_EQ(f.param_bytes, 16u);
  EXPECT_EQ(m->vars[f.returns[0]].name, "rv");
  EXPECT_TRUE(fn(*m, "g").is_visible);  // .weak is externally visible
  const Function& k = fn(*m, "k");
  EXPECT_TRUE(k.is_entry);
  EXPECT_TRUE(k.is_visible);
  EXPECT_EQ(k.maxntid[0], 128u);
  EXPECT_EQ(k.maxntid[1], 1u);
  EXPECT_EQ(k.maxntid[2], 1u);
  EXPECT_EQ(k.reqntid[0], 64u);
  EXPECT_EQ(k.reqntid[1], 2u);
  EXPECT_EQ(k.reqntid[2], 1u);
  EXPECT_EQ(k.minnctapersm, 3u);
  EXPECT_EQ(k.maxnreg, 40u);
  EXPECT_EQ(k.insts.size(), 1u);
  EXPECT_EQ(k.loc.line, 16u);
  EXPECT_NE(m->find_kernel("k"), nullptr);
  EXPECT_EQ(m->find_kernel("f"), nullptr);
}

TEST(Module, KernelParameterOffsets) {
  auto m = parse(std::string(kHeader) +
                 ".visible .entry k(.param .u32 a, .param .align 16 .b8 b[32], .param .u8 c,\n"
                 "  .param .u64 .ptr .global .align 8 d, .param .f64 e)\n{\n ret;\n}\n");
  const Function& k = fn(*m, "k");
  ASSERT_EQ(k.params.size(), 5u);
  const uint64_t want[] = {0, 16, 48, 56, 64};
  for (size_t i = 0; i < 5; ++i) {
    const Variable& p = m->vars[k.params[i]];
    EXPECT_EQ(p.param_offset, want[i]) << p.name;
    EXPECT_TRUE(p.is_kernel_param);
    EXPECT_EQ(p.space, StateSpace::Param);
  }
  EXPECT_EQ(m->vars[k.params[1]].size, 32u);
  EXPECT_EQ(m->vars[k.params[1]].align, 16u);
  EXPECT_EQ(m->vars[k.params[3]].align, 0u);  // .align after .ptr is the pointee's
  EXPECT_EQ(k.param_bytes, 72u);
}

TEST(Module, RegisterDeclarations) {
  auto m = parse(std::string(kHeader) +
                 ".entry k()\n{\n .reg .pred %p<3>;\n .reg .b32 %r<4>, %extra, named;\n"
                 " .reg .v4 .f32 %v;\n .reg .f16x2 %h;\n ret;\n}\n");
  const Function& k = fn(*m, "k");
  ASSERT_EQ(k.regs.size(), 3u + 4u + 2u + 1u + 1u);
  EXPECT_EQ(k.regs[0].name, "%p0");
  EXPECT_EQ(k.regs[2].name, "%p2");
  EXPECT_EQ(k.regs[2].type, DataType::Pred);
  EXPECT_EQ(k.regs[3].name, "%r0");
  EXPECT_EQ(k.regs[6].name, "%r3");
  EXPECT_EQ(k.regs[7].name, "%extra");
  EXPECT_EQ(k.regs[8].name, "named");
  EXPECT_EQ(k.regs[9].vec, 4u);
  EXPECT_EQ(k.regs[9].type, DataType::F32);
  EXPECT_EQ(k.regs[10].type, DataType::F16x2);
}

TEST(Module, RegisterErrors) {
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n .reg .b32 %r<2>;\n .reg .b32 %r1;\n ret;\n}\n")
                .find("duplicate declaration of '%r1'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n .reg %r;\n ret;\n}\n").find("no type"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n .reg .b32 %r<0>;\n ret;\n}\n").find("positive"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n .reg .b32 %r<99999999>;\n ret;\n}\n")
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n .reg .b32 .u32 %r;\n ret;\n}\n")
                .find("more than one type"),
            std::string::npos);
}

TEST(Module, Variables) {
  auto m = parse(std::string(kHeader) +
                 ".global .align 8 .u32 a[2][3];\n"
                 ".const .f32 c = 1.5;\n"
                 ".shared .align 16 .b8 s[1024];\n"
                 ".extern .shared .align 16 .b8 dyn[];\n"
                 ".visible .global .v4 .f32 v;\n"
                 ".global .u32 x, y[4];\n"
                 ".local .b8 mlocal[8];\n"
                 ".entry k()\n{\n .local .align 4 .b8 depot[28];\n .shared .u64 fs;\n ret;\n}\n");
  const Variable& a = var(*m, "a");
  EXPECT_EQ(a.space, StateSpace::Global);
  EXPECT_EQ(a.type, DataType::U32);
  EXPECT_EQ(a.align, 8u);
  EXPECT_EQ(a.size, 24u);
  EXPECT_TRUE(a.init.empty());
  EXPECT_EQ(var(*m, "c").space, StateSpace::Const);
  EXPECT_EQ(var(*m, "s").size, 1024u);
  const Variable& dyn = var(*m, "dyn");
  EXPECT_TRUE(dyn.is_extern);
  EXPECT_EQ(dyn.size, 0u);
  EXPECT_EQ(dyn.align, 16u);
  EXPECT_EQ(var(*m, "v").size, 16u);
  EXPECT_TRUE(var(*m, "v").is_visible);
  EXPECT_EQ(var(*m, "x").size, 4u);
  EXPECT_EQ(var(*m, "y").size, 16u);
  EXPECT_EQ(var(*m, "mlocal").space, StateSpace::Local);
  const Function& k = fn(*m, "k");
  ASSERT_EQ(k.locals.size(), 2u);
  EXPECT_EQ(m->vars[k.locals[0]].name, "depot");
  EXPECT_EQ(m->vars[k.locals[0]].size, 28u);
  EXPECT_EQ(m->vars[k.locals[1]].space, StateSpace::Shared);
}

TEST(Module, Initialisers) {
  auto m = parse(std::string(kHeader) +
                 ".global .u32 target;\n"
                 ".global .align 4 .b8 bytes[6] = {1, 2, 255, -1};\n"
                 ".const .align 4 .f32 f[3] = {1.5, 0f40000000, 3};\n"
                 ".global .f64 d = 0d400921F9F01B866E;\n"
                 ".global .s16 neg = -2;\n"
                 ".global .u32 m[2][3] = {{1, 2}, {4, 5, 6}};\n"
                 ".global .u32 flat[2][2] = {1, 2, 3};\n"
                 ".global .u32 unsized[] = {7, 8, 9};\n"
                 ".global .u64 ptrs[3] = {generic(target), generic(bytes)+8, 0};\n"
                 ".global .u64 plain = target;\n"
                 ".global .f32 fv[2] = {0.1, -2};\n");
  auto bytes_of = [&](const std::string& n) { return var(*m, n).init; };
  EXPECT_EQ(bytes_of("bytes"), (std::vector<uint8_t>{1, 2, 255, 255, 0, 0}));
  std::vector<uint8_t> f = bytes_of("f");
  ASSERT_EQ(f.size(), 12u);
  float fv[3];
  std::memcpy(fv, f.data(), 12);
  EXPECT_EQ(fv[0], 1.5f);
  EXPECT_EQ(fv[1], 2.0f);
  EXPECT_EQ(fv[2], 3.0f);
  std::vector<uint8_t> d = bytes_of("d");
  double dv;
  std::memcpy(&dv, d.data(), 8);
  EXPECT_DOUBLE_EQ(dv, 3.14159);
  EXPECT_EQ(bytes_of("neg"), (std::vector<uint8_t>{0xFE, 0xFF}));
  std::vector<uint8_t> mm = bytes_of("m");
  ASSERT_EQ(mm.size(), 24u);
  uint32_t mv[6];
  std::memcpy(mv, mm.data(), 24);
  EXPECT_EQ(mv[0], 1u);
  EXPECT_EQ(mv[1], 2u);
  EXPECT_EQ(mv[2], 0u);  // brace rows are padded
  EXPECT_EQ(mv[3], 4u);
  EXPECT_EQ(mv[5], 6u);
  std::vector<uint8_t> fl = bytes_of("flat");
  uint32_t flv[4];
  std::memcpy(flv, fl.data(), 16);
  EXPECT_EQ(flv[2], 3u);
  EXPECT_EQ(flv[3], 0u);
  EXPECT_EQ(var(*m, "unsized").size, 12u);
  const Variable& p = var(*m, "ptrs");
  ASSERT_EQ(p.address_inits.size(), 2u);
  EXPECT_EQ(p.address_inits[0].first, 0u);
  EXPECT_EQ(m->vars[p.address_inits[0].second].name, "target");
  EXPECT_EQ(p.address_inits[1].first, 8u);
  EXPECT_EQ(m->vars[p.address_inits[1].second].name, "bytes");
  EXPECT_EQ(p.init[8], 8u);  // the addend stays in the initialiser bytes
  EXPECT_EQ(p.init.size(), 24u);
  EXPECT_EQ(var(*m, "plain").address_inits.size(), 1u);
  std::vector<uint8_t> fvb = bytes_of("fv");
  float fvv[2];
  std::memcpy(fvv, fvb.data(), 8);
  EXPECT_EQ(fvv[0], 0.1f);
  EXPECT_EQ(fvv[1], -2.0f);
}

TEST(Module, VariableErrors) {
  const std::string h = kHeader;
  EXPECT_NE(error_of(h + ".global .u32 a[2] = {1, 2, 3};\n").find("too many initialisers"), std::string::npos);
  EXPECT_NE(error_of(h + ".shared .u32 a = 1;\n").find("only allowed on .global and .const"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a[];\n").find("unknown size"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a;\n.global .u32 a;\n").find("duplicate declaration"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u8 a = 256;\n").find("out of range"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a = 1.5;\n").find("floating-point immediate"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u64 a = generic(nope);\n").find("undefined variable 'nope'"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 t;\n.global .u32 a = generic(t);\n").find("64-bit element type"),
            std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a[2] = 5;\n").find("brace list"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a = {5};\n").find("brace initialiser for a scalar"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a[2] = {{1}};\n").find("too many braces"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .pred a;\n").find(".pred variables"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .align 3 .u32 a;\n").find("power of two"), std::string::npos);
  EXPECT_NE(error_of(h + ".extern .global .u32 a = 1;\n").find(".extern variable cannot have"), std::string::npos);
  EXPECT_NE(error_of(h + ".global .u32 a[0];\n").find("positive"), std::string::npos);
}

TEST(Module, NestedScopesMakeDistinctDeclarations) {
  auto m = parse(std::string(kHeader) +
                 ".func (.param .b32 rv) f(.param .b32 a)\n{\n .reg .b32 %r;\n ld.param.b32 %r, [a];\n"
                 " st.param.b32 [rv], %r;\n ret;\n}\n"
                 ".entry k()\n{\n .reg .b32 %r<3>;\n"
                 " {\n  .reg .b32 tmp;\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n"
                 "  .param .b32 retval0;\n  call.uni (retval0), f, (param0);\n  ld.param.b32 %r2, [retval0];\n }\n"
                 " {\n  .reg .b32 tmp;\n  .param .b32 param0;\n  mov.b32 tmp, 7;\n  st.param.b32 [param0], tmp;\n"
                 "  .param .b32 retval0;\n  call.uni (retval0), f, (param0);\n }\n"
                 " ret;\n}\n");
  const Function& k = fn(*m, "k");
  EXPECT_EQ(k.regs.size(), 5u);  // %r0..2 and two distinct `tmp`
  EXPECT_EQ(k.locals.size(), 4u);
  const Instruction& st1 = k.insts[0];
  const Instruction& st2 = k.insts[4];
  ASSERT_EQ(st1.op, Opcode::St);
  ASSERT_EQ(st2.op, Opcode::St);
  EXPECT_NE(st1.ops[0].var, st2.ops[0].var);
  EXPECT_EQ(st1.ops[0].var, k.locals[0]);
  EXPECT_EQ(st2.ops[0].var, k.locals[2]);
  const Instruction& mov = k.insts[3];
  EXPECT_EQ(k.regs[mov.ops[0].reg].name, "tmp");
  EXPECT_EQ(mov.ops[0].reg, 4u);  // the second `tmp`
  EXPECT_EQ(st2.ops[1].reg, 4u);
  // Names declared inside a block are not visible after it.
  EXPECT_NE(error_of(std::string(kHeader) + ".entry k()\n{\n {\n .reg .b32 t;\n }\n mov.b32 t, 1;\n ret;\n}\n")
                .find("undefined identifier 't'"),
            std::string::npos);
}

TEST(Module, LabelsForwardBackwardAndScoped) {
  auto m = parse(std::string(kHeader) +
                 ".entry k()\n{\n .reg .pred %p;\n .reg .b32 %r;\n"
                 " bra.uni FWD;\nBACK:\n mov.b32 %r, 1;\nFWD:\n @%p bra BACK;\n"
                 " { .reg .pred q;\n  setp.eq.s32 q, %r, 0;\n  @q bra DONE;\n  mov.b32 %r, 2;\n DONE:\n }\n"
                 " { .reg .pred q;\n  setp.eq.s32 q, %r, 1;\n  @!q bra DONE;\n  mov.b32 %r, 3;\n DONE:\n }\n"
                 " ret;\nEND:\n}\n");
  const Function& k = fn(*m, "k");
  EXPECT_EQ(k.insts[0].ops[0].target, 2u);  // FWD
  EXPECT_EQ(k.insts[2].ops[0].target, 1u);  // BACK
  EXPECT_EQ(k.insts[4].ops[0].target, 6u);  // first block's DONE
  EXPECT_EQ(k.insts[7].ops[0].target, 9u);  // second block's DONE
  EXPECT_TRUE(k.insts[7].guard_negated);
  EXPECT_EQ(k.labels.at("FWD"), 2u);
  EXPECT_EQ(k.labels.at("END"), 10u);
}

TEST(Module, LabelErrors) {
  const std::string h = std::string(kHeader) + ".entry k()\n{\n";
  EXPECT_NE(error_of(h + " bra NOWHERE;\n ret;\n}\n").find("undefined label 'NOWHERE'"), std::string::npos);
  EXPECT_NE(error_of(h + "L:\n ret;\nL:\n ret;\n}\n").find("duplicate label 'L'"), std::string::npos);
  EXPECT_NE(error_of(h + " bra E;\n ret;\nE:\n}\n").find("not followed by an instruction"), std::string::npos);
}

TEST(Module, DebugDirectivesAreSkipped) {
  auto m = parse(std::string(kHeader) +
                 ".file 1 \"src/a.cu\"\n.file 2 \"b.h\", 1700000000, 42\n"
                 ".entry k()\n{\n .loc 1 2 3\n ret;\n .loc 2 440 9, function_name $L__info_string0, inlined_at 1 30 5\n"
                 "}\n.section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n.b64 $L__tmp1\n}\n"
                 ".section .debug_macinfo { .b8 0 }\n");
  EXPECT_EQ(fn(*m, "k").insts.size(), 1u);
  EXPECT_NE(error_of(std::string(kHeader) + ".section .debug_info\n{\n.b8 1\n").find("unterminated .section"),
            std::string::npos);
}

TEST(Module, FunctionDeclarationsAndCalls) {
  // Call before the definition, via a prototype; and a call to a function
  // defined later without any prototype.
  auto m = parse(std::string(kHeader) +
                 ".func (.param .b32 rv) later(.param .b32 a);\n"
                 ".entry k()\n{\n .reg .b32 %r<3>;\n"
                 " { .param .b32 param0;\n  st.param.b32 [param0], %r1;\n  .param .b32 retval0;\n"
                 "   call.uni (retval0), later, (param0);\n  ld.param.b32 %r2, [retval0];\n }\n"
                 " call nothing_declared, ();\n"
                 " call.uni nothing_declared;\n"
                 " ret;\n}\n"
                 ".func (.param .b32 rv) later(.param .b32 a)\n{\n .reg .b32 %x;\n ld.param.b32 %x, [a];\n"
                 " st.param.b32 [rv], %x;\n ret;\n}\n"
                 ".func nothing_declared()\n{\n ret;\n}\n");
  const Function& k = fn(*m, "k");
  const Instruction& call = k.insts[1];
  ASSERT_EQ(call.op, Opcode::Call);
  EXPECT_TRUE(call.uni);
  ASSERT_EQ(call.ops.size(), 3u);
  EXPECT_EQ(call.ops[0].kind, OperandKind::Vector);
  ASSERT_EQ(call.ops[0].elems.size(), 1u);
  EXPECT_EQ(call.ops[0].elems[0].kind, OperandKind::Symbol);
  EXPECT_EQ(m->vars[call.ops[0].elems[0].var].name, "retval0");
  EXPECT_EQ(call.ops[1].kind, OperandKind::Function);
  EXPECT_EQ(call.ops[1].func, m->function_index.at("later"));
  ASSERT_EQ(call.ops[2].elems.size(), 1u);
  EXPECT_EQ(m->vars[call.ops[2].elems[0].var].name, "param0");
  const Instruction& call2 = k.insts[3];
  EXPECT_TRUE(call2.ops[0].elems.empty());
  EXPECT_TRUE(call2.ops[2].elems.empty());
  EXPECT_EQ(call2.ops[1].func, m->function_index.at("nothing_declared"));
  EXPECT_EQ(k.insts[4].ops[1].func, m->function_index.at("nothing_declared"));
  EXPECT_EQ(m->functions.size(), 3u);  // the prototype is not a separate function
}

TEST(Module, CallErrors) {
  const std::string h = kHeader;
  const std::string callee = ".func (.param .b32 rv) f(.param .b32 a)\n{\n ret;\n}\n";
  auto body = [&](const std::string& b) { return h + callee + ".entry k()\n{\n .reg .b32 %r;\n .reg .b64 %rd;\n" + b + " ret;\n}\n"; };
  EXPECT_NE(error_of(body(" call.uni g, ();\n")).find("call to undefined function 'g'"), std::string::npos);
  EXPECT_NE(error_of(body(" { .param .b32 p;\n call.uni f, (p);\n }\n")).find("expects 1 return value"),
            std::string::npos);
  EXPECT_NE(error_of(body(" { .param .b32 r;\n call.uni (r), f, ();\n }\n")).find("expects 1 argument"),
            std::string::npos);
  EXPECT_NE(error_of(body(" { .param .b64 p;\n .param .b32 r;\n call.uni (r), f, (p);\n }\n"))
                .find("argument 1 of call to 'f' has 8 bytes"),
            std::string::npos);
  EXPECT_NE(error_of(body(" call.uni (%r), %rd, (%r);\n")).find("indirect calls"), std::string::npos);
  EXPECT_NE(error_of(h + ".extern .func e();\n.entry k()\n{\n call.uni e, ();\n ret;\n}\n")
                .find("declared but not defined"),
            std::string::npos);
  EXPECT_NE(error_of(h + callee + callee).find("duplicate definition of function 'f'"), std::string::npos);
  EXPECT_NE(error_of(h + ".func f(.param .b32 a);\n.func f(.param .b64 a)\n{\n ret;\n}\n")
                .find("does not match an earlier declaration"),
            std::string::npos);
  EXPECT_NE(error_of(h + ".extern .func f()\n{\n ret;\n}\n").find(".extern function with a body"),
            std::string::npos);
  EXPECT_NE(error_of(h + ".entry (.param .b32 r) k()\n{\n ret;\n}\n").find("cannot return"), std::string::npos);
  EXPECT_NE(error_of(h + ".entry k(.reg .b32 r)\n{\n ret;\n}\n").find(".reg parameters"), std::string::npos);
  EXPECT_NE(error_of(h + ".entry k(.param .b32 a, .param .b32 a)\n{\n ret;\n}\n").find("duplicate parameter"),
            std::string::npos);
  EXPECT_NE(error_of(h + ".entry k()\n.reqnctapercluster 2\n{\n ret;\n}\n").find("clusters are not supported"),
            std::string::npos);
}

TEST(Module, AttributesAndCommonLinkage) {
  auto m = parse(std::string(kHeader) + ".global .attribute(.managed) .align 4 .u32 managed;\n"
                 ".common .global .align 8 .b8 common_buf[64];\n.weak .global .u32 weak_var = 3;\n"
                 ".entry k\n{\n ret;\n}\n");
  EXPECT_EQ(var(*m, "managed").size, 4u);
  EXPECT_TRUE(var(*m, "common_buf").is_visible);
  EXPECT_TRUE(var(*m, "weak_var").is_visible);
  EXPECT_TRUE(fn(*m, "k").params.empty());
  EXPECT_NE(error_of(std::string(kHeader) + ".common .shared .u32 x;\n").find(".common applies only"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".visible .weak .global .u32 x;\n").find("more than one linkage"),
            std::string::npos);
}

TEST(Module, CommentsEverywhere) {
  auto m = parse("// leading\n.version /* inline */ 9.0\n.target sm_75 // trailing\n.address_size 64\n"
                 ".entry k( /* no params */ )\n{\n /* c */ ret; // done\n}\n");
  EXPECT_EQ(fn(*m, "k").insts.size(), 1u);
  EXPECT_EQ(fn(*m, "k").insts[0].text, "ret");
}
