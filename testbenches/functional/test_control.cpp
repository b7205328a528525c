// Divergence and reconvergence: if/else, nesting, loops with divergent trip
// counts, early return, divergent returns of an inlined .func, brx.idx, and
// the SIMT stack seen through the per-instruction API.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "functional/cta.h"
#include "functional/executor.h"
#include "harness.h"

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of:
//   ifelse: odd threads run a loop (sum of i ^ t, i < t), even ones t + 100; out = v + 1
//   nested: nested if/else chains on t
//   loop_trips: for (i < trips[t]) { s += i * t; if (s > 100000) break; }
//   early_return: if (t >= n) return; if (in[t] < 0) { out[t] = -1; return; } popcount loop
//   func_ret: __noinline__ classify(x) with three returns, called twice
//   sw: switch on in[t] (compiled to a compare tree)
const char* const kDivPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64


.func  (.param .b32 func_retval0) _Z8classifyi(
	.param .b32 _Z8classifyi_param_0
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<14>;
	.reg .b64 	%rd<3>;


	ld.param.u32 	%r11, [_Z8classifyi_param_0];
	setp.lt.s32 	%p1, %r11, 0;
	mov.u32 	%r13, -1;
	@%p1 bra 	$L__BB0_5;

	setp.eq.s32 	%p2, %r11, 0;
	mov.u32 	%r13, 0;
	@%p2 bra 	$L__BB0_5;

	setp.lt.s32 	%p3, %r11, 10;
	mov.u32 	%r13, 1;
	@%p3 bra 	$L__BB0_5;

	mov.u32 	%r13, 1;

$L__BB0_4:
	mul.wide.u32 	%rd1, %r11, -858993459;
	shr.u64 	%rd2, %rd1, 35;
	cvt.u32.u64 	%r3, %rd2;
	add.s32 	%r13, %r13, 1;
	setp.gt.u32 	%p4, %r11, 99;
	mov.u32 	%r11, %r3;
	@%p4 bra 	$L__BB0_4;

$L__BB0_5:
	st.param.b32 	[func_retval0+0], %r13;
	ret;

}
	// .globl	ifelse
.visible .entry ifelse(
	.param .u64 ifelse_param_0
)
{
	.reg .pred 	%p<10>;
	.reg .b32 	%r<52>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [ifelse_param_0];
	mov.u32 	%r1, %tid.x;
	and.b32  	%r22, %r1, 1;
	setp.eq.b32 	%p1, %r22, 1;
	mov.pred 	%p2, 0;
	xor.pred  	%p3, %p1, %p2;
	not.pred 	%p4, %p3;
	@%p4 bra 	$L__BB1_7;
	bra.uni 	$L__BB1_1;

$L__BB1_7:
	add.s32 	%r51, %r1, 100;
	bra.uni 	$L__BB1_8;

$L__BB1_1:
	setp.lt.s32 	%p5, %r1, 1;
	mov.u32 	%r51, 0;
	@%p5 bra 	$L__BB1_8;

	add.s32 	%r27, %r1, -1;
	and.b32  	%r50, %r1, 3;
	setp.lt.u32 	%p6, %r27, 3;
	mov.u32 	%r46, 0;
	mov.u32 	%r51, %r46;
	@%p6 bra 	$L__BB1_5;

	sub.s32 	%r44, %r1, %r50;
	mov.u32 	%r46, 0;

$L__BB1_4:
	xor.b32  	%r30, %r46, %r1;
	add.s32 	%r31, %r30, %r51;
	add.s32 	%r32, %r46, 1;
	xor.b32  	%r33, %r32, %r1;
	add.s32 	%r34, %r33, %r31;
	add.s32 	%r35, %r46, 2;
	xor.b32  	%r36, %r35, %r1;
	add.s32 	%r37, %r36, %r34;
	add.s32 	%r38, %r46, 3;
	xor.b32  	%r39, %r38, %r1;
	add.s32 	%r51, %r39, %r37;
	add.s32 	%r46, %r46, 4;
	add.s32 	%r44, %r44, -4;
	setp.ne.s32 	%p7, %r44, 0;
	@%p7 bra 	$L__BB1_4;

$L__BB1_5:
	setp.eq.s32 	%p8, %r50, 0;
	@%p8 bra 	$L__BB1_8;

$L__BB1_6:
	.pragma "nounroll";
	xor.b32  	%r40, %r46, %r1;
	add.s32 	%r51, %r40, %r51;
	add.s32 	%r46, %r46, 1;
	add.s32 	%r50, %r50, -1;
	setp.eq.s32 	%p9, %r50, 0;
	@%p9 bra 	$L__BB1_8;
	bra.uni 	$L__BB1_6;

$L__BB1_8:
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	add.s32 	%r41, %r51, 1;
	st.global.u32 	[%rd4], %r41;
	ret;

}
	// .globl	nested
