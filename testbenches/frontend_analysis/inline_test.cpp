// Call inlining and parameter lowering, on PTX text shaped like nvcc output.
#include <gtest/gtest.h>

#include <set>

#include "simtlm/error.h"
#include "testbenches/frontend_analysis/pipeline.h"

namespace simtlm::frontend {
namespace {

using namespace testing_ir;
using ir::Opcode;

// True when no instruction of `f` is a call.
bool call_free(const ir::Function& f) {
  for (const auto& i : f.insts)
    if (i.op == Opcode::Call) return false;
  return true;
}

// Every remaining .param access must be an ld.param of a kernel parameter.
void expect_only_kernel_param_loads(const ir::Module& m, const ir::Function& f) {
  for (const auto& i : f.insts) {
    if (i.space != ir::StateSpace::Param) continue;
    EXPECT_EQ(i.op, Opcode::Ld) << i.text;
    for (const auto& op : i.ops) {
      if (op.kind == ir::OperandKind::Address && op.base == ir::OperandKind::Symbol) {
        EXPECT_TRUE(m.vars[op.var].is_kernel_param) << i.text;
      }
    }
  }
}

const std::string kFoo = std::string(kHeader) + R"(
.func  (.param .b32 func_retval0) _Z3fooii(
	.param .b32 _Z3fooii_param_0,
	.param .b32 _Z3fooii_param_1
)
{
	.reg .b32 	%r<4>;
	ld.param.u32 	%r1, [_Z3fooii_param_0];
	ld.param.u32 	%r2, [_Z3fooii_param_1];
	mad.lo.s32 	%r3, %r2, %r1, 3;
	st.param.b32 	[func_retval0+0], %r3;
	ret;
}
.visible .entry _Z5callkPi(
	.param .u64 _Z5callkPi_param_0
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [_Z5callkPi_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	ld.global.u32 	%r2, [%rd2];
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r2;
	.param .b32 retval0;
	call.uni (retval0),
	_Z3fooii,
	(
	param0,
	param1
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r3;
	ret;
}
)";

TEST(Inline, CallWithParamsAndReturnValue) {
  auto m = load(kFoo);
  const ir::Function& k = fn(*m, "_Z5callkPi");
  EXPECT_TRUE(call_free(k));
  expect_only_kernel_param_loads(*m, k);
  // Scalar parameters became register moves: no local memory at all.
  EXPECT_EQ(k.local_bytes, 0u);
  for (const auto& i : k.insts) EXPECT_NE(i.space, ir::StateSpace::Local) << i.text;
  // The callee body is inside, on fresh registers of the kernel.
  uint32_t mad = find_inst(k, "mad.lo.s32");
  ASSERT_NE(mad, 0xFFFFFFFFu);
  EXPECT_EQ(k.regs[k.insts[mad].ops[0].reg].name, "%r3$i1");
  // Dataflow: mad's sources come from %r1/%r2 of the kernel through moves.
  auto src_of = [&](uint32_t reg) {  // follow mov chains backwards
    for (;;) {
      uint32_t def = 0xFFFFFFFFu;
      for (uint32_t i = 0; i < mad; ++i)
        if (k.insts[i].op == Opcode::Mov && k.insts[i].ops[0].kind == ir::OperandKind::Reg &&
            k.insts[i].ops[0].reg == reg && k.insts[i].ops[1].kind == ir::OperandKind::Reg)
          def = i;
      if (def == 0xFFFFFFFFu) return k.regs[reg].name;
      reg = k.insts[def].ops[1].reg;
    }
  };
  EXPECT_EQ(src_of(k.insts[mad].ops[1].reg), "%r2");
  EXPECT_EQ(src_of(k.insts[mad].ops[2].reg), "%r1");
  // The kernel's final ret is its own; the callee's ret fell through.
  EXPECT_EQ(k.insts.back().op, Opcode::Ret);
  for (uint32_t i = 0; i + 1 < k.insts.size(); ++i) EXPECT_NE(k.insts[i].op, Opcode::Ret);
  // The call-sequence variables were lowered to local slots.
  const ir::Variable& p0 = m->vars[var(*m, "param0")];
  EXPECT_EQ(p0.space, ir::StateSpace::Local);
  EXPECT_TRUE(p0.from_call_param);
  // The .func stays, untouched, with its own .param formals.
  const ir::Function& foo = fn(*m, "_Z3fooii");
  EXPECT_EQ(foo.insts.size(), 5u);
  EXPECT_EQ(m->vars[foo.params[0]].space, ir::StateSpace::Param);
  EXPECT_TRUE(k.analysis.done);
}

const std::string kNested = std::string(kHeader) + R"(
.func (.param .b32 rv) g(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [x];
	add.s32 %r2, %r1, 1;
	st.param.b32 [rv], %r2;
	ret;
}
.func (.param .b32 rv) f(.param .b32 x)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [x];
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	.param .b32 r0;
	call.uni (r0), g, (a0);
	ld.param.b32 %r2, [r0];
	}
	shl.b32 %r3, %r2, 1;
	st.param.b32 [rv], %r3;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	{
	.param .b32 b0;
	st.param.b32 [b0], %r1;
	.param .b32 s0;
	call.uni (s0), f, (b0);
	ld.param.b32 %r2, [s0];
	}
	{
	.param .b32 b1;
	st.param.b32 [b1], %r2;
	.param .b32 s1;
	call.uni (s1), g, (b1);
	ld.param.b32 %r3, [s1];
	}
	st.global.u32 [%rd1], %r3;
	ret;
}
)";

