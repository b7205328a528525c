// Atomics and reductions: global and shared contention, a CAS spin lock,
// float adds, inc/dec wrap-around, min/max/and/or/xor/exch/cas, red.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "harness.h"

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of:
//   counter: tickets[t] = atomicAdd(c, 1)
//   histo: shared-memory histogram (atomicAdd on __shared__), merged with global atomicAdd
//   lock_sum: SIMT-safe spin lock (critical section inside the loop) via atomicCAS/atomicExch
//   fatomics: atomicAdd(float*, 0.5f), atomicAdd(double*, 0.25)
//   misc: atomicInc/Dec/Min/Max (signed, unsigned)/And/Or/Xor/Exch, 64-bit CAS and add
const char* const kAtomPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	counter
// _ZZ5histoE1h has been demoted

.visible .entry counter(
	.param .u64 counter_param_0,
	.param .u64 counter_param_1
)
{
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<7>;


	ld.param.u64 	%rd1, [counter_param_0];
	ld.param.u64 	%rd2, [counter_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	atom.global.add.u32 	%r5, [%rd4], 1;
	mul.wide.u32 	%rd5, %r4, 4;
	add.s64 	%rd6, %rd3, %rd5;
	st.global.u32 	[%rd6], %r5;
	ret;

}
	// .globl	histo
.visible .entry histo(
	.param .u64 histo_param_0,
	.param .u64 histo_param_1,
	.param .u32 histo_param_2
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<23>;
	.reg .b64 	%rd<9>;
	// demoted variable
	.shared .align 4 .b8 _ZZ5histoE1h[64];

	ld.param.u64 	%rd2, [histo_param_0];
	ld.param.u64 	%rd3, [histo_param_1];
	ld.param.u32 	%r8, [histo_param_2];
	mov.u32 	%r1, %tid.x;
	setp.gt.s32 	%p1, %r1, 15;
	shl.b32 	%r9, %r1, 2;
	mov.u32 	%r10, _ZZ5histoE1h;
	add.s32 	%r2, %r10, %r9;
	@%p1 bra 	$L__BB1_2;

	mov.u32 	%r11, 0;
	st.shared.u32 	[%r2], %r11;

$L__BB1_2:
	bar.sync 	0;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r12, %ctaid.x;
	mad.lo.s32 	%r22, %r12, %r3, %r1;
	setp.ge.s32 	%p2, %r22, %r8;
	@%p2 bra 	$L__BB1_5;

	mov.u32 	%r13, %nctaid.x;
	mul.lo.s32 	%r5, %r3, %r13;
	cvta.to.global.u64 	%rd1, %rd2;

$L__BB1_4:
	mul.wide.s32 	%rd4, %r22, 4;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.u32 	%r14, [%rd5];
	shl.b32 	%r15, %r14, 2;
	and.b32  	%r16, %r15, 60;
	add.s32 	%r18, %r10, %r16;
	atom.shared.add.u32 	%r19, [%r18], 1;
	add.s32 	%r22, %r22, %r5;
	setp.lt.s32 	%p3, %r22, %r8;
	@%p3 bra 	$L__BB1_4;

$L__BB1_5:
	bar.sync 	0;
	@%p1 bra 	$L__BB1_7;

	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	ld.shared.u32 	%r20, [%r2];
	atom.global.add.u32 	%r21, [%rd8], %r20;

$L__BB1_7:
	ret;

}
	// .globl	lock_sum
.visible .entry lock_sum(
	.param .u64 lock_sum_param_0,
	.param .u64 lock_sum_param_1,
	.param .u64 lock_sum_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<11>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd4, [lock_sum_param_0];
	ld.param.u64 	%rd5, [lock_sum_param_1];
	ld.param.u64 	%rd6, [lock_sum_param_2];
	cvta.to.global.u64 	%rd7, %rd6;
	cvta.to.global.u64 	%rd1, %rd5;
	cvta.to.global.u64 	%rd2, %rd4;
	mov.u32 	%r1, %ntid.x;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r2, %r1, %r3;
	mul.wide.s32 	%rd8, %r4, 4;
	add.s64 	%rd3, %rd7, %rd8;

$L__BB2_1:
	mov.u32 	%r5, 1;
	mov.u32 	%r6, 0;
	atom.global.cas.b32 	%r7, [%rd2], %r6, %r5;
	setp.eq.s32 	%p1, %r7, 0;
	setp.ne.s32 	%p2, %r7, 0;
	@%p2 bra 	$L__BB2_3;

	ld.volatile.global.u32 	%r8, [%rd1];
	st.global.u32 	[%rd3], %r8;
	add.s32 	%r9, %r8, 1;
	st.volatile.global.u32 	[%rd1], %r9;
	membar.gl;
	atom.global.exch.b32 	%r10, [%rd2], 0;

$L__BB2_3:
	not.pred 	%p3, %p1;
	@%p3 bra 	$L__BB2_1;

	ret;

}
	// .globl	fatomics
.visible .entry fatomics(
	.param .u64 fatomics_param_0,
	.param .u64 fatomics_param_1
)
{
	.reg .f32 	%f<2>;
	.reg .f64 	%fd<2>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [fatomics_param_0];
	ld.param.u64 	%rd2, [fatomics_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	atom.global.add.f32 	%f1, [%rd4], 0f3F000000;
	atom.global.add.f64 	%fd1, [%rd3], 0d3FD0000000000000;
	ret;

}
	// .globl	misc
.visible .entry misc(
	.param .u64 misc_param_0,
	.param .u64 misc_param_1,
	.param .u64 misc_param_2
)
{
	.reg .b32 	%r<19>;
	.reg .b64 	%rd<20>;


	ld.param.u64 	%rd1, [misc_param_0];
	ld.param.u64 	%rd2, [misc_param_1];
	ld.param.u64 	%rd3, [misc_param_2];
	cvta.to.global.u64 	%rd4, %rd3;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd1;
	mov.u32 	%r1, %tid.x;
	atom.global.inc.u32 	%r2, [%rd6], 5;
	add.s64 	%rd7, %rd6, 4;
	atom.global.dec.u32 	%r3, [%rd7], 3;
	add.s32 	%r4, %r1, -10;
	atom.global.min.s32 	%r5, [%rd5], %r4;
	add.s64 	%rd8, %rd5, 4;
	atom.global.max.s32 	%r6, [%rd8], %r4;
	add.s64 	%rd9, %rd6, 8;
	add.s32 	%r7, %r1, 7;
	atom.global.min.u32 	%r8, [%rd9], %r7;
	add.s64 	%rd10, %rd6, 12;
	mul.lo.s32 	%r9, %r1, 3;
	atom.global.max.u32 	%r10, [%rd10], %r9;
	add.s64 	%rd11, %rd6, 16;
	mov.u32 	%r11, 1;
	shl.b32 	%r12, %r11, %r1;
	mov.u32 	%r13, -2;
	shf.l.wrap.b32 	%r14, %r13, %r13, %r1;
	atom.global.and.b32 	%r15, [%rd11], %r14;
	add.s64 	%rd12, %rd6, 20;
	atom.global.or.b32 	%r16, [%rd12], %r12;
	add.s64 	%rd13, %rd6, 24;
	atom.global.xor.b32 	%r17, [%rd13], %r1;
	add.s64 	%rd14, %rd6, 28;
	atom.global.exch.b32 	%r18, [%rd14], %r1;
	cvt.u64.u32 	%rd15, %r1;
	add.s64 	%rd16, %rd15, 1;
	atom.global.cas.b64 	%rd17, [%rd4], %rd15, %rd16;
	add.s64 	%rd18, %rd4, 8;
	atom.global.add.u64 	%rd19, [%rd18], 8589934592;
	ret;

}
)PTX";

TEST(SimtAtomics, GlobalCounterContention) {
  Harness h(kAtomPtx);
  const int ctas = 5, threads = 96;
  const uint64_t c = h.upload(std::vector<uint32_t>{0});
  const uint64_t tickets = h.alloc(ctas * threads * 4);
  h.run("counter", dim(ctas), dim(threads), Args().add(c).add(tickets));
  EXPECT_EQ(h.read<uint32_t>(c), static_cast<uint32_t>(ctas * threads));
  auto v = h.download<uint32_t>(tickets, ctas * threads);
  std::sort(v.begin(), v.end());
  for (uint32_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], i);  // every ticket exactly once
}