.visible .entry nested(
	.param .u64 nested_param_0
)
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<14>;
	.reg .b64 	%rd<7>;


	ld.param.u64 	%rd1, [nested_param_0];
	mov.u32 	%r1, %tid.x;
	setp.lt.s32 	%p1, %r1, 16;
	@%p1 bra 	$L__BB2_3;
	bra.uni 	$L__BB2_1;

$L__BB2_3:
	and.b32  	%r9, %r1, 1;
	setp.eq.b32 	%p4, %r9, 1;
	selp.b32 	%r10, 1, 2, %p4;
	add.s32 	%r11, %r10, 10;
	setp.lt.s32 	%p5, %r1, 4;
	selp.b32 	%r13, %r11, %r10, %p5;
	bra.uni 	$L__BB2_4;

$L__BB2_1:
	mul.wide.u32 	%rd2, %r1, -1431655765;
	shr.u64 	%rd3, %rd2, 33;
	cvt.u32.u64 	%r7, %rd3;
	mul.lo.s32 	%r8, %r7, 3;
	sub.s32 	%r2, %r1, %r8;
	mov.u32 	%r13, 3;
	setp.eq.s32 	%p2, %r2, 0;
	@%p2 bra 	$L__BB2_4;

	setp.eq.s32 	%p3, %r2, 1;
	selp.b32 	%r13, 4, 5, %p3;

$L__BB2_4:
	mad.lo.s32 	%r12, %r13, 1000, %r1;
	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	st.global.u32 	[%rd6], %r12;
	ret;

}
	// .globl	loop_trips
.visible .entry loop_trips(
	.param .u64 loop_trips_param_0,
	.param .u64 loop_trips_param_1
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<18>;
	.reg .b64 	%rd<10>;


	ld.param.u64 	%rd3, [loop_trips_param_0];
	ld.param.u64 	%rd2, [loop_trips_param_1];
	mov.u32 	%r8, %ntid.x;
	mov.u32 	%r9, %ctaid.x;
	mov.u32 	%r10, %tid.x;
	mad.lo.s32 	%r11, %r9, %r8, %r10;
	cvt.s64.s32 	%rd1, %r11;
	cvta.to.global.u64 	%rd4, %rd3;
	mul.wide.s32 	%rd5, %r11, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r1, [%rd6];
	setp.lt.s32 	%p1, %r1, 1;
	mov.u32 	%r17, 0;
	@%p1 bra 	$L__BB3_3;

	mov.u32 	%r15, 0;
	mov.u32 	%r17, %r15;

$L__BB3_2:
	cvt.u32.u64 	%r14, %rd1;
	mad.lo.s32 	%r17, %r15, %r14, %r17;
	setp.lt.s32 	%p2, %r17, 100001;
	add.s32 	%r15, %r15, 1;
	setp.lt.s32 	%p3, %r15, %r1;
	and.pred  	%p4, %p2, %p3;
	@%p4 bra 	$L__BB3_2;

$L__BB3_3:
	cvta.to.global.u64 	%rd7, %rd2;
	shl.b64 	%rd8, %rd1, 2;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r17;
	ret;

}
	// .globl	early_return
.visible .entry early_return(
	.param .u64 early_return_param_0,
	.param .u64 early_return_param_1,
	.param .u32 early_return_param_2
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<19>;
	.reg .b64 	%rd<8>;


	ld.param.u64 	%rd2, [early_return_param_0];
	ld.param.u64 	%rd3, [early_return_param_1];
	ld.param.u32 	%r8, [early_return_param_2];
	mov.u32 	%r9, %ntid.x;
	mov.u32 	%r10, %ctaid.x;
	mov.u32 	%r11, %tid.x;
	mad.lo.s32 	%r1, %r10, %r9, %r11;
	setp.ge.s32 	%p1, %r1, %r8;
	@%p1 bra 	$L__BB4_7;

	cvta.to.global.u64 	%rd4, %rd2;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r17, [%rd6];
	setp.lt.s32 	%p2, %r17, 0;
	cvta.to.global.u64 	%rd7, %rd3;
	add.s64 	%rd1, %rd7, %rd5;
	@%p2 bra 	$L__BB4_6;

	setp.eq.s32 	%p3, %r17, 0;
	mov.u32 	%r18, 0;
	@%p3 bra 	$L__BB4_5;

	mov.u32 	%r18, 0;

$L__BB4_4:
	and.b32  	%r14, %r17, 1;
	add.s32 	%r18, %r18, %r14;
	shr.u32 	%r17, %r17, 1;
	setp.ne.s32 	%p4, %r17, 0;
	@%p4 bra 	$L__BB4_4;

$L__BB4_5:
	st.global.u32 	[%rd1], %r18;
	bra.uni 	$L__BB4_7;

$L__BB4_6:
	mov.u32 	%r15, -1;
	st.global.u32 	[%rd1], %r15;

$L__BB4_7:
	ret;

}
	// .globl	func_ret
