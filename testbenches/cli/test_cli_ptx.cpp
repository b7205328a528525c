// `simtlm ptx`: the analysis report, PTX diagnostics, and running a user's
// kernel from a launch spec (invalid specs, outputs, faults).
#include <gmock/gmock.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "testbenches/cli/cli_harness.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm::test {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

class PtxCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    write("vec.ptx", kVecAddPtx);
  }

  void write_floats(const std::string& name, const std::vector<float>& v) {
    std::string bytes(v.size() * 4, '\0');
    std::memcpy(bytes.data(), v.data(), bytes.size());
    write(name, bytes);
  }
  std::vector<float> read_floats(const std::string& name) {
    std::string bytes = read_text(path(name));
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), v.size() * 4);
    return v;
  }

  // A valid vec_add spec over n elements; `edit` may change it before writing.
  std::string spec(uint32_t n, const std::function<void(nlohmann::json&)>& edit = {}) {
    nlohmann::json j = {
        {"grid", (n + 63) / 64},
        {"block", {64, 1, 1}},
        {"args", {{{"buffer", "a"}}, {{"buffer", "b"}}, {{"buffer", "c"}},
                  {{"type", "u32"}, {"value", n}}}},
        {"buffers",
         {{"a", {{"size_bytes", n * 4}, {"init", {{"file", "a.bin"}}}}},
          {"b", {{"size_bytes", n * 4}, {"init", {{"random", 3}, {"type", "f32"}}}}},
          {"c", {{"size_bytes", n * 4}, {"output", "c.bin"}}}}}};
    if (edit) edit(j);
    write("spec.json", j.dump(2));
    return "spec.json";
  }

  CliResult launch(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "spec.json",
                                     "--backend", "functional"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }

  // Expects exit 2 and `message` on stderr for a spec edited by `edit`.
  void expect_spec_error(const std::function<void(nlohmann::json&)>& edit, const std::string& message) {
    write_floats("a.bin", std::vector<float>(100, 1.0f));
    spec(100, edit);
    CliResult r = launch();
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_FALSE(std::filesystem::exists(path("c.bin")));
  }
};

TEST_F(PtxCliTest, ReportsKernelsParametersAndResources) {
  CliResult r = run({"ptx", "vec.ptx"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"kernel vec_add", "kernel bounded", "kernel capped", "vec_add_param_3",
                        ".u64", ".u32", "offset", "parameter bytes", "static shared",
                        "local per thread", "registers", "predicates", "max live registers",
                        "instructions", "basic blocks", "loops", ".reqntid 64x1x1",
                        ".maxntid 128x1x1", "1024 bytes"})
    EXPECT_THAT(r.out, HasSubstr(s));
}

// The loops row names the constant trip counts the static cost uses
// (frontend/analysis/static_cost.h): here 0, 3, 6, 9 pass and 12 stops.
TEST_F(PtxCliTest, ReportsConstantTripCounts) {
  write("loop.ptx", R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry counted(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, 0;
L:
  setp.lt.s32 %p1, %r1, 10;
  add.s32 %r1, %r1, 3;
  @%p1 bra L;
  ret;
}
)PTX");
  CliResult r = run({"ptx", "loop.ptx"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" 1 (constant trip count: 5)\n"));
}

