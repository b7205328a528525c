// Warp collectives: shfl.sync in every mode (with widths, clamps, the
// predicate output, partial warps), vote.sync all/any/uni/ballot with inactive
// lanes, activemask; the same results at warp width 64 (32-lane segments).
#include <gtest/gtest.h>

#include <vector>

#include "harness.h"

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of:
//   shfl_modes: down 3, up 5, xor 6, idx (t*7)&31, idx 2 width 8, up 1 width 8, down 4 width 16
//   warp_reduce: for (o = 16; o > 0; o >>= 1) v += __shfl_down_sync(~0, v, o); lane 0 stores
//   votes: inside if (in[t] != 0): m = __activemask(); all/any/uni/ballot over m
const char* const kWarpPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	shfl_modes

.visible .entry shfl_modes(
	.param .u64 shfl_modes_param_0,
	.param .u64 shfl_modes_param_1
)
{
	.reg .pred 	%p<8>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd1, [shfl_modes_param_0];
	ld.param.u64 	%rd2, [shfl_modes_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	mov.u32 	%r3, 2;
	mov.u32 	%r4, 31;
	mov.u32 	%r5, 3;
	mov.u32 	%r6, -1;
	shfl.sync.down.b32 	%r7|%p1, %r2, %r5, %r4, %r6;
	mov.u32 	%r8, 1;
	mov.u32 	%r9, 0;
	mov.u32 	%r10, 5;
	shfl.sync.up.b32 	%r11|%p2, %r2, %r10, %r9, %r6;
	mov.u32 	%r12, 6;
	shfl.sync.bfly.b32 	%r13|%p3, %r2, %r12, %r4, %r6;
	mul.lo.s32 	%r14, %r1, 7;
	and.b32  	%r15, %r14, 31;
	shfl.sync.idx.b32 	%r16|%p4, %r2, %r15, %r4, %r6;
	mov.u32 	%r17, 6175;
	shfl.sync.idx.b32 	%r18|%p5, %r2, %r3, %r17, %r6;
	mov.u32 	%r19, 6144;
	shfl.sync.up.b32 	%r20|%p6, %r2, %r8, %r19, %r6;
	mov.u32 	%r21, 4127;
	mov.u32 	%r22, 4;
	shfl.sync.down.b32 	%r23|%p7, %r2, %r22, %r21, %r6;
	mul.wide.s32 	%rd7, %r14, 4;
	add.s64 	%rd8, %rd3, %rd7;
	st.global.u32 	[%rd8], %r7;
	st.global.u32 	[%rd8+4], %r11;
	st.global.u32 	[%rd8+8], %r13;
	st.global.u32 	[%rd8+12], %r16;
	st.global.u32 	[%rd8+16], %r18;
	st.global.u32 	[%rd8+20], %r20;
	st.global.u32 	[%rd8+24], %r23;
	ret;

}
	// .globl	warp_reduce
.visible .entry warp_reduce(
	.param .u64 warp_reduce_param_0,
	.param .u64 warp_reduce_param_1
)
{
	.reg .pred 	%p<7>;
	.reg .f32 	%f<12>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd2, [warp_reduce_param_0];
	ld.param.u64 	%rd1, [warp_reduce_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r1, %r3, %r2, %r4;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.f32 	%f2, [%rd5];
	mov.b32 	%r5, %f2;
	mov.u32 	%r6, 2;
	mov.u32 	%r7, 31;
	mov.u32 	%r8, 16;
	mov.u32 	%r9, -1;
	shfl.sync.down.b32 	%r10|%p1, %r5, %r8, %r7, %r9;
	mov.b32 	%f3, %r10;
	add.f32 	%f4, %f2, %f3;
	mov.b32 	%r11, %f4;
	mov.u32 	%r12, 8;
	shfl.sync.down.b32 	%r13|%p2, %r11, %r12, %r7, %r9;
	mov.b32 	%f5, %r13;
	add.f32 	%f6, %f4, %f5;
	mov.b32 	%r14, %f6;
	mov.u32 	%r15, 4;
	shfl.sync.down.b32 	%r16|%p3, %r14, %r15, %r7, %r9;
	mov.b32 	%f7, %r16;
	add.f32 	%f8, %f6, %f7;
	mov.b32 	%r17, %f8;
	shfl.sync.down.b32 	%r18|%p4, %r17, %r6, %r7, %r9;
	mov.b32 	%f9, %r18;
	add.f32 	%f10, %f8, %f9;
	mov.b32 	%r19, %f10;
	mov.u32 	%r20, 1;
	shfl.sync.down.b32 	%r21|%p5, %r19, %r20, %r7, %r9;
	mov.b32 	%f11, %r21;
	add.f32 	%f1, %f10, %f11;
	and.b32  	%r22, %r4, 31;
	setp.ne.s32 	%p6, %r22, 0;
	@%p6 bra 	$L__BB1_2;

	cvta.to.global.u64 	%rd6, %rd1;
	shr.u32 	%r23, %r1, 5;
	mul.wide.u32 	%rd7, %r23, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.f32 	[%rd8], %f1;

$L__BB1_2:
	ret;

}
	// .globl	votes
.visible .entry votes(
	.param .u64 votes_param_0,
	.param .u64 votes_param_1
)
{
	.reg .pred 	%p<10>;
	.reg .b32 	%r<33>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd3, [votes_param_0];
	ld.param.u64 	%rd2, [votes_param_1];
	mov.u32 	%r1, %tid.x;
	cvta.to.global.u64 	%rd4, %rd3;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd1, %rd4, %rd5;
	ld.global.u32 	%r17, [%rd1];
	setp.eq.s32 	%p1, %r17, 0;
	mov.u32 	%r28, 0;
	mov.u32 	%r29, %r28;
	mov.u32 	%r30, %r28;
	mov.u32 	%r31, %r28;
	mov.u32 	%r32, %r28;
	@%p1 bra 	$L__BB2_2;

	// begin inline asm
	activemask.b32 %r32;
	// end inline asm
	ld.global.u32 	%r19, [%rd1];
	setp.gt.s32 	%p2, %r19, 5;
	vote.sync.all.pred 	%p3, %p2, %r32;
	selp.u32 	%r29, 1, 0, %p3;
	ld.global.u32 	%r21, [%rd1];
	setp.gt.s32 	%p4, %r21, 50;
	vote.sync.any.pred 	%p5, %p4, %r32;
	selp.u32 	%r28, 1, 0, %p5;
	ld.global.u32 	%r23, [%rd1];
	and.b32  	%r24, %r23, 1;
	setp.eq.b32 	%p6, %r24, 1;
	vote.sync.uni.pred 	%p7, %p6, %r32;
	selp.u32 	%r30, 1, 0, %p7;
	ld.global.u32 	%r26, [%rd1];
	setp.gt.s32 	%p8, %r26, 3;
	vote.sync.ballot.b32 	%r31, %p8, %r32;

$L__BB2_2:
	mul.lo.s32 	%r27, %r1, 5;
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.s32 	%rd7, %r27, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.u32 	[%rd8], %r29;
	st.global.u32 	[%rd8+4], %r28;
	st.global.u32 	[%rd8+8], %r30;
	st.global.u32 	[%rd8+12], %r31;
	st.global.u32 	[%rd8+16], %r32;
	ret;

}
)PTX";

// CUDA programming-guide semantics of the shuffles (own value when the source
// lane is outside the segment or does not exist).
struct ShflRef {
  const std::vector<int>& v;
  int warp_threads;  // threads present in this 32-lane warp
  int base;          // thread index of lane 0
  int own(int l) const { return v[base + l]; }
  int at(int l, int src) const { return src < warp_threads ? v[base + src] : own(l); }
  int down(int l, int d, int w) const { return (l % w) + d < w ? at(l, l + d) : own(l); }
  int up(int l, int d, int w) const { return (l % w) >= d ? at(l, l - d) : own(l); }
  int bfly(int l, int m, int w) const { return ((l ^ m) / w == l / w) ? at(l, l ^ m) : own(l); }
  int idx(int l, int s, int w) const { return at(l, (l / w) * w + s % w); }
};

void check_shfl_modes(int threads, unsigned warp_size) {
  Harness h(kWarpPtx);
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = t * 1000 + 7;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 7 * 4);
  h.run("shfl_modes", dim(1), dim(threads), Args().add(din).add(dout), warp_size);
  auto o = h.download<int>(dout, threads * 7);
  for (int t = 0; t < threads; ++t) {
    const int base = t & ~31;
    ShflRef r{in, std::min(32, threads - base), base};
    const int l = t & 31;
    EXPECT_EQ(o[t * 7 + 0], r.down(l, 3, 32)) << "down t=" << t;
    EXPECT_EQ(o[t * 7 + 1], r.up(l, 5, 32)) << "up t=" << t;
    EXPECT_EQ(o[t * 7 + 2], r.bfly(l, 6, 32)) << "xor t=" << t;
    EXPECT_EQ(o[t * 7 + 3], r.idx(l, (t * 7) & 31, 32)) << "idx t=" << t;
    EXPECT_EQ(o[t * 7 + 4], r.idx(l, 2, 8)) << "idx/8 t=" << t;
    EXPECT_EQ(o[t * 7 + 5], r.up(l, 1, 8)) << "up/8 t=" << t;
    EXPECT_EQ(o[t * 7 + 6], r.down(l, 4, 16)) << "down/16 t=" << t;
  }
}