.visible .entry func_ret(
	.param .u64 func_ret_param_0,
	.param .u64 func_ret_param_1
)
{
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<8>;


	ld.param.u64 	%rd1, [func_ret_param_0];
	ld.param.u64 	%rd2, [func_ret_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r2;
	.param .b32 retval0;
	call.uni (retval0),
	_Z8classifyi,
	(
	param0
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	add.s32 	%r4, %r2, -5;
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r4;
	.param .b32 retval0;
	call.uni (retval0),
	_Z8classifyi,
	(
	param0
	);
	ld.param.b32 	%r5, [retval0+0];
	} // callseq 1
	mad.lo.s32 	%r6, %r3, 10, %r5;
	add.s64 	%rd7, %rd3, %rd5;
	st.global.u32 	[%rd7], %r6;
	ret;

}
	// .globl	sw
.visible .entry sw(
	.param .u64 sw_param_0,
	.param .u64 sw_param_1
)
{
	.reg .pred 	%p<10>;
	.reg .b32 	%r<15>;
	.reg .b64 	%rd<10>;


	ld.param.u64 	%rd3, [sw_param_0];
	ld.param.u64 	%rd2, [sw_param_1];
	mov.u32 	%r4, %tid.x;
	cvt.s64.s32 	%rd1, %r4;
	cvta.to.global.u64 	%rd4, %rd3;
	mul.wide.s32 	%rd5, %r4, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r3, [%rd6];
	mov.u32 	%r14, 11;
	setp.gt.s32 	%p1, %r3, 2;
	@%p1 bra 	$L__BB6_5;
	bra.uni 	$L__BB6_1;

$L__BB6_5:
	setp.gt.s32 	%p2, %r3, 4;
	@%p2 bra 	$L__BB6_9;

	setp.eq.s32 	%p5, %r3, 3;
	@%p5 bra 	$L__BB6_13;

	setp.eq.s32 	%p6, %r3, 4;
	@%p6 bra 	$L__BB6_8;
	bra.uni 	$L__BB6_15;

$L__BB6_8:
	mov.u32 	%r14, 55;
	bra.uni 	$L__BB6_16;

$L__BB6_1:
	setp.eq.s32 	%p7, %r3, 0;
	@%p7 bra 	$L__BB6_16;

	setp.eq.s32 	%p8, %r3, 1;
	@%p8 bra 	$L__BB6_14;

	setp.eq.s32 	%p9, %r3, 2;
	@%p9 bra 	$L__BB6_4;
	bra.uni 	$L__BB6_15;

$L__BB6_4:
	mov.u32 	%r14, 33;
	bra.uni 	$L__BB6_16;

$L__BB6_9:
	setp.eq.s32 	%p3, %r3, 5;
	@%p3 bra 	$L__BB6_12;

	setp.ne.s32 	%p4, %r3, 6;
	@%p4 bra 	$L__BB6_15;

	mov.u32 	%r14, 77;
	bra.uni 	$L__BB6_16;

$L__BB6_13:
	mov.u32 	%r14, 44;
	bra.uni 	$L__BB6_16;

$L__BB6_12:
	mov.u32 	%r14, 66;
	bra.uni 	$L__BB6_16;

$L__BB6_15:
	mov.u32 	%r14, -1;
	bra.uni 	$L__BB6_16;

$L__BB6_14:
	mov.u32 	%r14, 22;

$L__BB6_16:
	cvt.u32.u64 	%r12, %rd1;
	add.s32 	%r13, %r14, %r12;
	cvta.to.global.u64 	%rd7, %rd2;
	shl.b64 	%rd8, %rd1, 2;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r13;
	ret;

}
)PTX";

int nested_ref(int t) {
  int v = 0;
  if (t < 16) {
    v = (t & 1) ? 1 : 2;
    if (t < 4) v += 10;
  } else {
    v = t % 3 == 0 ? 3 : t % 3 == 1 ? 4 : 5;
  }
  return v * 1000 + t;
}

int classify_ref(int x) {
  if (x < 0) return -1;
  if (x == 0) return 0;
  int r = 1;
  while (x > 9) {
    x /= 10;
    r++;
  }
  return r;
}

