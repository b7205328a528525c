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

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of `mix`: per-thread loop with a data-dependent
// trip count, if/else, shared memory + __syncthreads, early return of some
// threads, a shared histogram in global memory (atomicAdd), a second barrier.
const char* const kMixPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	mix
// _ZZ3mixE1s has been demoted

.visible .entry mix(
	.param .u64 mix_param_0,
	.param .u64 mix_param_1,
	.param .u64 mix_param_2
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<43>;
	.reg .b64 	%rd<15>;
	// demoted variable
	.shared .align 4 .b8 _ZZ3mixE1s[1024];

	ld.param.u64 	%rd4, [mix_param_0];
	ld.param.u64 	%rd2, [mix_param_1];
	ld.param.u64 	%rd3, [mix_param_2];
	mov.u32 	%r1, %ntid.x;
	mov.u32 	%r12, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	mad.lo.s32 	%r13, %r12, %r1, %r2;
	cvt.s64.s32 	%rd1, %r13;
	cvta.to.global.u64 	%rd5, %rd4;
	mul.wide.s32 	%rd6, %r13, 4;
	add.s64 	%rd7, %rd5, %rd6;
	ld.global.u32 	%r3, [%rd7];
	and.b32  	%r4, %r3, 15;
	setp.eq.s32 	%p1, %r4, 0;
	mov.u32 	%r42, 0;
	@%p1 bra 	$L__BB0_3;

	mov.u32 	%r40, 0;
	mov.u32 	%r42, %r40;

$L__BB0_2:
	shr.s32 	%r16, %r3, %r40;
	and.b32  	%r17, %r16, 3;
	add.s32 	%r42, %r17, %r42;
	add.s32 	%r40, %r40, 1;
	setp.lt.u32 	%p2, %r40, %r4;
	@%p2 bra 	$L__BB0_2;

$L__BB0_3:
	and.b32  	%r18, %r3, 1;
	setp.eq.b32 	%p3, %r18, 1;
	add.s32 	%r19, %r42, -7;
	mul.lo.s32 	%r20, %r42, 3;
	selp.b32 	%r21, %r20, %r19, %p3;
	shl.b32 	%r22, %r2, 2;
	mov.u32 	%r23, _ZZ3mixE1s;
	add.s32 	%r24, %r23, %r22;
	st.shared.u32 	[%r24], %r21;
	bar.sync 	0;
	add.s32 	%r25, %r2, 5;
	rem.u32 	%r26, %r25, %r1;
	shl.b32 	%r27, %r26, 2;
	add.s32 	%r28, %r23, %r27;
	ld.shared.u32 	%r29, [%r24];
	ld.shared.u32 	%r30, [%r28];
	add.s32 	%r10, %r29, %r30;
	mul.hi.s32 	%r31, %r2, -1840700269;
	add.s32 	%r32, %r31, %r2;
	shr.u32 	%r33, %r32, 31;
	shr.s32 	%r34, %r32, 2;
	add.s32 	%r35, %r34, %r33;
	mul.lo.s32 	%r36, %r35, 7;
	sub.s32 	%r37, %r2, %r36;
	setp.eq.s32 	%p4, %r37, 3;
	@%p4 bra 	$L__BB0_5;

	cvta.to.global.u64 	%rd8, %rd3;
	shl.b32 	%r38, %r10, 2;
	cvt.u64.u32 	%rd9, %r38;
	and.b64  	%rd10, %rd9, 124;
	add.s64 	%rd11, %rd8, %rd10;
	atom.global.add.u32 	%r39, [%rd11], 1;
	bar.sync 	0;
	cvta.to.global.u64 	%rd12, %rd2;
	shl.b64 	%rd13, %rd1, 2;
	add.s64 	%rd14, %rd12, %rd13;
	st.global.u32 	[%rd14], %r10;

$L__BB0_5:
	ret;

}
)PTX";

// nvcc -arch=compute_75 -ptx of a 16x16-tiled shared-memory sgemm (C = A * B, n x n).
const char* const kSgemmPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	sgemm
// _ZZ5sgemmE2As has been demoted
// _ZZ5sgemmE2Bs has been demoted