TEST(Inline, NestedCallsAndSeveralInstances) {
  auto m = load(kNested);
  for (const auto& f : m->functions) EXPECT_TRUE(call_free(f)) << f.name;
  const ir::Function& k = fn(*m, "k");
  expect_only_kernel_param_loads(*m, k);
  EXPECT_EQ(k.local_bytes, 0u);
  // g appears twice (once through f), f once.
  int adds = 0, shls = 0;
  for (const auto& i : k.insts) {
    adds += i.op == Opcode::Add;
    shls += i.op == Opcode::Shl;
  }
  EXPECT_EQ(adds, 2);
  EXPECT_EQ(shls, 1);
  // Distinct instances get distinct registers.
  std::set<std::string> names;
  for (const auto& r : k.regs) EXPECT_TRUE(names.insert(r.name).second) << r.name;
  EXPECT_NE(names.count("%r2$i1$i1"), 0u);  // g's %r2 inside f inside k
  EXPECT_NE(names.count("%r2$i2"), 0u);     // the direct call of g
  // f alone was inlined too: its only .param accesses are to its own formals.
  const ir::Function& f = fn(*m, "f");
  for (const auto& i : f.insts) {
    if (i.space != ir::StateSpace::Param) continue;
    for (const auto& op : i.ops) {
      if (op.kind == ir::OperandKind::Address && op.base == ir::OperandKind::Symbol) {
        EXPECT_TRUE(op.var == f.params[0] || op.var == f.returns[0]) << i.text;
      }
    }
  }
}

const std::string kDivergentRet = std::string(kHeader) + R"(
.func (.param .b32 rv) f(.param .b32 x)
{
	.reg .b32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u32 %r1, [x];
	mov.u32 %r2, 7;
	st.param.b32 [rv], %r2;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 ret;
	add.s32 %r3, %r1, 5;
	st.param.b32 [rv], %r3;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	.param .b32 r0;
	call.uni (r0), f, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd1], %r2;
	ret;
}
)";

TEST(Inline, DivergentReturnInCalleeReconvergesAfterTheCall) {
  auto m = load(kDivergentRet);
  const ir::Function& k = fn(*m, "k");
  uint32_t br = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < k.insts.size(); ++i)
    if (k.insts[i].op == Opcode::Bra) br = i;
  ASSERT_NE(br, 0xFFFFFFFFu);
  const ir::Instruction& b = k.insts[br];
  EXPECT_TRUE(b.has_guard);
  uint32_t after = find_inst(k, "ld.param.b32 %r2");  // now a move from the return slot
  ASSERT_NE(after, 0xFFFFFFFFu);
  EXPECT_EQ(k.insts[after].op, Opcode::Mov);
  EXPECT_EQ(b.ops[0].target, after);
  EXPECT_EQ(b.reconverge_pc, after);
  // Only the kernel's own ret remains.
  int rets = 0;
  for (const auto& i : k.insts) rets += i.op == Opcode::Ret;
  EXPECT_EQ(rets, 1);
}

TEST(Inline, RecursionIsAnErrorNamingTheCall) {
  const std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 rv) fact(.param .b32 x)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [x];
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	.param .b32 r0;
	call.uni (r0), fact, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.param.b32 [rv], %r2;
	ret;
}
.entry k()
{
	.reg .b32 %r<3>;
	mov.u32 %r1, 3;
	{
	.param .b32 b0;
	st.param.b32 [b0], %r1;
	.param .b32 s0;
	call.uni (s0), fact, (b0);
	ld.param.b32 %r2, [s0];
	}
	ret;
}
)";
  try {
    load(ptx, "rec.ptx");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("rec.ptx:13:", 0), 0u) << msg;  // the call inside fact
    EXPECT_NE(msg.find("recursive call to 'fact'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fact -> fact"), std::string::npos) << msg;
  }
}