TEST_F(PtxCliTest, KernelFilterAndUnknownKernel) {
  CliResult r = run({"ptx", "vec.ptx", "--kernel", "capped"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kernel capped"));
  EXPECT_THAT(r.out, Not(HasSubstr("kernel vec_add")));
  r = run({"ptx", "vec.ptx", "--kernel", "nosuch"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown kernel 'nosuch'"));
  EXPECT_THAT(r.err, HasSubstr("vec_add, bounded, capped"));
}

TEST_F(PtxCliTest, AKernelWithAnUnsupportedCallIsReportedAloneAndTheOthersRun) {
  // vec.ptx plus a kernel that calls a recursive function: only that kernel
  // is refused (at launch, naming the call chain); vec_add still runs.
  write("vec.ptx", std::string(kVecAddPtx) +
                       "\n.func rec()\n{\n\tcall.uni rec, ();\n\tret;\n}\n"
                       ".entry uses_rec()\n{\n\tcall.uni rec, ();\n\tret;\n}\n");
  CliResult r = run({"ptx", "vec.ptx"});
  EXPECT_EQ(r.code, 2) << r.err;  // the report is complete, the status says a kernel cannot run
  EXPECT_THAT(r.out, HasSubstr("kernel vec_add"));
  EXPECT_THAT(r.out, ContainsRegex("rejected +vec\\.ptx:[0-9]+:[0-9]+: error: recursive call to 'rec'"));
  EXPECT_THAT(r.err, HasSubstr("kernel 'uses_rec' rejected: vec.ptx:"));
  r = run({"ptx", "vec.ptx", "--kernel", "vec_add"});
  EXPECT_EQ(r.code, 0) << r.err;
  r = run({"ptx", "vec.ptx", "--kernel", "uses_rec"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("call chain: uses_rec -> rec -> rec"));

  write_floats("a.bin", std::vector<float>(100, 1.0f));
  spec(100);
  r = launch();
  EXPECT_EQ(r.code, 0) << r.err;
  r = run({"ptx", "vec.ptx", "--kernel", "uses_rec", "--launch", "spec.json", "--backend", "functional"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("recursive call to 'rec'"));
}

// GREENER's annotated listing (docs/greener.md): the store's source %f3 is
// dead afterwards, so OFF at any W; one kernel only with --kernel; --print
// and --power-states go together.
TEST_F(PtxCliTest, PowerStatesPrintsTheAnnotatedKernel) {
  CliResult r = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--power-states", "3", "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(".entry vec_add"));
  EXPECT_THAT(r.out, Not(HasSubstr(".entry capped")));
  EXPECT_THAT(r.out, HasSubstr("st.global.f32 [%rd10], %f3, OFF;"));
  EXPECT_EQ(run({"ptx", "vec.ptx", "--power-states", "3"}).code, 2);
  EXPECT_EQ(run({"ptx", "vec.ptx", "--power-states", "0", "--print"}).code, 2);
}

TEST_F(PtxCliTest, MalformedPtxGivesFileLineColumn) {
  const MalformedPtx bad = malformed_vec_add();
  write("bad.ptx", bad.text);
  CliResult r = run({"ptx", "bad.ptx"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ContainsRegex("bad\\.ptx:" + std::to_string(bad.line) + ":[0-9]+: error"));
  // vec_add alone is refused: the file's other kernels are reported and usable.
  EXPECT_THAT(r.err, HasSubstr("kernel 'vec_add' rejected"));
  EXPECT_THAT(r.out, HasSubstr("kernel capped"));
  r = run({"ptx", "bad.ptx", "--kernel", "vec_add"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ContainsRegex("bad\\.ptx:" + std::to_string(bad.line) + ":[0-9]+: error"));
  EXPECT_TRUE(r.out.empty());
  r = run({"ptx", "bad.ptx", "--kernel", "capped"});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(PtxCliTest, MissingFileAndMissingArgument) {
  CliResult r = run({"ptx", "nosuch.ptx"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("nosuch.ptx"));
  r = run({"ptx"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing the PTX file"));
  r = run({"ptx", "vec.ptx", "--stats"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("only meaningful with --launch"));
  r = run({"ptx", "vec.ptx", "--warp-size", "16"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--warp-size is only meaningful with --launch"));
}

TEST_F(PtxCliTest, LaunchWritesOutputBufferNextToTheSpec) {
  const uint32_t n = 200;
  std::vector<float> a(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i);
  write_floats("a.bin", a);
  // b = 0 here so that c must equal a exactly.
  spec(n, [](nlohmann::json& j) { j["buffers"]["b"]["init"] = "zero"; });
  CliResult r = launch();
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("vec_add"));
  EXPECT_THAT(r.out, HasSubstr("CTAs"));
  EXPECT_THAT(r.out, HasSubstr("warp instructions"));
  EXPECT_EQ(read_floats("c.bin"), a);
}

TEST_F(PtxCliTest, LaunchRandomInitIsDeterministicAndOutputGoesToOutDir) {
  const uint32_t n = 128;
  write_floats("a.bin", std::vector<float>(n, 0.0f));
  spec(n);
  CliResult r = launch({"--out", "res", "--warp-size", "8"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path("c.bin")));
  std::vector<float> c = read_floats("res/c.bin");
  ASSERT_EQ(c.size(), n);
  for (float v : c) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
  EXPECT_NE(c[0], c[1]);
  nlohmann::json stats = nlohmann::json::parse(read_text(path("res/stats.json")));
  EXPECT_EQ(stats["kernel"], "vec_add");
  EXPECT_EQ(stats["ctas"], 2);
  EXPECT_EQ(stats["warp_size"], 8);
  EXPECT_EQ(stats["result"], "DONE");
  // Same seed, same bytes.
  ASSERT_EQ(launch({"--out", "res2"}).code, 0);
  EXPECT_EQ(read_floats("res2/c.bin"), c);
}

TEST_F(PtxCliTest, LaunchOutOfBoundsIsExit3AndWritesNoOutput) {
  write_floats("a.bin", std::vector<float>(100, 1.0f));
  // n = 100 but c has room for 10 floats.
  spec(100, [](nlohmann::json& j) { j["buffers"]["c"]["size_bytes"] = 40; });
  CliResult r = launch({"--out", "res"});
  EXPECT_EQ(r.code, 3) << r.err;
  // One label: the error kind says "device fault", the message does not repeat it.
  EXPECT_THAT(r.err, HasSubstr("device fault: out-of-bounds global store"));
  EXPECT_THAT(r.err, Not(HasSubstr("device fault: device fault")));
  EXPECT_FALSE(std::filesystem::exists(path("res/c.bin")));
  EXPECT_FALSE(std::filesystem::exists(path("res/stats.json")));
}

TEST_F(PtxCliTest, SpecUnknownBuffer) {
  expect_spec_error([](nlohmann::json& j) { j["args"][2] = {{"buffer", "xs"}}; },
                    "spec.json: args[2]: unknown buffer 'xs' (buffers: a, b, c)");
}

TEST_F(PtxCliTest, SpecArgumentCountAndSize) {
  expect_spec_error([](nlohmann::json& j) { j["args"].erase(3); },
                    "spec.json: args: kernel 'vec_add' takes 4 argument(s)");
  expect_spec_error([](nlohmann::json& j) { j["args"][3]["type"] = "u64"; },
                    "spec.json: args[3]: type u64 has 8 bytes but parameter 'vec_add_param_3' of "
                    "kernel 'vec_add' is .u32 (4 bytes)");
  expect_spec_error([](nlohmann::json& j) { j["args"][0] = {{"type", "u32"}, {"value", 1}}; },
                    "spec.json: args[0]: type u32 has 4 bytes but parameter 'vec_add_param_0'");
}

TEST_F(PtxCliTest, SpecBadValues) {
  expect_spec_error([](nlohmann::json& j) { j["args"][3]["value"] = -1; },
                    "spec.json: args[3].value: negative value -1 for unsigned type .u32");
  expect_spec_error([](nlohmann::json& j) { j["args"][3]["value"] = 5000000000ull; },
                    "args[3].value: 5000000000 does not fit in .u32");
  expect_spec_error([](nlohmann::json& j) { j["args"][3]["type"] = "u33"; },
                    "args[3].type: unknown type 'u33'");
  expect_spec_error([](nlohmann::json& j) { j["args"][3].erase("value"); },
                    "args[3]: missing 'value'");
  expect_spec_error([](nlohmann::json& j) { j["grid"] = {1, 0}; },
                    "spec.json: grid[1]: value 0 is outside 1..");
  expect_spec_error([](nlohmann::json& j) { j.erase("block"); }, "spec.json: missing 'block'");
}

TEST_F(PtxCliTest, ByValueAggregateParametersTakeRawBytesOrAFile) {
  write("agg.ptx", R"(.version 7.5
.target sm_75
.address_size 64
.visible .entry agg(.param .align 8 .b8 agg_param_0[16], .param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u32 %r1, [agg_param_0];
	ld.param.u32 %r2, [agg_param_0+12];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r1;
	st.global.u32 [%rd2+4], %r2;
	ret;
}
)");
  auto run_with = [&](const nlohmann::json& first) {
    nlohmann::json j = {{"grid", 1}, {"block", 1}, {"args", {first, {{"buffer", "o"}}}},
                        {"buffers", {{"o", {{"size_bytes", 8}, {"output", "o.bin"}}}}}};
    write("agg.json", j.dump());
    return run({"ptx", "agg.ptx", "--launch", "agg.json", "--backend", "functional"});
  };
  CliResult r = run_with({{"bytes", "2a000000 00000000 00000000 efbeadde"}});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string out = read_text(path("o.bin"));
  ASSERT_EQ(out.size(), 8u);
  uint32_t got[2];
  std::memcpy(got, out.data(), 8);
  EXPECT_EQ(got[0], 42u);
  EXPECT_EQ(got[1], 0xdeadbeefu);

  std::string file(16, '\0');
  file[0] = 7;
  file[12] = 9;
  write("agg.bin", file);
  r = run_with({{"file", "agg.bin"}});
  ASSERT_EQ(r.code, 0) << r.err;
  out = read_text(path("o.bin"));
  std::memcpy(got, out.data(), 8);
  EXPECT_EQ(got[0], 7u);
  EXPECT_EQ(got[1], 9u);

  std::vector<int> sixteen(16, 0);
  sixteen[0] = 5;
  r = run_with({{"bytes", sixteen}});
  EXPECT_EQ(r.code, 0) << r.err;

  r = run_with({{"bytes", "2a00"}});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("args[0]: the bytes given are 2 bytes but parameter 'agg_param_0'"));
  r = run_with({{"bytes", "2g"}});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("args[0].bytes: 'g' is not a hex digit"));
  r = run_with({{"bytes", {1, 256}}});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("args[0].bytes[1]"));
  r = run_with({{"file", "nosuch.bin"}});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("args[0].file: input file"));
}

TEST_F(PtxCliTest, SpecUnknownKeysAndInits) {
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["c"]["sise_bytes"] = 4; },
                    "spec.json: buffers.c: unknown key 'sise_bytes'");
  expect_spec_error([](nlohmann::json& j) { j["gird"] = 1; }, "spec.json: unknown key 'gird'");
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["b"]["init"] = "ones"; },
                    "spec.json: buffers.b.init: unknown init 'ones'");
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["a"]["init"]["file"] = "missing.bin"; },
                    "buffers.a.init.file: input file");
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["a"]["size_bytes"] = 8; },
                    "buffers.a.init.file: input file");
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["c"].erase("size_bytes"); },
                    "spec.json: buffers.c: missing 'size_bytes'");
  expect_spec_error([](nlohmann::json& j) { j["buffers"]["b"]["output"] = "c.bin"; },
                    "is also the output of another buffer");
}

