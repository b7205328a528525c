// The extension registry: registering instructions that research designs add
// and parsing them from inline asm.
#include <gtest/gtest.h>

#include "frontend/ptx/extensions.h"
#include "frontend/ptx/spu_extensions.h"
#include "parse_helpers.h"

using namespace simtlm;
using namespace simtlm::ir;
using namespace simtlm::frontend::ptx;
using namespace parser_test;

namespace {

// A registry with the kinds of instructions the modelled papers add (under
// names of their own: the SPU's ld.cb, st.cb and bar.blocksync are built-ins,
// frontend/ptx/spu_extensions.h).
struct TestRegistry {
  ExtensionRegistry reg;
  uint16_t relssp, ldcb, stcb, blocksync, fake;
  TestRegistry() {
    ExtensionDef r;
    r.mnemonic = "relreg";
    r.description = "release the shared scratchpad region";
    r.max_types = 0;
    relssp = reg.add(r);

    ExtensionDef ld;
    ld.mnemonic = "ld.tb";
    ld.type_required = true;
    ld.operands = {ExtOperand{kExtReg | kExtVector, true, DataType::None, false, {}},
                   ExtOperand{kExtAddress, false, DataType::None, false, {}}};
    ld.parse_modifier = [](std::string_view m, Instruction& inst, std::string&) {
      if (m == "v2" || m == "v4") {
        inst.vec = m == "v2" ? 2 : 4;
        return true;
      }
      return false;
    };
    ldcb = reg.add(ld);

    ExtensionDef st;
    st.mnemonic = "st.tb";
    st.type_required = true;
    st.operands = {ExtOperand{kExtAddress, false, DataType::None, false, {}},
                   ExtOperand{kExtReg | kExtImm, false, DataType::None, false, {}}};
    stcb = reg.add(st);

    ExtensionDef bs;
    bs.mnemonic = "bar.testsync";
    bs.max_types = 0;
    bs.operands = {ExtOperand{kExtName | kExtReg | kExtImm, false, DataType::U32, true,
                              {"NORTH", "WEST", "SOUTH", "EAST"}}};
    blocksync = reg.add(bs);

    ExtensionDef f;
    f.mnemonic = "fakeop";
    f.max_types = 2;
    f.allow_guard = false;
    f.operands = {ExtOperand{kExtReg, true, DataType::None, false, {}},
                  ExtOperand{kExtReg | kExtImm | kExtSpecial, false, DataType::U32, false, {}},
                  ExtOperand{kExtLabel, false, DataType::None, true, {}}};
    f.parse_modifier = [](std::string_view m, Instruction& inst, std::string& err) {
      if (m == "shared") {
        inst.space = StateSpace::Shared;
        return true;
      }
      if (m == "forbidden") err = "fakeop: .forbidden is not allowed";
      return false;
    };
    f.validate = [](const Instruction& inst, std::string& err) {
      if (inst.ops.size() >= 2 && inst.ops[1].kind == OperandKind::Imm && inst.ops[1].imm == 13)
        err = "fakeop: 13 is unlucky";
    };
    fake = reg.add(f);
  }
};

std::unique_ptr<Module> parse_with(const ExtensionRegistry& reg, const std::string& body) {
  return frontend::parse_ptx(kernel_text(body), "ext.ptx", reg);
}

std::string error_with(const ExtensionRegistry& reg, const std::string& body) {
  try {
    parse_with(reg, body);
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST(Extensions, BuiltinsArePresent) {
  ExtensionRegistry r;
  EXPECT_EQ(r.id_of("trap"), ExtensionRegistry::kTrap);
  EXPECT_EQ(r.id_of("bar.warp.sync"), ExtensionRegistry::kBarWarpSync);
  EXPECT_EQ(r.find(ExtensionRegistry::kTrap)->mnemonic, "trap");
  EXPECT_EQ(&ExtensionRegistry::global(), &ExtensionRegistry::global());
  EXPECT_GE(ExtensionRegistry::global().size(), 2u);
}

TEST(Extensions, RegisterAndParse) {
  TestRegistry t;
  auto m = parse_with(t.reg,
                      "  relreg;\n"
                      "  @%p1 ld.tb.f32 %f1, [%r1];\n"
                      "  ld.tb.v4.f32 {%f1, %f2, %f3, _}, [%rd1+16];\n"
                      "  st.tb.f32 [%r1], %f1;\n"
                      "  st.tb.u32 [%r1], 7;\n"
                      "  bar.testsync EAST;\n"
                      "  bar.testsync %r2;\n"
                      "  bar.testsync;\n"
                      "  fakeop.shared.u64.f32 %rd1, %tid.x, DONE;\n"
                      "  ld.global.f32 %f1, [%rd1];\n"
                      "DONE:\n");
  const Function& k = m->functions[0];
  ASSERT_EQ(k.insts.size(), 11u);
  const Instruction& rel = k.insts[0];
  EXPECT_EQ(rel.op, Opcode::Extension);
  EXPECT_EQ(rel.ext_id, t.relssp);
  EXPECT_TRUE(rel.ops.empty());
  EXPECT_EQ(rel.text, "relreg");
  const Instruction& ld = k.insts[1];
  EXPECT_EQ(ld.ext_id, t.ldcb);
  EXPECT_EQ(ld.type, DataType::F32);
  EXPECT_TRUE(ld.has_guard);
  ASSERT_EQ(ld.ops.size(), 2u);
  EXPECT_EQ(ld.ops[0].kind, OperandKind::Reg);
  EXPECT_EQ(ld.ops[1].kind, OperandKind::Address);
  EXPECT_EQ(ld.ops[1].base, OperandKind::Reg);
  const Instruction& ldv = k.insts[2];
  EXPECT_EQ(ldv.vec, 4);
  EXPECT_EQ(ldv.ops[0].kind, OperandKind::Vector);
  EXPECT_EQ(ldv.ops[0].elems[3].kind, OperandKind::Sink);
  EXPECT_EQ(ldv.ops[1].offset, 16);
  EXPECT_EQ(k.insts[3].ext_id, t.stcb);
  EXPECT_EQ(k.insts[4].ops[1].kind, OperandKind::Imm);
  const Instruction& bs = k.insts[5];
  EXPECT_EQ(bs.ext_id, t.blocksync);
  ASSERT_EQ(bs.ops.size(), 1u);
  EXPECT_EQ(bs.ops[0].kind, OperandKind::Imm);
  EXPECT_EQ(bs.ops[0].imm, 3u);  // EAST
  EXPECT_EQ(k.insts[6].ops[0].kind, OperandKind::Reg);
  EXPECT_TRUE(k.insts[7].ops.empty());
  const Instruction& f = k.insts[8];
  EXPECT_EQ(f.ext_id, t.fake);
  EXPECT_EQ(f.space, StateSpace::Shared);
  EXPECT_EQ(f.type, DataType::U64);
  EXPECT_EQ(f.type2, DataType::F32);
  ASSERT_EQ(f.ops.size(), 3u);
  EXPECT_EQ(f.ops[1].kind, OperandKind::Special);
  EXPECT_EQ(f.ops[2].kind, OperandKind::Label);
  EXPECT_EQ(f.ops[2].target, 10u);
  // Built-in ld is untouched by the ld.tb prefix.
  EXPECT_EQ(k.insts[9].op, Opcode::Ld);
  // The same text without the registry is an error.
  EXPECT_NE(kernel_error("relreg;").find("unknown instruction 'relreg'"), std::string::npos);
}

TEST(Extensions, SpuInstructionsAreBuiltInWithFixedIds) {
  ExtensionRegistry reg;
  EXPECT_EQ(reg.id_of("ld.cb.north"), spu::kLdCbNorth);
  EXPECT_EQ(reg.id_of("st.cb.east"), spu::kStCbEast);
  EXPECT_EQ(reg.id_of("bar.blocksync"), spu::kBlocksync);
  EXPECT_EQ(reg.id_of("bar.blocksync.west"), spu::kBlocksyncWest);
  EXPECT_EQ(reg.id_of("spu.sreg"), spu::kSreg);
  auto m = parse_with(reg,
                      "  ld.cb.north.f32 %f1, [%r1+8];\n"
                      "  st.cb.south.u32 [%r1], 7;\n"
                      "  bar.blocksync.east;\n"
                      "  bar.blocksync;\n"
                      "  spu.sreg.u32 %r2, iuid;\n"
                      "  ld.global.f32 %f1, [%rd1];\n");
  const Function& k = m->functions[0];
  ASSERT_EQ(k.insts.size(), 7u);  // and the final ret
  EXPECT_EQ(k.insts[0].ext_id, spu::kLdCbNorth);
  EXPECT_EQ(k.insts[0].type, DataType::F32);
  EXPECT_EQ(k.insts[0].ops[1].offset, 8);
  EXPECT_EQ(k.insts[1].ext_id, spu::kStCbSouth);
  EXPECT_EQ(k.insts[2].ext_id, spu::kBlocksyncEast);
  EXPECT_EQ(k.insts[3].ext_id, spu::kBlocksync);
  EXPECT_EQ(k.insts[4].ext_id, spu::kSreg);
  EXPECT_EQ(k.insts[4].ops[1].imm, static_cast<uint64_t>(spu::SpuReg::IuId));
  EXPECT_EQ(k.insts[5].op, Opcode::Ld);  // the built-in ld is untouched
}

TEST(Extensions, RelsspIsBuiltIn) {
  // Jatala's scratchpad release: every registry has it, without operands.
  ExtensionRegistry reg;
  EXPECT_EQ(reg.id_of("relssp"), ExtensionRegistry::kRelssp);
  EXPECT_EQ(ExtensionRegistry::global().id_of("relssp"), ExtensionRegistry::kRelssp);
  EXPECT_TRUE(reg.find(ExtensionRegistry::kRelssp)->operands.empty());
  EXPECT_NE(error_with(reg, "relssp %r1;").find("expects 0 operands"), std::string::npos);
}

TEST(Extensions, Errors) {
  TestRegistry t;
  EXPECT_NE(error_with(t.reg, "ld.tb %f1, [%r1];").find("needs a type"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "ld.tb.f32 %f1;").find("expects 2 operands"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "ld.tb.f32 %rd1, [%r1];").find("does not match"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "ld.tb.f32.bad %f1, [%r1];").find("unknown modifier '.bad'"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "relreg.u32;").find("unknown modifier '.u32'"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "relreg %r1;").find("expects 0 operands"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "bar.testsync UP;").find("undefined identifier 'UP'"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "@%p1 fakeop %r1, 1;").find("cannot be predicated"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "fakeop.forbidden %r1, 1;").find(".forbidden is not allowed"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "fakeop %r1, 13;").find("unlucky"), std::string::npos);
  EXPECT_NE(error_with(t.reg, "fakeop %r1, 1, NOLABEL;").find("undefined label 'NOLABEL'"), std::string::npos);
  ExtensionDef dup;
  dup.mnemonic = "relreg";
  EXPECT_THROW(t.reg.add(dup), Error);
  ExtensionDef bad_name;
  bad_name.mnemonic = "bad name";
  EXPECT_THROW(t.reg.add(bad_name), Error);
  ExtensionDef bad;
  bad.mnemonic = "opt.first";
  bad.operands = {ExtOperand{kExtReg, false, DataType::None, true, {}}, ExtOperand{kExtReg, false, DataType::None, false, {}}};
  EXPECT_THROW(t.reg.add(bad), Error);
}

TEST(Extensions, ModifierGroups) {
  ExtensionRegistry r;
  ExtensionDef d;
  d.mnemonic = "dirsync";
  d.max_types = 0;
  d.modifier_groups = {{{"north", "south"}, true}, {{"fast"}, false}};
  uint16_t id = r.add(d);
  auto m = frontend::parse_ptx(kernel_text("dirsync.north.fast;\n dirsync.south;"), "g.ptx", r);
  EXPECT_EQ(m->functions[0].insts[0].ext_id, id);
  auto err = [&](const std::string& body) {
    try {
      frontend::parse_ptx(kernel_text(body), "g.ptx", r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  EXPECT_NE(err("dirsync;").find("dirsync needs .north or .south"), std::string::npos);
  EXPECT_NE(err("dirsync.north.south;").find("conflicting modifier '.south'"), std::string::npos);
  EXPECT_NE(err("dirsync.north.slow;").find("unknown modifier '.slow'"), std::string::npos);
}

TEST(Extensions, LongestPrefixWins) {
  ExtensionRegistry r;
  ExtensionDef a;
  a.mnemonic = "foo";
  a.max_types = 3;
  uint16_t ida = r.add(a);
  ExtensionDef b;
  b.mnemonic = "foo.bar";
  uint16_t idb = r.add(b);
  size_t consumed = 0;
  EXPECT_EQ(r.match({"foo", "bar", "u32"}, consumed), idb);
  EXPECT_EQ(consumed, 2u);
  EXPECT_EQ(r.match({"foo", "u32"}, consumed), ida);
  EXPECT_EQ(consumed, 1u);
  EXPECT_EQ(r.match({"baz"}, consumed), -1);
}
