// The front-end pass pipeline: declared order, the load / launch-shape split,
// option checking (unknown passes and keys are errors), kernel variants and
// per-instruction annotations, with the test pass of
// testbenches/common/test_shape_pass.h.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/load.h"
#include "frontend/passes/pipeline.h"
#include "simtlm/error.h"
#include "testbenches/common/error_of.h"
#include "testbenches/common/test_shape_pass.h"

namespace simtlm::frontend {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using test::error_of;

// A pass that appends its name to `log` when it runs.
PassInfo logging_pass(const std::string& name, std::vector<std::string> after, std::vector<std::string>* log,
                      bool needs_launch = false) {
  PassInfo p;
  p.name = name;
  p.after = std::move(after);
  p.needs_launch_shape = needs_launch;
  p.run = [name, log](PassContext& c) {
    log->push_back(name + (c.launch ? "@" + std::to_string(c.launch->threads()) : ""));
  };
  return p;
}

std::vector<std::string> names(const std::vector<const PassInfo*>& passes) {
  std::vector<std::string> out;
  for (const PassInfo* p : passes) out.push_back(p->name);
  return out;
}

TEST(PassPipeline, OrderFollowsDeclaredDependenciesNotRegistration) {
  std::vector<std::string> log;
  PassRegistry r;
  r.add(logging_pass("c", {"b"}, &log));
  r.add(logging_pass("shape", {"a"}, &log, true));
  r.add(logging_pass("after_shape", {"shape"}, &log));
  r.add(logging_pass("b", {"a"}, &log));
  r.add(logging_pass("z", {}, &log));
  r.add(logging_pass("a", {}, &log));
  // Load-time passes first among those free to run, then by name.
  EXPECT_THAT(names(r.ordered()), ElementsAre("a", "b", "c", "z", "shape", "after_shape"));

  PassPipeline pipeline(r, PassOptions());
  EXPECT_THAT(pipeline.load_pass_names(), ElementsAre("a", "b", "c", "z"));
  // A pass after a launch-shape pass runs per variant too, though it needs no shape.
  EXPECT_THAT(pipeline.launch_pass_names(), ElementsAre("shape", "after_shape"));
  EXPECT_TRUE(pipeline.needs_launch_shape());

  ir::Module m;
  pipeline.run_load_passes(m);
  EXPECT_THAT(log, ElementsAre("a", "b", "c", "z"));
  log.clear();
  LaunchShape shape;
  shape.block[0] = 32;
  shape.block[1] = 2;
  pipeline.make_variant(m, shape);
  EXPECT_THAT(log, ElementsAre("shape@64", "after_shape@64"));
}

TEST(PassPipeline, DisabledPassesDoNotRunButKeepTheOrder) {
  std::vector<std::string> log;
  PassRegistry r;
  r.add(logging_pass("a", {}, &log));
  r.add(logging_pass("b", {"a"}, &log));
  r.add(logging_pass("c", {"b"}, &log));
  PassOptions o;
  o.enable("b", false);
  PassPipeline pipeline(r, o);
  EXPECT_THAT(pipeline.load_pass_names(), ElementsAre("a", "c"));
  EXPECT_FALSE(pipeline.needs_launch_shape());
}

TEST(PassPipeline, CyclesAndUnknownDependenciesAreErrors) {
  std::vector<std::string> log;
  PassRegistry r;
  r.add(logging_pass("a", {"b"}, &log));
  r.add(logging_pass("b", {"a"}, &log));
  r.add(logging_pass("free", {}, &log));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { r.ordered(); }), HasSubstr("cycle: a, b"));

  PassRegistry u;
  u.add(logging_pass("x", {"nope"}, &log));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { u.ordered(); }),
              HasSubstr("pass 'x' runs after unknown pass 'nope'"));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { u.add(logging_pass("x", {}, &log)); }),
              HasSubstr("'x' is registered twice"));
}

TEST(PassPipeline, BuiltInPassesAreTheLoadingSteps) {
  const PassPipeline standard = PassPipeline::standard();
  EXPECT_THAT(standard.load_pass_names(), ElementsAre("inline_calls", "layout_memory", "analyze"));
  EXPECT_FALSE(standard.needs_launch_shape());
}

TEST(PassOptions, UnknownPassesKeysAndBadValuesAreConfigErrors) {
  testing_passes::register_test_shape_pass();
  const PassRegistry& g = PassRegistry::global();
  auto pipeline = [&](const std::string& text) { PassPipeline(g, PassOptions::parse(text, "frontend.passes")); };

  std::string msg = error_of(ErrorKind::Config, [&] { pipeline("tset_shape.enabled=true"); });
  EXPECT_THAT(msg, HasSubstr("frontend.passes: unknown front-end pass 'tset_shape'"));
  EXPECT_THAT(msg, HasSubstr("analyze, inline_calls, layout_memory"));
  EXPECT_THAT(msg, HasSubstr("test_shape"));

  msg = error_of(ErrorKind::Config, [&] { pipeline("test_shape.enabled=true; test_shape.sclae=2"); });
  EXPECT_THAT(msg, HasSubstr("pass 'test_shape' has no option 'sclae' (options: scale, live)"));
  msg = error_of(ErrorKind::Config, [&] { pipeline("analyze.enabled=false"); });
  EXPECT_THAT(msg, HasSubstr("'analyze' is required and cannot be disabled"));
  msg = error_of(ErrorKind::Config, [&] { pipeline("test_shape.enabled=yes"); });
  EXPECT_THAT(msg, HasSubstr("option 'enabled' = 'yes' is not true or false"));
  msg = error_of(ErrorKind::Config, [&] { pipeline("test_shape=on"); });
  EXPECT_THAT(msg, HasSubstr("'test_shape=on' is not of the form pass.key=value"));
  msg = error_of(ErrorKind::Config, [&] { pipeline("test_shape.scale=1;test_shape.scale=2"); });
  EXPECT_THAT(msg, HasSubstr("option 'scale' is given twice"));

  // A bad parameter value is reported when the pass reads it.
  PassPipeline p(g, PassOptions::parse(" test_shape.enabled = true ; test_shape.scale=-3 ", "frontend.passes"));
  auto m = load_ptx_text(".version 8.0\n.target sm_75\n.address_size 64\n.entry k() { ret; }\n", "k.ptx", p);
  msg = error_of(ErrorKind::Config, [&] { p.make_variant(*m, LaunchShape()); });
  EXPECT_THAT(msg, HasSubstr("frontend.passes: pass 'test_shape' option 'scale' = '-3' is not an unsigned integer"));
}