// Issue "Hardening": an output naming one of the spec's own input files
// overwrote it, so a rerun read the result as its input.
TEST_F(PtxCliTest, AnOutputThatNamesAnInputFileIsRefusedAndTheInputKept) {
  const std::vector<float> a(100, 1.0f);
  write_floats("a.bin", a);
  spec(100, [](nlohmann::json& j) { j["buffers"]["c"]["output"] = "a.bin"; });
  CliResult r = launch();
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("buffers.c.output"));
  EXPECT_THAT(r.err, HasSubstr("is the input file of buffers.a.init.file"));
  EXPECT_EQ(read_floats("a.bin"), a);
  // Through another spelling of the same path, and into --out DIR holding the input.
  spec(100, [](nlohmann::json& j) { j["buffers"]["c"]["output"] = "./sub/../a.bin"; });
  std::filesystem::create_directories(path("sub"));
  r = launch();
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("is the input file of buffers.a.init.file"));
  EXPECT_EQ(read_floats("a.bin"), a);
}

TEST_F(PtxCliTest, ScalarsOutOfRangeOrOfTheOtherClassThanTheirParameterAreRefused) {
  expect_spec_error([](nlohmann::json& j) { j["args"][3] = {{"type", "f32"}, {"value", 1e39}}; },
                    "args[3].value: 1e+39 is beyond the range of .f32");
  // A float for the kernel's .u32 n would pass its bit pattern as the count.
  expect_spec_error([](nlohmann::json& j) { j["args"][3] = {{"type", "f32"}, {"value", 100.0}}; },
                    "args[3].type: .f32 is a float but parameter");
  // A .b32 value states bits: accepted for the .u32 parameter.
  write_floats("a.bin", std::vector<float>(100, 1.0f));
  spec(100, [](nlohmann::json& j) { j["args"][3] = {{"type", "b32"}, {"value", 100}}; });
  CliResult r = launch();
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(PtxCliTest, ABlockZAboveCudasLimitIsRefused) {
  expect_spec_error([](nlohmann::json& j) { j["block"] = {1, 1, 65}; },
                    "block[2]: 65 is above CUDA's limit of 64 for a block's z dimension");
}

TEST_F(PtxCliTest, OptionsThatWouldBeIgnoredAreRefused) {
  write_floats("a.bin", std::vector<float>(100, 1.0f));
  spec(100);
  // A trace needs the timing backend.
  CliResult r = launch({"--out", "o", "--trace", "vcd"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--trace needs the timing backend"));
  // Without --launch nothing runs, so no backend is used.
  r = run({"ptx", "vec.ptx", "--backend", "functional"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--backend is only meaningful with --launch"));
  r = run({"ptx", "vec.ptx"});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(PtxCliTest, SpecFileProblems) {
  write("bad.json", "{ \"grid\": 1, ");
  CliResult r = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "bad.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.json:1:"));
  EXPECT_THAT(r.err, HasSubstr("malformed JSON"));
  // The launch spec goes through the loaders' one JSON path: an overflowing
  // number and a member given twice are errors with their place.
  write("huge.json", "{\"grid\": 1,\n \"block\": 1e400}");
  r = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "huge.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("huge.json:2:11: number 1e400 is beyond the range of a double"));
  write("twice.json", "{\"grid\": 1, \"grid\": 2}");
  r = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "twice.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("twice.json:1:13: member \"grid\" is given twice in one object"));
  r = run({"ptx", "vec.ptx", "--kernel", "vec_add", "--launch", "none.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("launch spec 'none.json' not found"));
  write_floats("a.bin", std::vector<float>(100, 1.0f));
  spec(100);
  r = run({"ptx", "vec.ptx", "--launch", "spec.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("several kernels"));
  r = run({"ptx", "vec.ptx", "--kernel", "nosuch", "--launch", "spec.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown kernel 'nosuch'"));
}

TEST_F(PtxCliTest, LaunchLimitErrorsExit2) {
  write_floats("a.bin", std::vector<float>(100, 1.0f));
  spec(100, [](nlohmann::json& j) { j["block"] = 2048; });
  CliResult r = launch();
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("launch error"));
  EXPECT_THAT(r.err, HasSubstr("more than the limit of 1024"));
}

}  // namespace
}  // namespace simtlm::test

namespace simtlm::test {
namespace {

// Jatala's relssp placement on a kernel with a taken critical edge: the
// printed PTX marks the inserted instructions, summarises them per kernel and
// parses again (docs/sm-model.md, "Resource sharing").
const char* const kEdgePtx = R"PTX(.version 7.0
.target sm_70
.address_size 64
.visible .entry edge(.param .u32 n)
{
  .shared .align 4 .b8 tile[256];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r4, tile;
  st.shared.u32 [%r4], %r2;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra JOIN;
  ld.shared.u32 %r6, [%r4];
JOIN:
  add.u32 %r7, %r2, 1;
  ret;
}
)PTX";

TEST_F(CliTest, PtxRelsspPrintMarksTheInsertedInstructionsAndReparses) {
  write("edge.ptx", kEdgePtx);
  const CliResult r = run({"ptx", "edge.ptx", "--relssp", "opt", "--print"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("// relssp: kernel edge: 2 relssp, 1 split-edge instruction(s) inserted"));
  // Longest path: 6 entry instructions, the split edge's relssp + bra.uni,
  // JOIN's add + ret = 10; after the split edge's relssp: bra.uni + 2 = 3.
  EXPECT_THAT(r.out, ::testing::HasSubstr("after the release at most 3 of 10 instructions on the longest path (30.0 %"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("ld.shared.u32 %r6, [%r4];\n\trelssp;\t// relssp: inserted\nJOIN:"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("\trelssp;\t// relssp: inserted\n\tbra.uni JOIN;\t// relssp: branch of a split edge"));
  write("printed.ptx", r.out);
  const CliResult again = run({"ptx", "printed.ptx", "--print"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, ::testing::HasSubstr("bra.uni JOIN;\n"));  // reparsed: now an ordinary instruction
  const CliResult postdom = run({"ptx", "edge.ptx", "--relssp", "postdom", "--print"});
  EXPECT_THAT(postdom.out, ::testing::HasSubstr("JOIN:\n\trelssp;\t// relssp: inserted\n\tadd.u32"));
  const CliResult bad = run({"ptx", "edge.ptx", "--relssp", "later"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, ::testing::HasSubstr("--relssp 'later' is not opt, postdom or exit"));
}

}  // namespace
}  // namespace simtlm::test