TEST(SimtControl, IfElse) {
  Harness h(kDivPtx);
  const uint64_t out = h.alloc(64 * 4);
  h.run("ifelse", dim(1), dim(64), Args().add(out));
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) {
    int e = t + 100;
    if (t & 1) {
      e = 0;
      for (int i = 0; i < t; ++i) e += i ^ t;
    }
    EXPECT_EQ(v[t], e + 1) << t;
  }
}

TEST(SimtControl, NestedDivergence) {
  Harness h(kDivPtx);
  const uint64_t out = h.alloc(64 * 4);
  h.run("nested", dim(1), dim(64), Args().add(out));
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], nested_ref(t)) << t;
}

TEST(SimtControl, LoopWithDivergentTripCounts) {
  Harness h(kDivPtx);
  const int n = 96;  // 2 CTAs of 48 threads: partial second warp
  std::vector<int> trips(n);
  for (int t = 0; t < n; ++t) trips[t] = (t * 37 + 11) % 53;
  trips[5] = 0;
  trips[70] = 400;  // hits the break
  const uint64_t in = h.upload(trips);
  const uint64_t out = h.alloc(n * 4);
  h.run("loop_trips", dim(2), dim(48), Args().add(in).add(out));
  auto v = h.download<int>(out, n);
  for (int t = 0; t < n; ++t) {
    int s = 0;
    for (int i = 0; i < trips[t]; ++i) {
      s += i * t;
      if (s > 100000) break;
    }
    EXPECT_EQ(v[t], s) << t;
  }
}

TEST(SimtControl, EarlyReturn) {
  Harness h(kDivPtx);
  const int threads = 128, n = 70;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t % 7 == 3) ? -t : t * 2654435 % 100000;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.upload(std::vector<int>(threads, 0x7777));
  h.run("early_return", dim(2), dim(64), Args().add(din).add(dout).add(n));
  auto v = h.download<int>(dout, threads);
  for (int t = 0; t < threads; ++t) {
    int expect = 0x7777;
    if (t < n) expect = in[t] < 0 ? -1 : __builtin_popcount(static_cast<unsigned>(in[t]));
    EXPECT_EQ(v[t], expect) << t;
  }
}

TEST(SimtControl, DivergentReturnInInlinedFunction) {
  Harness h(kDivPtx);
  std::vector<int> in(64);
  for (int t = 0; t < 64; ++t) in[t] = (t % 5 == 0) ? -t : (t % 5 == 1 ? 0 : t * t * t * 17);
  in[2] = 5;
  in[3] = 7;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(64 * 4);
  h.run("func_ret", dim(1), dim(64), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], classify_ref(in[t]) * 10 + classify_ref(in[t] - 5)) << t;
}

TEST(SimtControl, SwitchCompareTree) {
  Harness h(kDivPtx);
  std::vector<int> in(64);
  for (int t = 0; t < 64; ++t) in[t] = (t * 5) % 9 - 1;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(64 * 4);
  h.run("sw", dim(1), dim(64), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 64);
  const int table[] = {11, 22, 33, 44, 55, 66, 77};
  for (int t = 0; t < 64; ++t) {
    const int r = in[t] >= 0 && in[t] <= 6 ? table[in[t]] : -1;
    EXPECT_EQ(v[t], r + t) << t;
  }
}

const char* const kBrxPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry brx(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  setp.ne.u32 %p1, %r1, 13;
  ts: .branchtargets L0, L1, L2, L3;
  @%p1 brx.idx %r2, ts;
L0:
  mov.u32 %r3, 100;
  bra.uni DONE;
L1:
  mov.u32 %r3, 200;
  bra.uni DONE;
L2:
  mov.u32 %r3, 300;
  bra.uni DONE;
L3:
  add.u32 %r3, %r1, 400;
DONE:
  add.u32 %r3, %r3, %r1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)PTX";

TEST(SimtControl, BrxIdxSwitch) {
  Harness h(kBrxPtx);
  std::vector<int> in(40);
  for (int t = 0; t < 40; ++t) in[t] = (t * 3) % 4;
  in[13] = 2;  // guard false for thread 13: falls through to L0
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(40 * 4);
  h.run("brx", dim(1), dim(40), Args().add(din).add(dout));
  auto v = h.download<int>(dout, 40);
  for (int t = 0; t < 40; ++t) {
    const int idx = t == 13 ? 0 : in[t];
    const int r = idx == 0 ? 100 : idx == 1 ? 200 : idx == 2 ? 300 : 400 + t;
    EXPECT_EQ(v[t], r + t) << t;
  }
}