TEST(SimtWarpOps, ShflAllModes) { check_shfl_modes(64, 32); }

TEST(SimtWarpOps, ShflPartialWarp) { check_shfl_modes(52, 32); }

TEST(SimtWarpOps, ShflWidth64BehavesAsTwo32LaneSegments) {
  check_shfl_modes(64, 64);
  check_shfl_modes(100, 64);
}

TEST(SimtWarpOps, WarpReduceSameAtWidths32And64) {
  const int threads = 256;
  std::vector<float> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = static_cast<float>((t * 29) % 64) * 0.5f;
  std::vector<float> ref(threads / 32, 0.0f);
  for (int t = 0; t < threads; ++t) ref[t / 32] += in[t];  // exact: multiples of 0.5
  for (unsigned w : {32u, 64u}) {
    Harness h(kWarpPtx);
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.alloc(ref.size() * 4);
    h.run("warp_reduce", dim(2), dim(128), Args().add(din).add(dout), w);
    EXPECT_EQ(h.download<float>(dout, ref.size()), ref) << "W=" << w;
  }
}

TEST(SimtWarpOps, VotesWithInactiveLanes) {
  Harness h(kWarpPtx);
  const int threads = 64;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t % 3 == 0) ? 0 : (t * 11) % 60 + 1;
  // Warp 1: every active lane > 5 and odd, so all/uni hold there.
  for (int t = 32; t < 64; ++t) in[t] = (t % 3 == 0) ? 0 : 7 + 2 * (t % 5);
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 5 * 4);
  h.run("votes", dim(1), dim(threads), Args().add(din).add(dout));
  auto o = h.download<uint32_t>(dout, threads * 5);
  for (int w = 0; w < 2; ++w) {
    uint32_t m = 0, ballot = 0;
    bool all = true, any = false, odd_all = true, odd_none = true;
    for (int l = 0; l < 32; ++l) {
      const int x = in[w * 32 + l];
      if (x == 0) continue;
      m |= 1u << l;
      all = all && x > 5;
      any = any || x > 50;
      odd_all = odd_all && (x & 1);
      odd_none = odd_none && !(x & 1);
      if (x > 3) ballot |= 1u << l;
    }
    for (int l = 0; l < 32; ++l) {
      const int t = w * 32 + l;
      if (in[t] == 0) {
        for (int k = 0; k < 5; ++k) EXPECT_EQ(o[t * 5 + k], 0u) << t;
        continue;
      }
      EXPECT_EQ(o[t * 5 + 0], all ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 1], any ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 2], (odd_all || odd_none) ? 1u : 0u) << t;
      EXPECT_EQ(o[t * 5 + 3], ballot) << t;
      EXPECT_EQ(o[t * 5 + 4], m) << t;
    }
  }
  EXPECT_EQ(o[34 * 5 + 0], 1u);  // warp 1: all > 5
  EXPECT_EQ(o[34 * 5 + 2], 1u);  // warp 1: uniform (all odd)
  EXPECT_EQ(o[34 * 5 + 1], 0u);  // warp 1: none > 50
}

