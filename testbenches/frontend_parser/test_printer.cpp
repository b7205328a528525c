// The IR printer: readable, re-parseable PTX.
#include <gtest/gtest.h>

#include "frontend/ir/printer.h"
#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;

TEST(Printer, InstructionsAndOperands) {
  auto m = parse_kernel(
      "  @!%p1 ld.global.nc.v2.f32 {%f1, _}, [%rd1+-8];\n"
      "  st.volatile.shared.u32 [smem+4], 7;\n"
      "  setp.ltu.or.ftz.f32 %p1|%p2, %f1, 0f3F800000, !%p3;\n"
      "  mov.u32 %r1, %ctaid.z;\n"
      "  mov.u64 %rd1, smem+16;\n"
      "  cvt.rzi.s32.f64 %r1, %fd1;\n"
      "  mul.wide.s32 %rd1, %r1, -4;\n"
      "  fma.rn.f64 %fd1, %fd2, 0d3FF8000000000000, %fd3;\n"
      "  shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"
      "  atom.release.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;\n"
      "  trap;\n");
  const Function& k = m->functions[0];
  auto p = [&](size_t i) { return print_instruction(*m, k, k.insts[i]); };
  EXPECT_EQ(p(0), "@!%p1 ld.global.v2.f32 {%f1, _}, [%rd1+-8]");
  EXPECT_EQ(p(1), "st.volatile.shared.u32 [smem+4], 7");
  EXPECT_EQ(p(2), "setp.ltu.or.ftz.f32 %p1|%p2, %f1, 0f3F800000, !%p3");
  EXPECT_EQ(p(3), "mov.u32 %r1, %ctaid.z");
  EXPECT_EQ(p(4), "mov.u64 %rd1, smem+16");
  EXPECT_EQ(p(5), "cvt.rzi.s32.f64 %r1, %fd1");
  EXPECT_EQ(p(6), "mul.wide.s32 %rd1, %r1, -4");
  EXPECT_EQ(p(7), "fma.rn.f64 %fd1, %fd2, 0d3FF8000000000000, %fd3");
  EXPECT_EQ(p(8), "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1");
  EXPECT_EQ(p(9), "atom.release.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3");
  EXPECT_EQ(p(10), "trap");
  EXPECT_EQ(print_operand(*m, k, k.insts[0].ops[1]), "[%rd1+-8]");
  EXPECT_EQ(opcode_name(Opcode::BrxIdx), "brx.idx");
}

TEST(Printer, ModuleReparses) {
  const std::string text = std::string(kHeader) +
                           ".global .u32 g = 5;\n"
                           ".global .align 8 .u64 tab[2] = {generic(g), generic(g)+4};\n"
                           ".visible .entry k(.param .u64 p)\n.maxntid 64, 1, 1\n{\n"
                           "  .reg .b32 %r<3>;\n  .reg .pred %p;\n"
                           "  { .reg .b32 t;\n  mov.u32 t, 1;\n  }\n  { .reg .b32 t;\n  mov.u32 t, 2;\n  }\n"
                           "ts: .branchtargets A, B;\n  brx.idx %r1, ts;\nA:\n  @%p bra B;\nB:\n  ret;\n}\n";
  auto m = parse(text);
  std::string printed = print_module(*m);
  EXPECT_NE(printed.find(".reg .b32 %r<3>;"), std::string::npos) << printed;
  EXPECT_NE(printed.find("t$4"), std::string::npos) << printed;  // duplicate names are made unique
  EXPECT_NE(printed.find("{generic(g), generic(g)+4}"), std::string::npos) << printed;
  EXPECT_NE(printed.find(".maxntid 64, 1, 1"), std::string::npos) << printed;
  auto m2 = parse(printed, "printed.ptx");
  const Function& a = m->functions[0];
  const Function& b = m2->functions[0];
  ASSERT_EQ(a.insts.size(), b.insts.size());
  EXPECT_EQ(a.insts[2].targets, b.insts[2].targets);
  EXPECT_EQ(a.insts[3].ops[0].target, b.insts[3].ops[0].target);
  EXPECT_EQ(a.insts[1].ops[0].reg, b.insts[1].ops[0].reg);
  EXPECT_EQ(m->vars[1].init, m2->vars[1].init);
  EXPECT_EQ(m->vars[1].address_inits, m2->vars[1].address_inits);
}

TEST(Printer, ExtensionsUseUniqueNames) {
  auto m = parse_kernel("  { .reg .b32 t;\n  bmsk.clamp.b32 t, %r1, 3;\n  }\n"
                        "  { .reg .b32 t;\n  @!%p1 redux.sync.add.u32 t, %r2, -1;\n  }\n  @%p1 trap;\n");
  std::string printed = print_module(*m);
  const Function& k = m->functions[0];
  uint32_t t1 = k.insts[0].ops[0].reg, t2 = k.insts[1].ops[0].reg;
  EXPECT_NE(printed.find("bmsk.clamp.b32 t$" + std::to_string(t1) + ", %r1, 3"), std::string::npos) << printed;
  EXPECT_NE(printed.find("@!%p1 redux.sync.add.u32 t$" + std::to_string(t2) + ", %r2, -1"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("@%p1 trap;"), std::string::npos) << printed;
  auto m2 = parse(printed, "printed.ptx");
  EXPECT_EQ(m2->functions[0].insts[1].ops[0].reg, t2);
}
