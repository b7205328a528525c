// Engine-level behaviour: identical results at warp widths 1/8/20/32/64,
// instruction counters, the extension semantics registry, trap, the
// deterministic clock, and a throughput measurement on sgemm.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <vector>

#include "frontend/ptx/extensions.h"
#include "functional/cta.h"
#include "functional/executor.h"
#include "functional/extensions.h"
#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/mix_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kMixFile = "functional/mix_nvcc_sm75.ptx";

// testbenches/data/functional/sgemm_tiled16_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kSgemmFile = "functional/sgemm_tiled16_nvcc_sm75.ptx";

struct MixRef {
  std::vector<int> out, hist;
};

MixRef mix_ref(const std::vector<int>& in, int ctas, int threads) {
  MixRef r{std::vector<int>(in.size(), -9), std::vector<int>(32, 0)};
  for (int b = 0; b < ctas; ++b) {
    std::vector<int> s(threads);
    for (int t = 0; t < threads; ++t) {
      const int v = in[b * threads + t];
      int acc = 0;
      for (int i = 0; i < (v & 15); ++i) acc += (v >> i) & 3;
      acc = (v & 1) ? acc * 3 : acc - 7;
      s[t] = acc;
    }
    for (int t = 0; t < threads; ++t) {
      if (t % 7 == 3) continue;
      const int x = s[(t + 5) % threads] + s[t];
      r.hist[x & 31]++;
      r.out[b * threads + t] = x;
    }
  }
  return r;
}

TEST(SimtEngine, SameResultsAtEveryWarpWidth) {
  const int ctas = 3, threads = 100;
  std::vector<int> in(ctas * threads);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>((i * 2654435761u) >> 7) & 0xFFFF;
  const MixRef ref = mix_ref(in, ctas, threads);
  for (unsigned w : {1u, 8u, 20u, 32u, 64u}) {
    Harness h(test_data::ptx(kMixFile));
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.upload(std::vector<int>(in.size(), -9));
    const uint64_t dhist = h.upload(std::vector<int>(32, 0));
    const LaunchCounters c = h.run("mix", dim(ctas), dim(threads), Args().add(din).add(dout).add(dhist), w);
    EXPECT_EQ(h.download<int>(dout, in.size()), ref.out) << "W=" << w;
    EXPECT_EQ(h.download<int>(dhist, 32), ref.hist) << "W=" << w;
    EXPECT_EQ(c.ctas, static_cast<uint64_t>(ctas));
    EXPECT_GT(c.thread_instructions, 0u);
  }
}

// testbenches/data/functional/counters_clock_trap.ptx (its header says what each kernel does).
const char* const kCountFile = "functional/counters_clock_trap.ptx";

TEST(SimtEngine, InstructionCounters) {
  Harness h(test_data::ptx(kCountFile));
  const LaunchCounters c = h.run("cnt", dim(3), dim(40), Args().add(uint64_t{0}));
  // Per CTA: warp 0 (32 lanes, lanes 0..7 branch to SKIP): mov, setp, bra, add (24 lanes), ret;
  // warp 1 (8 lanes, none branch): 5 instructions of 8 lanes.
  EXPECT_EQ(c.ctas, 3u);
  EXPECT_EQ(c.warp_instructions, 3u * 10);
  EXPECT_EQ(c.thread_instructions, 3u * ((32 + 32 + 32 + 24 + 32) + 5 * 8));
}

TEST(SimtEngine, DeterministicClock) {
  Harness h(test_data::ptx(kCountFile));
  const uint64_t out = h.alloc(8);
  h.run("clk", dim(1), dim(1), Args().add(out));
  EXPECT_EQ(h.read<uint64_t>(out), 3u);  // three warp instructions from read to read

  // With a timing model's cycle counter, %clock64 reads it.
  LaunchRequest req = h.request("clk", dim(1), dim(1), Args().add(out));
  LaunchContext ctx(req, h.memory());
  uint64_t cycles = 1000;
  ctx.set_cycle_counter(&cycles);
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  while (w.can_issue()) {
    execute(w, cta, ctx);
    cycles += 10;
  }
  EXPECT_EQ(h.read<uint64_t>(out), 30u);
}