.visible .entry sgemm(
	.param .u64 sgemm_param_0,
	.param .u64 sgemm_param_1,
	.param .u64 sgemm_param_2,
	.param .u32 sgemm_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<57>;
	.reg .b32 	%r<29>;
	.reg .b64 	%rd<20>;
	// demoted variable
	.shared .align 4 .b8 _ZZ5sgemmE2As[1024];
	// demoted variable
	.shared .align 4 .b8 _ZZ5sgemmE2Bs[1024];

	ld.param.u64 	%rd8, [sgemm_param_0];
	ld.param.u64 	%rd9, [sgemm_param_1];
	ld.param.u64 	%rd10, [sgemm_param_2];
	ld.param.u32 	%r11, [sgemm_param_3];
	mov.u32 	%r12, %ctaid.y;
	shl.b32 	%r13, %r12, 4;
	mov.u32 	%r1, %tid.y;
	add.s32 	%r14, %r13, %r1;
	mov.u32 	%r15, %ctaid.x;
	shl.b32 	%r2, %r15, 4;
	mov.u32 	%r3, %tid.x;
	mul.lo.s32 	%r4, %r14, %r11;
	setp.lt.s32 	%p1, %r11, 1;
	mov.f32 	%f56, 0f00000000;
	@%p1 bra 	$L__BB0_3;

	shl.b32 	%r17, %r1, 6;
	mov.u32 	%r18, _ZZ5sgemmE2As;
	add.s32 	%r7, %r18, %r17;
	shl.b32 	%r19, %r3, 2;
	add.s32 	%r5, %r7, %r19;
	mov.u32 	%r20, _ZZ5sgemmE2Bs;
	add.s32 	%r21, %r20, %r17;
	add.s32 	%r6, %r21, %r19;
	add.s32 	%r8, %r20, %r19;
	mad.lo.s32 	%r22, %r1, %r11, %r3;
	add.s32 	%r23, %r22, %r2;
	cvta.to.global.u64 	%rd11, %rd9;
	mul.wide.s32 	%rd12, %r23, 4;
	add.s64 	%rd19, %rd11, %rd12;
	shl.b32 	%r24, %r11, 4;
	mul.wide.s32 	%rd2, %r24, 4;
	add.s32 	%r25, %r3, %r4;
	cvta.to.global.u64 	%rd13, %rd8;
	mul.wide.s32 	%rd14, %r25, 4;
	add.s64 	%rd18, %rd13, %rd14;
	mov.f32 	%f56, 0f00000000;
	mov.u32 	%r28, 0;

$L__BB0_2:
	ld.global.f32 	%f6, [%rd18];
	st.shared.f32 	[%r5], %f6;
	ld.global.f32 	%f7, [%rd19];
	st.shared.f32 	[%r6], %f7;
	bar.sync 	0;
	ld.shared.f32 	%f8, [%r8];
	ld.shared.f32 	%f9, [%r7];
	fma.rn.f32 	%f10, %f9, %f8, %f56;
	ld.shared.f32 	%f11, [%r8+64];
	ld.shared.f32 	%f12, [%r7+4];
	fma.rn.f32 	%f13, %f12, %f11, %f10;
	ld.shared.f32 	%f14, [%r8+128];
	ld.shared.f32 	%f15, [%r7+8];
	fma.rn.f32 	%f16, %f15, %f14, %f13;
	ld.shared.f32 	%f17, [%r8+192];
	ld.shared.f32 	%f18, [%r7+12];
	fma.rn.f32 	%f19, %f18, %f17, %f16;
	ld.shared.f32 	%f20, [%r8+256];
	ld.shared.f32 	%f21, [%r7+16];
	fma.rn.f32 	%f22, %f21, %f20, %f19;
	ld.shared.f32 	%f23, [%r8+320];
	ld.shared.f32 	%f24, [%r7+20];
	fma.rn.f32 	%f25, %f24, %f23, %f22;
	ld.shared.f32 	%f26, [%r8+384];
	ld.shared.f32 	%f27, [%r7+24];
	fma.rn.f32 	%f28, %f27, %f26, %f25;
	ld.shared.f32 	%f29, [%r8+448];
	ld.shared.f32 	%f30, [%r7+28];
	fma.rn.f32 	%f31, %f30, %f29, %f28;
	ld.shared.f32 	%f32, [%r8+512];
	ld.shared.f32 	%f33, [%r7+32];
	fma.rn.f32 	%f34, %f33, %f32, %f31;
	ld.shared.f32 	%f35, [%r8+576];
	ld.shared.f32 	%f36, [%r7+36];
	fma.rn.f32 	%f37, %f36, %f35, %f34;
	ld.shared.f32 	%f38, [%r8+640];
	ld.shared.f32 	%f39, [%r7+40];
	fma.rn.f32 	%f40, %f39, %f38, %f37;
	ld.shared.f32 	%f41, [%r8+704];
	ld.shared.f32 	%f42, [%r7+44];
	fma.rn.f32 	%f43, %f42, %f41, %f40;
	ld.shared.f32 	%f44, [%r8+768];
	ld.shared.f32 	%f45, [%r7+48];
	fma.rn.f32 	%f46, %f45, %f44, %f43;
	ld.shared.f32 	%f47, [%r8+832];
	ld.shared.f32 	%f48, [%r7+52];
	fma.rn.f32 	%f49, %f48, %f47, %f46;
	ld.shared.f32 	%f50, [%r8+896];
	ld.shared.f32 	%f51, [%r7+56];
	fma.rn.f32 	%f52, %f51, %f50, %f49;
	ld.shared.f32 	%f53, [%r8+960];
	ld.shared.f32 	%f54, [%r7+60];
	fma.rn.f32 	%f56, %f54, %f53, %f52;
	bar.sync 	0;
	add.s64 	%rd19, %rd19, %rd2;
	add.s64 	%rd18, %rd18, 64;
	add.s32 	%r28, %r28, 16;
	setp.lt.s32 	%p2, %r28, %r11;
	@%p2 bra 	$L__BB0_2;

$L__BB0_3:
	add.s32 	%r26, %r2, %r3;
	add.s32 	%r27, %r4, %r26;
	cvta.to.global.u64 	%rd15, %rd10;
	mul.wide.s32 	%rd16, %r27, 4;
	add.s64 	%rd17, %rd15, %rd16;
	st.global.f32 	[%rd17], %f56;
	ret;

}
)PTX";

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
    Harness h(kMixPtx);
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

