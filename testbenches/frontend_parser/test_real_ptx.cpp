// Parses real nvcc output and checks structure and printer round trips.
#include <gtest/gtest.h>

#include "frontend/ir/printer.h"
#include "parse_helpers.h"
#include "nvcc_samples.h"

using namespace simtlm;
using namespace simtlm::ir;
using parser_test::parse;
using namespace nvcc_samples;

namespace {

void expect_same_operand(const Operand& a, const Operand& b, const std::string& where) {
  ASSERT_EQ(static_cast<int>(a.kind), static_cast<int>(b.kind)) << where;
  EXPECT_EQ(a.negate, b.negate) << where;
  EXPECT_EQ(a.component, b.component) << where;
  EXPECT_EQ(static_cast<int>(a.sreg), static_cast<int>(b.sreg)) << where;
  EXPECT_EQ(static_cast<int>(a.base), static_cast<int>(b.base)) << where;
  if (a.kind == OperandKind::Reg || (a.kind == OperandKind::Address && a.base == OperandKind::Reg)) {
    EXPECT_EQ(a.reg, b.reg) << where;
  }
  if (a.kind == OperandKind::Symbol || (a.kind == OperandKind::Address && a.base == OperandKind::Symbol)) {
    EXPECT_EQ(a.var, b.var) << where;
  }
  EXPECT_EQ(a.offset, b.offset) << where;
  EXPECT_EQ(a.imm, b.imm) << where;
  if (a.kind == OperandKind::Label) {
    EXPECT_EQ(a.target, b.target) << where;
  }
  EXPECT_EQ(a.func, b.func) << where;
  ASSERT_EQ(a.elems.size(), b.elems.size()) << where;
  for (size_t i = 0; i < a.elems.size(); ++i) expect_same_operand(a.elems[i], b.elems[i], where);
}

void expect_same_instruction(const Instruction& a, const Instruction& b, const std::string& where) {
  EXPECT_EQ(static_cast<int>(a.op), static_cast<int>(b.op)) << where;
  EXPECT_EQ(a.ext_id, b.ext_id) << where;
  EXPECT_EQ(static_cast<int>(a.type), static_cast<int>(b.type)) << where;
  EXPECT_EQ(static_cast<int>(a.type2), static_cast<int>(b.type2)) << where;
  EXPECT_EQ(static_cast<int>(a.space), static_cast<int>(b.space)) << where;
  EXPECT_EQ(a.cvta_to, b.cvta_to) << where;
  EXPECT_EQ(a.has_guard, b.has_guard) << where;
  EXPECT_EQ(a.guard_negated, b.guard_negated) << where;
  EXPECT_EQ(a.guard_reg, b.guard_reg) << where;
  EXPECT_EQ(static_cast<int>(a.cmp), static_cast<int>(b.cmp)) << where;
  EXPECT_EQ(static_cast<int>(a.boolop), static_cast<int>(b.boolop)) << where;
  EXPECT_EQ(static_cast<int>(a.rounding), static_cast<int>(b.rounding)) << where;
  EXPECT_EQ(static_cast<int>(a.mul), static_cast<int>(b.mul)) << where;
  EXPECT_EQ(static_cast<int>(a.atom), static_cast<int>(b.atom)) << where;
  EXPECT_EQ(static_cast<int>(a.shfl), static_cast<int>(b.shfl)) << where;
  EXPECT_EQ(static_cast<int>(a.vote), static_cast<int>(b.vote)) << where;
  EXPECT_EQ(static_cast<int>(a.barrier), static_cast<int>(b.barrier)) << where;
  EXPECT_EQ(static_cast<int>(a.scope), static_cast<int>(b.scope)) << where;
  EXPECT_EQ(static_cast<int>(a.order), static_cast<int>(b.order)) << where;
  EXPECT_EQ(static_cast<int>(a.testp), static_cast<int>(b.testp)) << where;
  EXPECT_EQ(a.vec, b.vec) << where;
  EXPECT_EQ(a.sat, b.sat) << where;
  EXPECT_EQ(a.ftz, b.ftz) << where;
  EXPECT_EQ(a.approx, b.approx) << where;
  EXPECT_EQ(a.full, b.full) << where;
  EXPECT_EQ(a.cc, b.cc) << where;
  EXPECT_EQ(a.uni, b.uni) << where;
  EXPECT_EQ(a.shift_clamp, b.shift_clamp) << where;
  EXPECT_EQ(a.shift_left, b.shift_left) << where;
  EXPECT_EQ(a.volatile_, b.volatile_) << where;
  EXPECT_EQ(static_cast<int>(a.cache_op), static_cast<int>(b.cache_op)) << where;
  EXPECT_EQ(a.prmt_mode, b.prmt_mode) << where;
  EXPECT_EQ(a.lop3_lut, b.lop3_lut) << where;
  EXPECT_EQ(a.bar_red_op, b.bar_red_op) << where;
  EXPECT_EQ(a.dual_dst, b.dual_dst) << where;
  EXPECT_EQ(a.targets, b.targets) << where;
  ASSERT_EQ(a.ops.size(), b.ops.size()) << where;
  for (size_t i = 0; i < a.ops.size(); ++i)
    expect_same_operand(a.ops[i], b.ops[i], where + " operand " + std::to_string(i));
}

// parse -> print -> parse gives the same IR.
void round_trip(const std::string& text, const char* name) {
  auto m1 = parse(text, name);
  std::string printed = print_module(*m1);
  std::unique_ptr<Module> m2;
  try {
    m2 = parse(printed, std::string(name) + ".printed");
  } catch (const Error& e) {
    FAIL() << "printed module does not parse: " << e.what() << "\n" << printed;
  }
  ASSERT_EQ(m1->functions.size(), m2->functions.size());
  ASSERT_EQ(m1->vars.size(), m2->vars.size());
  for (size_t v = 0; v < m1->vars.size(); ++v) {
    const Variable& a = m1->vars[v];
    const Variable& b = m2->vars[v];
    EXPECT_EQ(static_cast<int>(a.space), static_cast<int>(b.space)) << a.name;
    EXPECT_EQ(a.size, b.size) << a.name;
    EXPECT_EQ(a.init, b.init) << a.name;
    EXPECT_EQ(a.address_inits, b.address_inits) << a.name;
    EXPECT_EQ(a.param_offset, b.param_offset) << a.name;
    EXPECT_EQ(a.is_extern, b.is_extern) << a.name;
    EXPECT_EQ(a.is_kernel_param, b.is_kernel_param) << a.name;
  }
  for (size_t f = 0; f < m1->functions.size(); ++f) {
    const Function& a = m1->functions[f];
    const Function& b = m2->functions[f];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.is_entry, b.is_entry);
    EXPECT_EQ(a.params, b.params);
    EXPECT_EQ(a.returns, b.returns);
    EXPECT_EQ(a.locals, b.locals);
    EXPECT_EQ(a.param_bytes, b.param_bytes);
    ASSERT_EQ(a.regs.size(), b.regs.size()) << a.name;
    for (size_t r = 0; r < a.regs.size(); ++r)
      EXPECT_EQ(static_cast<int>(a.regs[r].type), static_cast<int>(b.regs[r].type));
    ASSERT_EQ(a.insts.size(), b.insts.size()) << a.name;
    for (size_t i = 0; i < a.insts.size(); ++i)
      expect_same_instruction(a.insts[i], b.insts[i], a.name + " #" + std::to_string(i) + " '" + a.insts[i].text + "'");
  }
}