TEST(SimtAtomics, SharedHistogram) {
  Harness h(kAtomPtx);
  const int n = 5000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000;
  const uint64_t din = h.upload(in);
  const uint64_t hist = h.upload(std::vector<int>(16, 0));
  h.run("histo", dim(4), dim(128), Args().add(din).add(hist).add(n));
  std::vector<int> ref(16, 0);
  for (int x : in) ref[x & 15]++;
  EXPECT_EQ(h.download<int>(hist, 16), ref);
}

TEST(SimtAtomics, CasSpinLock) {
  Harness h(kAtomPtx);
  const int ctas = 3, threads = 64;
  const uint64_t lock = h.upload(std::vector<int>{0});
  const uint64_t total = h.upload(std::vector<int>{0});
  const uint64_t order = h.upload(std::vector<int>(ctas * threads, -1));
  h.run("lock_sum", dim(ctas), dim(threads), Args().add(lock).add(total).add(order));
  EXPECT_EQ(h.read<int>(total), ctas * threads);
  EXPECT_EQ(h.read<int>(lock), 0);
  auto v = h.download<int>(order, ctas * threads);
  std::sort(v.begin(), v.end());
  for (int i = 0; i < ctas * threads; ++i) EXPECT_EQ(v[i], i);  // each thread entered once
}