// Shuffle predicate outputs, clamp/segment operands given as immediates, a
// ballot with a partial member mask and a negated predicate.
const char* const kShflPredPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry shflpred(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  .reg .pred %p<4>;
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 10;
  shfl.sync.down.b32 %r3|%p1, %r2, 5, 0x1f, 0xffffffff;
  selp.u32 %r4, 1, 0, %p1;
  shfl.sync.up.b32 %r5|%p2, %r2, 3, 0x1800, 0xffffffff;
  selp.u32 %r6, 1, 0, %p2;
  setp.lt.u32 %p3, %r1, 10;
  vote.sync.ballot.b32 %r7, !%p3, 0x0000ffff;
  ld.param.u64 %rd1, [out];
  mov.u32 %r8, %tid.x;
  mul.wide.u32 %rd2, %r8, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.u32 [%rd3+16], %r7;
  ret;
}
)PTX";

TEST(SimtWarpOps, ShflPredicateClampAndPartialMemberBallot) {
  for (uint32_t threads : {32u, 24u}) {
    Harness h(kShflPredPtx);
    const uint64_t out = h.alloc(threads * 32);
    h.run("shflpred", dim(1), dim(threads), Args().add(out));
    auto o = h.download<uint32_t>(out, threads * 8);
    for (uint32_t l = 0; l < threads; ++l) {
      const uint32_t* r = &o[l * 8];
      const bool pdown = l + 5 <= 31;
      const bool src_exists = l + 5 < threads;
      EXPECT_EQ(r[0], pdown && src_exists ? (l + 5) * 10 : l * 10) << l;
      EXPECT_EQ(r[1], pdown ? 1u : 0u) << l;
      const bool pup = static_cast<int>(l) - 3 >= static_cast<int>(l & 0x18);
      EXPECT_EQ(r[2], pup ? (l - 3) * 10 : l * 10) << l;
      EXPECT_EQ(r[3], pup ? 1u : 0u) << l;
      if (l < 16) {
        EXPECT_EQ(r[4], 0xFC00u) << l;
      }
    }
  }
}

}  // namespace
}  // namespace simtlm::functional::test