size_t count_op(const Module& m, Opcode op) {
  size_t n = 0;
  for (const auto& f : m.functions)
    for (const auto& i : f.insts) n += i.op == op;
  return n;
}

}  // namespace

TEST(RealPtx, BasicKernelsParse) {
  auto m = parse(test_data::ptx(kBasicKernels), kBasicKernels);
  EXPECT_EQ(m->version, "9.0");
  EXPECT_EQ(m->target, "sm_75");
  EXPECT_EQ(m->address_size, 64u);
  ASSERT_NE(m->find_kernel("_Z6vecaddPKfS0_Pfi"), nullptr);
  ASSERT_NE(m->find_kernel("_Z6reducePKfPfi"), nullptr);
  EXPECT_EQ(m->find_kernel("_Z6helperfi"), nullptr);  // a .func, not a kernel
  const Function& vecadd = *m->find_kernel("_Z6vecaddPKfS0_Pfi");
  ASSERT_EQ(vecadd.params.size(), 4u);
  EXPECT_EQ(vecadd.param_bytes, 28u);
  EXPECT_EQ(m->vars[vecadd.params[3]].param_offset, 24u);
  EXPECT_TRUE(m->vars[vecadd.params[0]].is_kernel_param);
  EXPECT_GT(count_op(*m, Opcode::Call), 0u);
  EXPECT_GT(count_op(*m, Opcode::Shfl), 0u);
  EXPECT_GT(count_op(*m, Opcode::Vote), 0u);
  EXPECT_GT(count_op(*m, Opcode::Atom), 0u);
  const Function& lb = *m->find_kernel("_Z2lbPiyy");
  EXPECT_EQ(lb.maxntid[0], 256u);
  EXPECT_EQ(lb.maxntid[1], 1u);
  EXPECT_EQ(lb.minnctapersm, 2u);
}