TEST(SimtEngine, TrapIsADeviceFault) {
  Harness h(test_data::ptx(kCountFile));
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("trapper", dim(1), dim(32), Args().add(uint64_t{0}));
  });
  EXPECT_NE(msg.find("trap"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (5,0,0)"), std::string::npos) << msg;
}

// An extension instruction `simtlm_test.twice d, a` (d = 2a + lane) registered
// with the parser's registry, with and without executor semantics.
uint16_t test_extension_id(const char* mnemonic) {
  auto& reg = frontend::ptx::ExtensionRegistry::global();
  const int existing = reg.id_of(mnemonic);
  if (existing >= 0) return static_cast<uint16_t>(existing);
  frontend::ptx::ExtensionDef def;
  def.mnemonic = mnemonic;
  def.description = "test extension";
  def.max_types = 0;
  frontend::ptx::ExtOperand d;
  d.kinds = frontend::ptx::kExtReg;
  d.is_dst = true;
  d.type = ir::DataType::U32;
  frontend::ptx::ExtOperand a;
  a.kinds = frontend::ptx::kExtReg | frontend::ptx::kExtImm;
  a.type = ir::DataType::U32;
  def.operands = {d, a};
  return reg.add(std::move(def));
}

// testbenches/data/functional/extension_instructions.ptx (its header says what each kernel does).
const char* const kExtFile = "functional/extension_instructions.ptx";

TEST(SimtEngine, ExtensionSemanticsRegistry) {
  const uint16_t id = test_extension_id("simtlmtest.twice");
  test_extension_id("simtlmtest.missing");
  int calls = 0;
  register_extension_semantics(id, [&calls](ExtensionCall& call) {
    ++calls;
    const uint64_t* a = call.warp.reg(call.inst.ops[1].reg);
    uint64_t* d = call.warp.reg(call.inst.ops[0].reg);
    for (unsigned l = 0; l < call.warp.width(); ++l)
      if ((call.exec_mask >> l) & 1) d[l] = (2 * a[l] + l) & 0xFFFFFFFFu;
  });
  Harness h(test_data::ptx(kExtFile));
  const uint64_t out = h.alloc(48 * 4);
  h.run("ext", dim(1), dim(48), Args().add(out));
  auto v = h.download<uint32_t>(out, 48);
  for (uint32_t t = 0; t < 48; ++t) EXPECT_EQ(v[t], 2 * t + t % 32) << t;
  EXPECT_EQ(calls, 2);  // one per warp

  const std::string msg = expect_error(ErrorKind::Ptx, [&] {
    h.run("ext_missing", dim(1), dim(4), Args().add(out));
  });
  EXPECT_NE(msg.find("no registered semantics"), std::string::npos) << msg;
  EXPECT_NE(msg.find("test.ptx:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("simtlmtest.missing"), std::string::npos) << msg;
  unregister_extension_semantics(id);
}

TEST(SimtEngine, SgemmCorrectnessAndThroughput) {
  // SIMTLM_SGEMM_N overrides the size for throughput measurements.
  const char* env = std::getenv("SIMTLM_SGEMM_N");
  const int n = env ? std::max(16, std::atoi(env) / 16 * 16) : 128;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 13) * 0.25f - 1.0f;
    b[i] = static_cast<float>((i * 5) % 11) * 0.5f - 2.0f;
  }
  Harness h(test_data::ptx(kSgemmFile));
  const uint64_t da = h.upload(a), db = h.upload(b), dc = h.alloc(n * n * 4);
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const LaunchCounters c =
      h.run("sgemm", dim(n / 16, n / 16), dim(16, 16), Args().add(da).add(db).add(dc).add(n));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double secs = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  auto got = h.download<float>(dc, n * n);
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (int k = 0; k < n; ++k) acc = std::fma(a[row * n + k], b[k * n + col], acc);
      ASSERT_EQ(got[row * n + col], acc) << row << "," << col;
    }
  const double rate = static_cast<double>(c.warp_instructions) / secs;
  std::printf("[ perf     ] sgemm n=%d: %llu warp instructions in %.3f s CPU (%.3f s wall) = %.1f M warp-instructions/s\n",
              n, static_cast<unsigned long long>(c.warp_instructions), secs, wall, rate / 1e6);
  RecordProperty("warp_instructions_per_second", static_cast<int>(rate));
  EXPECT_GT(c.warp_instructions, 0u);
}

}  // namespace
}  // namespace simtlm::functional::test