TEST(PassOptions, CanonicalTextIsOrderIndependent) {
  const PassOptions a = PassOptions::parse("y.k=1; x.b=2; x.a=3", "o");
  const PassOptions b = PassOptions::parse("x.a=3;x.b=2;y.k=1", "o");
  EXPECT_EQ(a.canonical(), "x.a=3;x.b=2;y.k=1");
  EXPECT_EQ(a.canonical(), b.canonical());
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.params("x").u64("a", 0), 3u);
  EXPECT_EQ(a.params("x").u64("missing", 7), 7u);
  EXPECT_TRUE(PassOptions::parse("", "o").passes().empty());
}

const char* kLoop = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry count(.param .u64 p_out, .param .u32 p_n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [p_out];
	ld.param.u32 	%r1, [p_n];
	mov.u32 	%r2, 0;
$L_loop:
	add.s32 	%r2, %r2, 3;
	setp.lt.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L_loop;
	cvta.to.global.u64 	%rd2, %rd1;
	st.global.u32 	[%rd2], %r2;
	ret;
}
)";

TEST(PassPipeline, VariantsCarryTheirOwnAnnotationsAndShareTheAnalyses) {
  testing_passes::register_test_shape_pass();
  PassPipeline p(PassRegistry::global(), PassOptions::parse("test_shape.enabled=true;test_shape.scale=100", "t"));
  EXPECT_THAT(p.launch_pass_names(), ElementsAre("test_shape"));
  auto loaded = load_ptx_text(kLoop, "loop.ptx", p);
  const ir::Function& base = loaded->functions.at(0);
  EXPECT_TRUE(base.annotations.empty());  // launch-shape passes do not run at load

  LaunchShape s;
  s.block[0] = 8;
  s.block[2] = 4;
  auto v = p.make_variant(*loaded, s);
  const ir::Function& k = v->functions.at(0);
  EXPECT_TRUE(base.annotations.empty());
  EXPECT_EQ(k.analysis.analyses, base.analysis.analyses);  // shared, not recomputed
  EXPECT_THAT(k.annotations.names(), ElementsAre("test_shape.live_regs", "test_shape.shape"));
  const std::vector<uint64_t>* shape = k.annotations.find<uint64_t>("test_shape.shape");
  ASSERT_NE(shape, nullptr);
  ASSERT_EQ(shape->size(), k.insts.size());
  for (size_t pc = 0; pc < shape->size(); ++pc) EXPECT_EQ((*shape)[pc], 3200 + pc);

  // %r1 (n) and %r2 (the sum) are live into the loop's add, in registers;
  // before the loop (at the ld.param of n) only %rd1 is.
  const auto* live = k.annotations.find<std::vector<uint32_t>>("test_shape.live_regs");
  ASSERT_NE(live, nullptr);
  const uint32_t add = k.labels.at("$L_loop");
  const auto& phys = k.analysis.phys_regs;
  auto reg = [&](const std::string& name) {
    for (uint32_t r = 0; r < k.regs.size(); ++r)
      if (k.regs[r].name == name) return r;
    return ~0u;
  };
  for (const char* name : {"%r1", "%r2"}) {
    const uint32_t p32 = phys[reg(name)];
    if (p32 == ir::kConstantBank) continue;  // n may stay in the constant bank
    EXPECT_NE(std::find((*live)[add].begin(), (*live)[add].end(), p32), (*live)[add].end()) << name;
  }
  EXPECT_EQ(std::find((*live)[add].begin(), (*live)[add].end(), phys[reg("%r3")]), (*live)[add].end());
  EXPECT_EQ(k.annotations.find<uint64_t>("no.such"), nullptr);
}

TEST(Annotations, TypedColumnsOneValuePerInstruction) {
  ir::InstructionAnnotations a;
  a.attach<uint8_t>("greener.power_state", {0, 1, 2}, 3);
  const std::vector<uint8_t>* col = a.find<uint8_t>("greener.power_state");
  ASSERT_NE(col, nullptr);
  EXPECT_EQ((*col)[2], 2);
  EXPECT_TRUE(a.has("greener.power_state"));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { a.find<uint32_t>("greener.power_state"); }),
              HasSubstr("read with another type"));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { a.attach<uint8_t>("x", {0, 1}, 3); }),
              HasSubstr("'x' has 2 values for 3 instructions"));
  EXPECT_THAT(error_of(ErrorKind::Internal, [&] { a.attach<uint8_t>("greener.power_state", {0, 0, 0}, 3); }),
              HasSubstr("attached twice"));
  // Copies share the (immutable) columns and add their own.
  ir::InstructionAnnotations copy = a;
  copy.attach<double>("y", {1.5, 2.5, 3.5}, 3);
  EXPECT_EQ(copy.find<uint8_t>("greener.power_state"), col);
  EXPECT_FALSE(a.has("y"));
}

}  // namespace
}  // namespace simtlm::frontend
