// Device printf in the front end: a called `.extern vprintf` gets the
// parser's definition, call inlining leaves the built-in `vprintf`
// instruction on registers in the kernel, and other signatures are rejected.
#include <gtest/gtest.h>

#include "frontend/load.h"
#include "frontend/ptx/extensions.h"
#include "parse_helpers.h"
#include "testbenches/common/test_data.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace parser_test;

namespace {

const char* const kPrintf = "nvcc/printf_sm75.ptx";  // testbenches/data/nvcc/printf.cu compiled by nvcc

bool is_vprintf(const Instruction& i) {
  return i.op == Opcode::Extension && i.ext_id == frontend::ptx::ExtensionRegistry::kVprintf;
}

TEST(Vprintf, CalledExternVprintfIsDefinedAroundTheBuiltinInstruction) {
  auto m = parse(test_data::ptx(kPrintf), kPrintf);
  ASSERT_TRUE(m->function_index.count("vprintf"));
  const Function& f = m->functions[m->function_index.at("vprintf")];
  EXPECT_FALSE(f.is_entry);
  ASSERT_EQ(f.params.size(), 2u);
  ASSERT_EQ(f.returns.size(), 1u);
  int builtins = 0;
  for (const Instruction& i : f.insts) builtins += is_vprintf(i);
  EXPECT_EQ(builtins, 1);
}

TEST(Vprintf, InliningLeavesTheInstructionOnRegistersInEveryKernel) {
  auto m = frontend::load_ptx_text(test_data::ptx(kPrintf), kPrintf);
  // print_conversions makes six printf calls.
  const Function* k = m->find_kernel("print_conversions");
  ASSERT_NE(k, nullptr);
  int calls = 0;
  for (const Instruction& i : k->insts) {
    EXPECT_NE(i.op, Opcode::Call) << i.text;
    if (!is_vprintf(i)) continue;
    ++calls;
    ASSERT_EQ(i.ops.size(), 3u);
    for (const Operand& o : i.ops) EXPECT_TRUE(o.kind == OperandKind::Reg || o.kind == OperandKind::Imm) << i.text;
  }
  EXPECT_EQ(calls, 6);
}

TEST(Vprintf, UncalledDeclarationStaysADeclaration) {
  auto m = parse(std::string(kHeader) +
                 ".extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);\n"
                 ".visible .entry k() { ret; }\n");
  EXPECT_FALSE(m->function_index.count("vprintf"));
}

TEST(Vprintf, OtherSignaturesAreRejected) {
  const std::string call = ".visible .entry k() {\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
                           " { .param .b64 p0;\n st.param.b64 [p0], %rd1;\n .param .b32 rv;\n"
                           "   call.uni (rv), vprintf, (p0);\n ld.param.b32 %r1, [rv]; }\n ret;\n}\n";
  const std::string msg =
      error_of(std::string(kHeader) + ".extern .func (.param .b32 r) vprintf (.param .b64 a);\n" + call);
  EXPECT_NE(msg.find("vprintf is declared with an unexpected signature"), std::string::npos) << msg;
  EXPECT_NE(msg.find("test.ptx:4:"), std::string::npos) << msg;
}

}  // namespace