const char* const kCountPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry cnt(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 bra SKIP;
  add.u32 %r1, %r1, 1;
SKIP:
  ret;
}

.visible .entry clk(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  mov.u64 %rd1, %clock64;
  add.u32 %r1, %r1, 1;
  add.u32 %r1, %r1, 1;
  mov.u64 %rd2, %clock64;
  sub.s64 %rd3, %rd2, %rd1;
  ld.param.u64 %rd4, [out];
  st.global.u64 [%rd4], %rd3;
  ret;
}

.visible .entry trapper(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 5;
  @%p1 trap;
  ret;
}
)PTX";

TEST(SimtEngine, InstructionCounters) {
  Harness h(kCountPtx);
  const LaunchCounters c = h.run("cnt", dim(3), dim(40), Args().add(uint64_t{0}));
  // Per CTA: warp 0 (32 lanes, lanes 0..7 branch to SKIP): mov, setp, bra, add (24 lanes), ret;
  // warp 1 (8 lanes, none branch): 5 instructions of 8 lanes.
  EXPECT_EQ(c.ctas, 3u);
  EXPECT_EQ(c.warp_instructions, 3u * 10);
  EXPECT_EQ(c.thread_instructions, 3u * ((32 + 32 + 32 + 24 + 32) + 5 * 8));
}

TEST(SimtEngine, DeterministicClock) {
  Harness h(kCountPtx);
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
  Harness h(kCountPtx);
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

const char* const kExtPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry ext(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  mov.u32 %r1, %tid.x;
  simtlmtest.twice %r2, %r1;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
.visible .entry ext_missing(.param .u64 out)
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  simtlmtest.missing %r2, %r1;
  ret;
}
)PTX";

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
  Harness h(kExtPtx);
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
  Harness h(kSgemmPtx);
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