TEST(Inline, MutualRecursionIsAnError) {
  const std::string ptx = std::string(kHeader) + R"(
.func a();
.func b()
{
	call.uni a, ();
	ret;
}
.func a()
{
	call.uni b, ();
	ret;
}
.entry k()
{
	call.uni a, ();
	ret;
}
)";
  try {
    load(ptx);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    EXPECT_NE(std::string(e.what()).find("a -> b -> a"), std::string::npos) << e.what();
  }
}

TEST(Inline, UnusedRecursiveFunctionIsLeftAlone) {
  const std::string ptx = std::string(kHeader) + R"(
.func r()
{
	call.uni r, ();
	ret;
}
.entry k()
{
	ret;
}
)";
  auto m = load(ptx);
  EXPECT_FALSE(call_free(fn(*m, "r")));
  EXPECT_TRUE(fn(*m, "k").analysis.done);
}

TEST(Inline, AggregateParameterStaysInLocalMemory) {
  const std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 rv) sum2(.param .align 8 .b8 s[8])
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [s];
	ld.param.u32 %r2, [s+4];
	add.s32 %r3, %r1, %r2;
	st.param.b32 [rv], %r3;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, 1;
	mov.u32 %r2, 2;
	{
	.param .align 8 .b8 param0[8];
	st.param.v2.u32 [param0], {%r1, %r2};
	.param .b32 retval0;
	call.uni (retval0), sum2, (param0);
	ld.param.b32 %r3, [retval0];
	}
	st.global.u32 [%rd1], %r3;
	ret;
}
)";
  auto m = load(ptx);
  const ir::Function& k = fn(*m, "k");
  expect_only_kernel_param_loads(*m, k);
  uint32_t p0 = var(*m, "param0");
  EXPECT_EQ(m->vars[p0].space, ir::StateSpace::Local);
  EXPECT_TRUE(m->vars[p0].from_call_param);
  EXPECT_EQ(k.local_bytes, 8u);  // the struct slot; the return value became a register
  EXPECT_EQ(k.var_offsets[p0], 0u);
  int local_loads = 0, local_stores = 0;
  for (const auto& i : k.insts) {
    local_loads += i.op == Opcode::Ld && i.space == ir::StateSpace::Local;
    local_stores += i.op == Opcode::St && i.space == ir::StateSpace::Local;
  }
  EXPECT_EQ(local_loads, 2);
  EXPECT_EQ(local_stores, 1);
}

TEST(Inline, GuardedCallAndRegisterArguments) {
  const std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 rv) inc(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [x];
	add.s32 %r2, %r1, 1;
	st.param.b32 [rv], %r2;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 call.uni (%r2), inc, (%r1);
	st.global.u32 [%rd1], %r2;
	ret;
}
)";
  auto m = load(ptx);
  const ir::Function& k = fn(*m, "k");
  EXPECT_TRUE(call_free(k));
  EXPECT_EQ(k.local_bytes, 0u);
  uint32_t skip = find_inst(k, "skip guarded call");
  ASSERT_NE(skip, 0xFFFFFFFFu);
  const ir::Instruction& b = k.insts[skip];
  EXPECT_TRUE(b.has_guard);
  EXPECT_TRUE(b.guard_negated);
  uint32_t st = find_inst(k, "st.global.u32");
  EXPECT_EQ(b.ops[0].target, st);
  EXPECT_EQ(b.reconverge_pc, st);
  // The result is written to %r2 only on the called path.
  bool writes_r2 = false;
  for (uint32_t i = skip + 1; i < st; ++i)
    if (!k.insts[i].ops.empty() && k.insts[i].ops[0].kind == ir::OperandKind::Reg &&
        k.regs[k.insts[i].ops[0].reg].name == "%r2")
      writes_r2 = true;
  EXPECT_TRUE(writes_r2);
}