TEST(SimtControl, BrxIdxOutOfRangeFaults) {
  Harness h(kBrxPtx);
  std::vector<int> in(32, 1);
  in[9] = 4;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(32 * 4);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("brx", dim(1), dim(32), Args().add(din).add(dout));
  });
  EXPECT_NE(msg.find("brx.idx index 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (9,0,0)"), std::string::npos) << msg;
}

// A loop whose exit diverges every iteration: the SIMT stack must stay
// bounded, and the per-instruction records must report the divergence.
const char* const kLoopPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry countdown(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, 3;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)PTX";

TEST(SimtControl, StackStaysBoundedInDivergentLoop) {
  Harness h(kLoopPtx);
  const uint64_t out = h.alloc(64 * 4);
  LaunchRequest req = h.request("countdown", dim(1), dim(64), Args().add(out), 64);
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  size_t max_depth = 0;
  unsigned divergent_branches = 0;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    if (r.cls == ExecClass::Branch && r.diverged) ++divergent_branches;
    if (!w.finished()) max_depth = std::max(max_depth, w.stack().size());
  }
  EXPECT_LE(max_depth, 2u);
  EXPECT_GT(divergent_branches, 10u);
  auto v = h.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t r = 0;
    do r += 3; while (r < t);
    EXPECT_EQ(v[t], r) << t;
  }
}

TEST(SimtControl, ExecRecordOfBranchesAndExit) {
  Harness h(kDivPtx);
  const uint64_t out = h.alloc(32 * 4);
  LaunchRequest req = h.request("ifelse", dim(1), dim(32), Args().add(out));
  LaunchContext ctx(req, h.memory());
  Cta cta(ctx, 0);
  Warp& w = cta.warp(0);
  bool saw_divergence = false, saw_store = false, saw_exit = false;
  while (w.can_issue()) {
    const ExecRecord& r = execute(w, cta, ctx);
    ASSERT_NE(r.inst, nullptr);
    EXPECT_EQ(r.active_mask & ~0xFFFFFFFFull, 0u);
    if (r.cls == ExecClass::Branch && r.diverged) {
      saw_divergence = true;
      EXPECT_TRUE(r.taken);
      EXPECT_NE(w.active_mask(), 0xFFFFFFFFull);  // one path runs alone
    }
    if (r.cls == ExecClass::Store) {
      saw_store = true;
      EXPECT_EQ(r.exec_mask, 0xFFFFFFFFull);  // reconverged before the store
      EXPECT_EQ(r.space, ir::StateSpace::Global);
      EXPECT_EQ(r.access_bytes, 4u);
      for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r.addresses[l], out + 4 * l);
    }
    if (r.cls == ExecClass::Exit) {
      saw_exit = true;
      EXPECT_EQ(r.exited_lanes, 0xFFFFFFFFull);
      EXPECT_TRUE(r.finished);
    }
  }
  EXPECT_TRUE(saw_divergence);
  EXPECT_TRUE(saw_store);
  EXPECT_TRUE(saw_exit);
  EXPECT_TRUE(cta.finished());
}


// A register read before any write reads 0 in every launch: `dirty` leaves
// other values in the register storage of its warps, and `guarded` then reads
// %r2, written only by even threads, in every thread. Its warps are built
// with the same shapes, so their (not value-initialised) register storage is
// likely the storage `dirty` left; only the registers live at entry are zeroed.
TEST(SimtControl, RegistersReadBeforeWrittenAreZeroInEveryLaunch) {
  const std::string ptx = R"PTX(.version 9.0
.target sm_75
.address_size 64
.visible .entry dirty(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	or.b32 %r2, %r1, -559038737;
	xor.b32 %r3, %r2, 1;
	setp.ne.u32 %p1, %r3, 0;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	@%p1 st.global.u32 [%rd3], %r3;
	ret;
}
.visible .entry guarded(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r3, %r1, 1;
	setp.eq.u32 %p1, %r3, 0;
	@%p1 add.u32 %r2, %r1, 1000;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
)PTX";
  Harness h(ptx);
  const uint32_t threads = 256;
  const uint64_t out = h.alloc(threads * 4);
  for (int round = 0; round < 3; ++round) {
    h.run("dirty", dim(4), dim(threads), Args().add(out));
    h.run("guarded", dim(4), dim(threads), Args().add(out));
    const auto v = h.download<uint32_t>(out, threads);
    for (uint32_t t = 0; t < threads; ++t) {
      EXPECT_EQ(v[t], t % 2 == 0 ? t + 1000 : 0u) << "thread " << t << " round " << round;
    }
  }
}

}  // namespace
}  // namespace simtlm::functional::test