TEST(RealPtx, RdcKernelsParse) {
  auto m = parse(test_data::ptx(kRdcKernels), kRdcKernels);
  EXPECT_GT(count_op(*m, Opcode::Fence), 0u);
  EXPECT_GT(count_op(*m, Opcode::Nanosleep), 0u);
  EXPECT_GT(count_op(*m, Opcode::Prefetch), 0u);
}

TEST(RealPtx, FastMathParses) { parse(test_data::ptx(kFastMath), kFastMath); }
TEST(RealPtx, InitializersParse) { parse(test_data::ptx(kInitializers), kInitializers); }
TEST(RealPtx, DebugBuildParses) { parse(test_data::ptx(kDebugSwitch), kDebugSwitch); }

TEST(RealPtx, RoundTripBasic) { round_trip(test_data::ptx(kBasicKernels), kBasicKernels); }
TEST(RealPtx, RoundTripRdc) { round_trip(test_data::ptx(kRdcKernels), kRdcKernels); }
TEST(RealPtx, RoundTripFastMath) { round_trip(test_data::ptx(kFastMath), kFastMath); }
TEST(RealPtx, RoundTripInitializers) { round_trip(test_data::ptx(kInitializers), kInitializers); }
TEST(RealPtx, RoundTripDebug) { round_trip(test_data::ptx(kDebugSwitch), kDebugSwitch); }

TEST(RealPtx, WorkloadsSm80) {
  auto m = parse(test_data::ptx(kWorkloadsSm80), kWorkloadsSm80);
  EXPECT_EQ(m->target, "sm_80");
  EXPECT_GE(m->functions.size(), 10u);
  size_t redux = 0;
  for (const auto& f : m->functions)
    for (const auto& i : f.insts) redux += i.op == Opcode::Extension;
  EXPECT_GT(redux, 0u);
  const Function* scan = m->find_kernel("_Z4scanPii");
  ASSERT_NE(scan, nullptr);
  bool dynamic_shared = false;
  for (const Variable& v : m->vars) dynamic_shared = dynamic_shared || (v.is_extern && v.space == StateSpace::Shared);
  EXPECT_TRUE(dynamic_shared);
}

TEST(RealPtx, RoundTripWorkloadsSm80) { round_trip(test_data::ptx(kWorkloadsSm80), kWorkloadsSm80); }

// nvcc's cache-operator intrinsics: each global ld/st records its operator
// (ld.global.nc without one: __ldg) and prints back with it.
TEST(RealPtx, CacheOperatorsAreRecordedAndRoundTrip) {
  auto m = parse(test_data::ptx(kCacheOps), kCacheOps);
  ASSERT_EQ(m->functions.size(), 1u);
  std::vector<CacheOp> seen;
  for (const Instruction& i : m->functions[0].insts) {
    if ((i.op == Opcode::Ld || i.op == Opcode::St) && i.space == StateSpace::Global) seen.push_back(i.cache_op);
  }
  const std::vector<CacheOp> expected = {CacheOp::Ca, CacheOp::Cg, CacheOp::Cs, CacheOp::Lu,
                                         CacheOp::Cv, CacheOp::None, CacheOp::Cg, CacheOp::Wb,
                                         CacheOp::Cg, CacheOp::Cs, CacheOp::Wt, CacheOp::Cs};
  EXPECT_EQ(seen, expected);
  round_trip(test_data::ptx(kCacheOps), kCacheOps);
}

TEST(RealPtx, RejectedSamplesGiveOneClearError) {
  std::string indirect;
  try {
    parse(test_data::ptx(kIndirectCalls), kIndirectCalls);
  } catch (const Error& e) {
    indirect = e.what();
  }
  EXPECT_NE(indirect.find(std::string(kIndirectCalls) + ":"), std::string::npos) << indirect;
  EXPECT_NE(indirect.find("indirect calls are not supported"), std::string::npos) << indirect;
  std::string ext;
  try {
    parse(test_data::ptx(kExternCall), kExternCall);
  } catch (const Error& e) {
    ext = e.what();
  }
  EXPECT_NE(ext.find("declared but not defined"), std::string::npos) << ext;
}