TEST(SimtAtomics, FloatAndDoubleAdd) {
  Harness h(kAtomPtx);
  const uint64_t f = h.upload(std::vector<float>{1.0f});
  const uint64_t d = h.upload(std::vector<double>{-3.0});
  h.run("fatomics", dim(7), dim(50), Args().add(f).add(d));
  EXPECT_EQ(h.read<float>(f), 1.0f + 350 * 0.5f);
  EXPECT_EQ(h.read<double>(d), -3.0 + 350 * 0.25);
}

TEST(SimtAtomics, IntegerOperationsAndWrapAround) {
  Harness h(kAtomPtx);
  const uint32_t and_init = 0xFFFFFFFFu;
  std::vector<uint32_t> u = {0, 0, 1000, 0, and_init, 0, 0, 12345};
  std::vector<int> s = {0, -100};
  std::vector<uint64_t> w = {0, 5};
  const uint64_t du = h.upload(u);
  const uint64_t ds = h.upload(s);
  const uint64_t dw = h.upload(w);
  const uint32_t threads = 20;
  h.run("misc", dim(1), dim(threads), Args().add(du).add(ds).add(dw));

  // CPU reference applying the operations in thread order.
  uint32_t inc = 0, dec = 0, umin = 1000, umax = 0, band = and_init, bor = 0, bxor = 0, exch = 12345;
  int smin = 0, smax = -100;
  uint64_t cas = 0, add64 = 5;
  for (uint32_t t = 0; t < threads; ++t) {
    inc = inc >= 5u ? 0 : inc + 1;
    dec = (dec == 0 || dec > 3u) ? 3u : dec - 1;
    smin = std::min(smin, static_cast<int>(t) - 10);
    smax = std::max(smax, static_cast<int>(t) - 10);
    umin = std::min(umin, t + 7);
    umax = std::max(umax, t * 3);
    band &= ~(1u << t);
    bor |= 1u << t;
    bxor ^= t;
    exch = t;
    if (cas == t) cas = t + 1;
    add64 += 1ull << 33;
  }
  const std::vector<uint32_t> ru = {inc, dec, umin, umax, band, bor, bxor, exch};
  EXPECT_EQ(h.download<uint32_t>(du, 8), ru);
  EXPECT_EQ(h.download<int>(ds, 2), (std::vector<int>{smin, smax}));
  EXPECT_EQ(h.download<uint64_t>(dw, 2), (std::vector<uint64_t>{cas, add64}));
}

// Returned old values, red, shared atomics through generic addresses,
// 64-bit min on signed values.
const char* const kAtomHandPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry oldvals(.param .u64 p, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .shared .align 8 .b64 sh[2];
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  atom.global.inc.u32 %r2, [%rd1], 2;
  st.global.u32 [%rd4], %r2;
  red.global.add.u32 [%rd1+4], %r1;
  mov.u64 %rd5, sh;
  cvta.shared.u64 %rd6, %rd5;
  cvt.s64.s32 %rd7, %r1;
  neg.s64 %rd7, %rd7;
  atom.min.s64 %rd8, [%rd6], %rd7;
  red.shared.add.u64 [sh+8], 3;
  bar.sync 0;
  ld.shared.u64 %rd9, [sh];
  ld.shared.u64 %rd10, [sh+8];
  st.global.u64 [%rd1+8], %rd9;
  st.global.u64 [%rd1+16], %rd10;
  ret;
}
)PTX";

TEST(SimtAtomics, OldValuesRedAndGenericShared) {
  Harness h(kAtomHandPtx);
  const uint32_t threads = 40;
  const uint64_t p = h.upload(std::vector<uint32_t>(6, 0));
  const uint64_t out = h.alloc(threads * 4);
  h.run("oldvals", dim(1), dim(threads), Args().add(p).add(out));
  auto v = h.download<uint32_t>(out, threads);
  uint32_t inc = 0;
  for (uint32_t t = 0; t < threads; ++t) {  // lane order, warp order
    EXPECT_EQ(v[t], inc) << t;
    inc = inc >= 2 ? 0 : inc + 1;
  }
  auto m = h.download<uint32_t>(p, 2);
  EXPECT_EQ(m[0], inc);
  EXPECT_EQ(m[1], threads * (threads - 1) / 2);
  EXPECT_EQ(h.read<int64_t>(p + 8), -static_cast<int64_t>(threads - 1));
  EXPECT_EQ(h.read<uint64_t>(p + 16), 3u * threads);
}

}  // namespace
}  // namespace simtlm::functional::test