TEST(Inline, SwitchEmptyBodyAndExitInCallees) {
  const std::string ptx = std::string(kHeader) + R"(
.func nop()
{
}
.func quit()
{
	exit;
}
.func (.param .b32 rv) sw(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [x];
	$Ltab: .branchtargets $L0, $L1;
	brx.idx %r1, $Ltab;
$L0:
	mov.u32 %r2, 10;
	bra.uni $Lend;
$L1:
	mov.u32 %r2, 20;
$Lend:
	st.param.b32 [rv], %r2;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r1, %r1, 1;
	call.uni nop, ();
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	.param .b32 r0;
	call.uni (r0), sw, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd1], %r2;
	setp.eq.s32 %p1, %r2, 20;
	@%p1 call.uni quit, ();
	ret;
}
)";
  auto m = load(ptx);
  const ir::Function& k = fn(*m, "k");
  EXPECT_TRUE(call_free(k));
  uint32_t brx = 0xFFFFFFFFu, exit_at = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < k.insts.size(); ++i) {
    if (k.insts[i].op == Opcode::BrxIdx) brx = i;
    if (k.insts[i].op == Opcode::Exit) exit_at = i;
  }
  ASSERT_NE(brx, 0xFFFFFFFFu);
  ASSERT_NE(exit_at, 0xFFFFFFFFu);
  const ir::Instruction& b = k.insts[brx];
  ASSERT_EQ(b.targets.size(), 2u);
  EXPECT_EQ(k.insts[b.targets[0]].text, "mov.u32 %r2, 10");
  EXPECT_EQ(k.insts[b.targets[1]].text, "mov.u32 %r2, 20");
  // Both cases meet at the callee's $Lend.
  EXPECT_EQ(k.insts[b.reconverge_pc].text, "st.param.b32 [rv], %r2");
  // The labels of the inlined body are renamed into the kernel.
  EXPECT_EQ(k.labels.at("$Lend$i2"), b.reconverge_pc);
  // `exit` in a callee stays a thread exit; the kernel's own ret stays.
  EXPECT_EQ(k.insts.back().op, Opcode::Ret);
  EXPECT_EQ(k.insts[exit_at - 1].op, Opcode::Bra);  // skip of the guarded call
}

TEST(Inline, SixtyFourBitParametersBecomeTypedMoves) {
  const std::string ptx = std::string(kHeader) + R"(
.func (.param .b64 rv) twice(.param .b64 x, .param .b32 y)
{
	.reg .f64 %fd<3>;
	.reg .b32 %r<2>;
	ld.param.f64 %fd1, [x];
	ld.param.u32 %r1, [y];
	add.f64 %fd2, %fd1, %fd1;
	st.param.f64 [rv], %fd2;
	ret;
}
.entry k(.param .u64 out)
{
	.reg .f64 %fd<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.f64 %fd1, 0d3FF8000000000000;
	{
	.param .b64 param0;
	st.param.f64 [param0], %fd1;
	.param .b32 param1;
	st.param.b32 [param1], 7;
	.param .b64 retval0;
	call.uni (retval0), twice, (param0, param1);
	ld.param.f64 %fd2, [retval0];
	}
	st.global.f64 [%rd1], %fd2;
	ret;
}
)";
  auto m = load(ptx);
  const ir::Function& k = fn(*m, "k");
  EXPECT_EQ(k.local_bytes, 0u);
  auto type_of = [&](const std::string& text) {
    uint32_t i = find_inst(k, text);
    EXPECT_NE(i, 0xFFFFFFFFu) << text;
    EXPECT_EQ(k.insts[i].op, Opcode::Mov) << text;
    return k.insts[i].type;
  };
  EXPECT_EQ(type_of("st.param.f64 [param0]"), ir::DataType::B64);
  EXPECT_EQ(type_of("st.param.b32 [param1], 7"), ir::DataType::B32);
  EXPECT_EQ(type_of("ld.param.f64 %fd1, [x]"), ir::DataType::B64);
  EXPECT_EQ(type_of("ld.param.u32 %r1, [y]"), ir::DataType::B32);
  EXPECT_EQ(type_of("st.param.f64 [rv]"), ir::DataType::B64);
  EXPECT_EQ(type_of("ld.param.f64 %fd2, [retval0]"), ir::DataType::B64);
  // The immediate argument is carried by the move.
  const ir::Instruction& imm = k.insts[find_inst(k, "st.param.b32 [param1], 7")];
  EXPECT_EQ(imm.ops[1].kind, ir::OperandKind::Imm);
  EXPECT_EQ(imm.ops[1].imm, 7u);
}


// 21 functions, each calling the next twice: inlining would copy the last
// one 2^20 times. The kernel is refused before any copy, as a PTX error
// naming the call chain (it used to take 15 GB and end as an internal error).
std::string doubling_chain_ptx(int levels) {
  std::string ptx = std::string(kHeader) + ".func f0()\n{\n\tret;\n}\n";
  for (int i = 1; i < levels; ++i) {
    ptx += ".func f" + std::to_string(i) + "()\n{\n\tcall.uni f" + std::to_string(i - 1) +
           ", ();\n\tcall.uni f" + std::to_string(i - 1) + ", ();\n\tret;\n}\n";
  }
  return ptx + ".entry k()\n{\n\tcall.uni f" + std::to_string(levels - 1) + ", ();\n\tret;\n}\n";
}

TEST(Inline, ExponentialInliningIsAPtxErrorNamingTheChain) {
  try {
    load(doubling_chain_ptx(21), "chain.ptx");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("chain.ptx:", 0), 0u) << msg;
    EXPECT_NE(msg.find("more than 1000000 instructions"), std::string::npos) << msg;
    EXPECT_NE(msg.find("call chain: k -> f20 -> f19 -> "), std::string::npos) << msg;
  }
}

TEST(Inline, ModerateNestedInliningStaysBelowTheCap) {
  // 2^9 copies of f0's body: well within the limit, fully inlined.
  auto m = load(doubling_chain_ptx(10));
  const ir::Function* k = m->find_kernel("k");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->rejected.empty());
  EXPECT_TRUE(call_free(*k));
}

TEST(Inline, AKernelThatCannotBeInlinedIsRejectedAloneAndTheOthersLoad) {
  const std::string ptx = std::string(kHeader) + R"(
.func r()
{
	call.uni r, ();
	ret;
}
.entry bad()
{
	call.uni r, ();
	ret;
}
.entry good(.param .u64 p)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;
	st.global.u32 [%rd1], %r1;
	ret;
}
)";
  auto m = load(ptx, "two.ptx");
  const ir::Function* good = m->find_kernel("good");
  const ir::Function* bad = m->find_kernel("bad");
  ASSERT_NE(good, nullptr);
  ASSERT_NE(bad, nullptr);
  EXPECT_TRUE(good->rejected.empty());
  EXPECT_TRUE(good->analysis.done);
  EXPECT_EQ(bad->rejected.rfind("two.ptx:", 0), 0u) << bad->rejected;
  EXPECT_NE(bad->rejected.find("recursive call to 'r'"), std::string::npos) << bad->rejected;
  ASSERT_EQ(bad->insts.size(), 1u);
  EXPECT_EQ(bad->insts[0].op, Opcode::Ret);
}

TEST(Inline, AnErrorInOneBodyRejectsOnlyTheKernelsThatReachIt) {
  // `frob` is not an instruction: the parser rejects helper's body (line 7)
  // and the kernel that calls helper, and keeps `fine` usable.
  const std::string ptx = std::string(kHeader) + R"(.func helper()
{
	{
	.reg .b32 %q;
	frob.u32 %q;
	}
	ret;
}
.entry calls_helper()
{
	call.uni helper, ();
	ret;
}
.entry bad_itself()
{
	mov.u32 %nosuch, 1;
	ret;
}
.entry fine()
{
	ret;
}
)";
  auto m = load(ptx, "mixed.ptx");
  ASSERT_NE(m->find_kernel("fine"), nullptr);
  EXPECT_TRUE(m->find_kernel("fine")->rejected.empty());
  const std::string via_call = m->find_kernel("calls_helper")->rejected;
  EXPECT_EQ(via_call.rfind("mixed.ptx:8:", 0), 0u) << via_call;
  EXPECT_NE(via_call.find("frob"), std::string::npos) << via_call;
  const std::string own = m->find_kernel("bad_itself")->rejected;
  EXPECT_EQ(own.rfind("mixed.ptx:19:", 0), 0u) << own;
  EXPECT_NE(own.find("%nosuch"), std::string::npos) << own;
}

TEST(Inline, AModuleWithNoUsableKernelIsAnErrorNamingTheFirstProblem) {
  const std::string ptx = std::string(kHeader) + R"(.entry a()
{
	frob.u32 %r1;
	ret;
}
.entry b()
{
	ret
)";
  // b's body never closes, so where it ends is unknown: b's error is the
  // module's (a's was kept as a's rejection).
  try {
    load(ptx, "broken.ptx");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    EXPECT_EQ(std::string(e.what()).find("broken.ptx:6:"), std::string::npos) << e.what();
  }
  const std::string only_bad = std::string(kHeader) + ".entry a()\n{\n\tfrob.u32 %r1;\n\tret;\n}\n";
  try {
    load(only_bad, "one.ptx");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("one.ptx:6:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace simtlm::frontend
