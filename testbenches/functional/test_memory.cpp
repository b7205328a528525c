// Memory spaces and special registers: 3-D grids/blocks, %laneid/%warpid/
// %lanemask_*, shared-memory sizes, const/global module variables with
// initialisers, local arrays, generic addressing (cvta, isspacep), vector
// accesses, sign extension, mov pack/unpack, and device-fault reports.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "harness.h"

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of:
//   specials: packed %tid/%ctaid/%ntid/%nctaid, %laneid, %warpid, %lanemask_lt/ge per thread
//   sregs2: %nsmid, %dynamic_smem_size, %total_smem_size, %lanemask_le/gt/eq, %gridid
//   consts: out[t] = ctab[t & 7] * 100 + gtab[t & 3]; atomicAdd(&gsum, t)
//   locals: int a[16] in local memory indexed by data
//   generic_ptr: generic pointer to shared (odd t) or global (even t), __isShared/__isGlobal
//   vec_ld: int4 load, int2 store;  signext: s8 -> s32, s16 -> s64
//   grid3d: 3-D index with bounds check
const char* const kMemPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	specials
.const .align 4 .b8 ctab[32] = {3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 6};
.global .align 4 .b8 gtab[16] = {10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0, 40};
.global .align 8 .u64 gsum;
// _ZZ11generic_ptrE1s has been demoted

.visible .entry specials(
	.param .u64 specials_param_0
)
{
	.reg .b32 	%r<39>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [specials_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r5, %tid.z;
	mov.u32 	%r6, %ntid.y;
	mov.u32 	%r7, %tid.y;
	mov.u32 	%r8, %ntid.x;
	mov.u32 	%r9, %tid.x;
	mov.u32 	%r10, %ctaid.z;
	mov.u32 	%r11, %nctaid.y;
	mov.u32 	%r12, %ctaid.y;
	mad.lo.s32 	%r13, %r10, %r11, %r12;
	mov.u32 	%r14, %nctaid.x;
	mov.u32 	%r15, %ctaid.x;
	mad.lo.s32 	%r16, %r13, %r14, %r15;
	mov.u32 	%r17, %ntid.z;
	mad.lo.s32 	%r18, %r16, %r17, %r5;
	mad.lo.s32 	%r19, %r18, %r6, %r7;
	mad.lo.s32 	%r20, %r19, %r8, %r9;
	shl.b32 	%r21, %r20, 3;
	mul.wide.u32 	%rd3, %r21, 4;
	add.s64 	%rd4, %rd2, %rd3;
	shl.b32 	%r22, %r7, 8;
	or.b32  	%r23, %r22, %r9;
	shl.b32 	%r24, %r5, 16;
	or.b32  	%r25, %r23, %r24;
	st.global.u32 	[%rd4], %r25;
	shl.b32 	%r26, %r12, 8;
	or.b32  	%r27, %r26, %r15;
	shl.b32 	%r28, %r10, 16;
	or.b32  	%r29, %r27, %r28;
	st.global.u32 	[%rd4+4], %r29;
	shl.b32 	%r30, %r6, 8;
	or.b32  	%r31, %r30, %r8;
	shl.b32 	%r32, %r17, 16;
	or.b32  	%r33, %r31, %r32;
	st.global.u32 	[%rd4+8], %r33;
	shl.b32 	%r34, %r11, 8;
	or.b32  	%r35, %r34, %r14;
	mov.u32 	%r36, %nctaid.z;
	shl.b32 	%r37, %r36, 16;
	or.b32  	%r38, %r35, %r37;
	st.global.u32 	[%rd4+12], %r38;
	// begin inline asm
	mov.u32 %r1, %laneid;
	// end inline asm
	// begin inline asm
	mov.u32 %r2, %warpid;
	// end inline asm
	// begin inline asm
	mov.u32 %r3, %lanemask_lt;
	// end inline asm
	// begin inline asm
	mov.u32 %r4, %lanemask_ge;
	// end inline asm
	st.global.u32 	[%rd4+16], %r1;
	st.global.u32 	[%rd4+20], %r2;
	st.global.u32 	[%rd4+24], %r3;
	st.global.u32 	[%rd4+28], %r4;
	ret;

}
	// .globl	sregs2
.visible .entry sregs2(
	.param .u64 sregs2_param_0
)
{
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<6>;


	ld.param.u64 	%rd2, [sregs2_param_0];
	cvta.to.global.u64 	%rd3, %rd2;
	// begin inline asm
	mov.u32 %r1, %nsmid;
	// end inline asm
	// begin inline asm
	mov.u32 %r2, %dynamic_smem_size;
	// end inline asm
	// begin inline asm
	mov.u32 %r3, %total_smem_size;
	// end inline asm
	// begin inline asm
	mov.u32 %r4, %lanemask_le;
	// end inline asm
	// begin inline asm
	mov.u32 %r5, %lanemask_gt;
	// end inline asm
	// begin inline asm
	mov.u32 %r6, %lanemask_eq;
	// end inline asm
	// begin inline asm
	mov.u64 %rd1, %gridid;
	// end inline asm
	mov.u32 	%r7, %tid.x;
	mul.lo.s32 	%r8, %r7, 7;
	mul.wide.u32 	%rd4, %r8, 4;
	add.s64 	%rd5, %rd3, %rd4;
	st.global.u32 	[%rd5], %r1;
	st.global.u32 	[%rd5+4], %r2;
	st.global.u32 	[%rd5+8], %r3;
	st.global.u32 	[%rd5+12], %r4;
	st.global.u32 	[%rd5+16], %r5;
	st.global.u32 	[%rd5+20], %r6;
	st.global.u32 	[%rd5+24], %rd1;
	ret;

}
	// .globl	consts
.visible .entry consts(
	.param .u64 consts_param_0
)
{
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<15>;


	ld.param.u64 	%rd1, [consts_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	cvt.u64.u32 	%rd3, %r2;
	and.b64  	%rd4, %rd3, 28;
	mov.u64 	%rd5, ctab;
	add.s64 	%rd6, %rd5, %rd4;
	ld.const.u32 	%r3, [%rd6];
	and.b64  	%rd7, %rd3, 12;
	mov.u64 	%rd8, gtab;
	add.s64 	%rd9, %rd8, %rd7;
	ld.global.u32 	%r4, [%rd9];
	mad.lo.s32 	%r5, %r3, 100, %r4;
	cvt.s64.s32 	%rd10, %r1;
	mul.wide.s32 	%rd11, %r1, 4;
	add.s64 	%rd12, %rd2, %rd11;
	st.global.u32 	[%rd12], %r5;
	mov.u64 	%rd13, gsum;
	atom.global.add.u64 	%rd14, [%rd13], %rd10;
	ret;

}
	// .globl	locals
.visible .entry locals(
	.param .u64 locals_param_0,
	.param .u64 locals_param_1
)
{
	.local .align 16 .b8 	__local_depot3[64];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .b32 	%r<23>;
	.reg .b64 	%rd<16>;


	mov.u64 	%SPL, __local_depot3;
	ld.param.u64 	%rd1, [locals_param_0];
	ld.param.u64 	%rd2, [locals_param_1];
	add.u64 	%rd4, %SPL, 0;
	cvta.to.global.u64 	%rd5, %rd2;
	mov.u32 	%r1, %tid.x;
	add.s32 	%r2, %r1, 9;
	add.s32 	%r3, %r1, 4;
	add.s32 	%r4, %r1, 1;
	st.local.v4.u32 	[%rd4], {%r1, %r4, %r3, %r2};
	add.s32 	%r5, %r1, 49;
	add.s32 	%r6, %r1, 36;
	add.s32 	%r7, %r1, 25;
	add.s32 	%r8, %r1, 16;
	st.local.v4.u32 	[%rd4+16], {%r8, %r7, %r6, %r5};
	add.s32 	%r9, %r1, 121;
	add.s32 	%r10, %r1, 100;
	add.s32 	%r11, %r1, 81;
	add.s32 	%r12, %r1, 64;
	st.local.v4.u32 	[%rd4+32], {%r12, %r11, %r10, %r9};
	add.s32 	%r13, %r1, 225;
	add.s32 	%r14, %r1, 196;
	add.s32 	%r15, %r1, 169;
	add.s32 	%r16, %r1, 144;
	st.local.v4.u32 	[%rd4+48], {%r16, %r15, %r14, %r13};
	cvta.to.global.u64 	%rd6, %rd1;
	mul.wide.s32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	ld.global.u32 	%r17, [%rd8];
	shl.b32 	%r18, %r17, 2;
	cvt.u64.u32 	%rd9, %r18;
	and.b64  	%rd10, %rd9, 60;
	add.s64 	%rd11, %rd4, %rd10;
	ld.local.u32 	%r19, [%rd11];
	add.s32 	%r20, %r18, 12;
	cvt.u64.u32 	%rd12, %r20;
	and.b64  	%rd13, %rd12, 60;
	add.s64 	%rd14, %rd4, %rd13;
	ld.local.u32 	%r21, [%rd14];
	add.s32 	%r22, %r21, %r19;
	add.s64 	%rd15, %rd5, %rd7;
	st.global.u32 	[%rd15], %r22;
	ret;

}
	// .globl	generic_ptr
.visible .entry generic_ptr(
	.param .u64 generic_ptr_param_0,
	.param .u64 generic_ptr_param_1
)
{
	.reg .pred 	%p<7>;
	.reg .b32 	%r<15>;
	.reg .b64 	%rd<17>;
	// demoted variable
	.shared .align 4 .b8 _ZZ11generic_ptrE1s[256];

	ld.param.u64 	%rd5, [generic_ptr_param_0];
	ld.param.u64 	%rd6, [generic_ptr_param_1];
	mov.u32 	%r1, %tid.x;
	mul.lo.s32 	%r2, %r1, 10;
	shl.b32 	%r3, %r1, 2;
	mov.u32 	%r4, _ZZ11generic_ptrE1s;
	add.s32 	%r5, %r4, %r3;
	st.shared.u32 	[%r5], %r2;
	mul.lo.s32 	%r6, %r1, 1000;
	cvt.s64.s32 	%rd1, %r1;
	cvta.to.global.u64 	%rd7, %rd5;
	mul.wide.s32 	%rd8, %r1, 4;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r6;
	bar.sync 	0;
	and.b32  	%r7, %r1, 1;
	setp.eq.b32 	%p1, %r7, 1;
	mov.pred 	%p2, 0;
	xor.pred  	%p3, %p1, %p2;
	not.pred 	%p4, %p3;
	@%p4 bra 	$L__BB4_2;
	bra.uni 	$L__BB4_1;

$L__BB4_2:
	shl.b64 	%rd12, %rd1, 2;
	add.s64 	%rd16, %rd5, %rd12;
	bra.uni 	$L__BB4_3;

$L__BB4_1:
	shl.b64 	%rd10, %rd1, 2;
	{ .reg .b64 %tmp;
	  cvt.u64.u32 	%tmp, %r4;
	  cvta.shared.u64 	%rd11, %tmp; }
	add.s64 	%rd16, %rd11, %rd10;

$L__BB4_3:
	ld.u32 	%r9, [%rd16];
	add.s32 	%r10, %r9, 1;
	st.u32 	[%rd16], %r10;
	isspacep.shared 	%p5, %rd16;
	selp.b32 	%r11, 100000, 0, %p5;
	add.s32 	%r12, %r11, %r10;
	isspacep.global 	%p6, %rd16;
	selp.b32 	%r13, 200000, 0, %p6;
	add.s32 	%r14, %r12, %r13;
	cvta.to.global.u64 	%rd13, %rd6;
	shl.b64 	%rd14, %rd1, 2;
	add.s64 	%rd15, %rd13, %rd14;
	st.global.u32 	[%rd15], %r14;
	ret;

}
	// .globl	vec_ld
.visible .entry vec_ld(
	.param .u64 vec_ld_param_0,
	.param .u64 vec_ld_param_1
)
{
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd1, [vec_ld_param_0];
	ld.param.u64 	%rd2, [vec_ld_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 16;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.v4.u32 	{%r2, %r3, %r4, %r5}, [%rd6];
	mul.wide.s32 	%rd7, %r1, 8;
	add.s64 	%rd8, %rd3, %rd7;
	mul.lo.s32 	%r10, %r4, %r5;
	add.s32 	%r11, %r2, %r3;
	st.global.v2.u32 	[%rd8], {%r11, %r10};
	ret;

}
	// .globl	signext
.visible .entry signext(
	.param .u64 signext_param_0,
	.param .u64 signext_param_1,
	.param .u64 signext_param_2,
	.param .u64 signext_param_3
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<18>;


	ld.param.u64 	%rd1, [signext_param_0];
	ld.param.u64 	%rd2, [signext_param_1];
	ld.param.u64 	%rd3, [signext_param_2];
	ld.param.u64 	%rd4, [signext_param_3];
	cvta.to.global.u64 	%rd5, %rd4;
	cvta.to.global.u64 	%rd6, %rd3;
	cvta.to.global.u64 	%rd7, %rd2;
	cvta.to.global.u64 	%rd8, %rd1;
	mov.u32 	%r1, %tid.x;
	cvt.s64.s32 	%rd9, %r1;
	add.s64 	%rd10, %rd8, %rd9;
	ld.global.s8 	%r2, [%rd10];
	mul.wide.s32 	%rd11, %r1, 4;
	add.s64 	%rd12, %rd7, %rd11;
	st.global.u32 	[%rd12], %r2;
	mul.wide.s32 	%rd13, %r1, 2;
	add.s64 	%rd14, %rd6, %rd13;
	ld.global.s16 	%rd15, [%rd14];
	mul.wide.s32 	%rd16, %r1, 8;
	add.s64 	%rd17, %rd5, %rd16;
	st.global.u64 	[%rd17], %rd15;
	ret;

}
	// .globl	grid3d
.visible .entry grid3d(
	.param .u64 grid3d_param_0,
	.param .u32 grid3d_param_1,
	.param .u32 grid3d_param_2,
	.param .u32 grid3d_param_3
)
{
	.reg .pred 	%p<6>;
	.reg .f32 	%f<6>;
	.reg .b32 	%r<18>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [grid3d_param_0];
	ld.param.u32 	%r4, [grid3d_param_1];
	ld.param.u32 	%r5, [grid3d_param_2];
	ld.param.u32 	%r6, [grid3d_param_3];
	mov.u32 	%r7, %ctaid.x;
	mov.u32 	%r8, %ntid.x;
	mov.u32 	%r9, %tid.x;
	mad.lo.s32 	%r1, %r7, %r8, %r9;
	mov.u32 	%r10, %ntid.y;
	mov.u32 	%r11, %ctaid.y;
	mov.u32 	%r12, %tid.y;
	mad.lo.s32 	%r2, %r11, %r10, %r12;
	mov.u32 	%r13, %ntid.z;
	mov.u32 	%r14, %ctaid.z;
	mov.u32 	%r15, %tid.z;
	mad.lo.s32 	%r3, %r14, %r13, %r15;
	setp.ge.s32 	%p1, %r1, %r4;
	setp.ge.s32 	%p2, %r2, %r5;
	or.pred  	%p3, %p1, %p2;
	setp.ge.s32 	%p4, %r3, %r6;
	or.pred  	%p5, %p3, %p4;
	@%p5 bra 	$L__BB7_2;

	cvta.to.global.u64 	%rd2, %rd1;
	cvt.rn.f32.s32 	%f1, %r2;
	cvt.rn.f32.s32 	%f2, %r1;
	fma.rn.f32 	%f3, %f1, 0f42C80000, %f2;
	cvt.rn.f32.s32 	%f4, %r3;
	fma.rn.f32 	%f5, %f4, 0f461C4000, %f3;
	mad.lo.s32 	%r16, %r3, %r5, %r2;
	mad.lo.s32 	%r17, %r16, %r4, %r1;
	mul.wide.s32 	%rd3, %r17, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.f32 	[%rd4], %f5;

$L__BB7_2:
	ret;

}
)PTX";

TEST(SimtMemory, SpecialRegisters3D) {
  Harness h(kMemPtx);
  const Dim3u grid = dim(2, 3, 2), block = dim(8, 4, 3);  // 96 threads: 3 warps
  const uint32_t threads = 96, ctas = 12;
  const uint64_t out = h.alloc(threads * ctas * 8 * 4);
  h.run("specials", grid, block, Args().add(out));
  auto o = h.download<uint32_t>(out, threads * ctas * 8);
  for (uint32_t bz = 0; bz < 2; ++bz)
    for (uint32_t by = 0; by < 3; ++by)
      for (uint32_t bx = 0; bx < 2; ++bx)
        for (uint32_t tz = 0; tz < 3; ++tz)
          for (uint32_t ty = 0; ty < 4; ++ty)
            for (uint32_t tx = 0; tx < 8; ++tx) {
              const uint32_t t = (tz * 4 + ty) * 8 + tx;
              const uint32_t b = (bz * 3 + by) * 2 + bx;
              const uint32_t* r = &o[(b * threads + t) * 8];
              EXPECT_EQ(r[0], tx | (ty << 8) | (tz << 16));
              EXPECT_EQ(r[1], bx | (by << 8) | (bz << 16));
              EXPECT_EQ(r[2], 8u | (4u << 8) | (3u << 16));
              EXPECT_EQ(r[3], 2u | (3u << 8) | (2u << 16));
              const uint32_t lane = t % 32;
              EXPECT_EQ(r[4], lane);
              EXPECT_EQ(r[5], t / 32);
              EXPECT_EQ(r[6], (1u << lane) - 1);
              EXPECT_EQ(r[7], ~((1u << lane) - 1));
            }
}

TEST(SimtMemory, SpecialRegistersSizesAndMasks) {
  Harness h(kMemPtx);
  const uint32_t threads = 40;
  const uint64_t out = h.alloc(threads * 7 * 4);
  LaunchRequest req = h.request("sregs2", dim(1), dim(threads), Args().add(out), 32, 100);
  req.num_sms = 7;
  req.grid_id = 42;
  run_launch(req, h.memory());
  auto o = h.download<uint32_t>(out, threads * 7);
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t l = t % 32;
    const uint32_t* r = &o[t * 7];
    EXPECT_EQ(r[0], 7u);
    EXPECT_EQ(r[1], 100u);
    EXPECT_EQ(r[2], 100u);  // no static shared memory
    EXPECT_EQ(r[3], l == 31 ? 0xFFFFFFFFu : (2u << l) - 1);
    EXPECT_EQ(r[4], l == 31 ? 0u : ~((2u << l) - 1));
    EXPECT_EQ(r[5], 1u << l);
    EXPECT_EQ(r[6], 42u);
  }
}

TEST(SimtMemory, ConstAndGlobalModuleVariables) {
  Harness h(kMemPtx);
  const uint32_t threads = 50;
  const uint64_t out = h.alloc(threads * 4);
  h.run("consts", dim(1), dim(threads), Args().add(out));
  const int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  const int gtab[4] = {10, 20, 30, 40};
  auto o = h.download<int>(out, threads);
  for (uint32_t t = 0; t < threads; ++t) EXPECT_EQ(o[t], ctab[t & 7] * 100 + gtab[t & 3]) << t;
  EXPECT_EQ(h.read<uint64_t>(h.var_address("gsum")), uint64_t(threads) * (threads - 1) / 2);
  EXPECT_EQ(h.download<int>(h.var_address("gtab"), 4), (std::vector<int>{10, 20, 30, 40}));
}

TEST(SimtMemory, LocalArrays) {
  Harness h(kMemPtx);
  const uint32_t threads = 70;
  std::vector<int> idx(threads);
  for (uint32_t t = 0; t < threads; ++t) idx[t] = static_cast<int>((t * 5 + 3) % 23);
  const uint64_t din = h.upload(idx);
  const uint64_t dout = h.alloc(threads * 4);
  h.run("locals", dim(2), dim(threads), Args().add(din).add(dout));
  auto o = h.download<int>(dout, threads);
  for (uint32_t t = 0; t < threads; ++t) {
    int a[16];
    for (int i = 0; i < 16; ++i) a[i] = i * i + static_cast<int>(t);
    EXPECT_EQ(o[t], a[idx[t] & 15] + a[(idx[t] + 3) & 15]) << t;
  }
}

TEST(SimtMemory, GenericAddressingSharedAndGlobal) {
  Harness h(kMemPtx);
  const int threads = 64;
  const uint64_t g = h.alloc(threads * 4);
  const uint64_t out = h.alloc(threads * 4);
  h.run("generic_ptr", dim(1), dim(threads), Args().add(g).add(out));
  auto o = h.download<int>(out, threads);
  auto gv = h.download<int>(g, threads);
  for (int t = 0; t < threads; ++t) {
    if (t & 1) {
      EXPECT_EQ(o[t], t * 10 + 1 + 100000) << t;
      EXPECT_EQ(gv[t], t * 1000) << t;
    } else {
      EXPECT_EQ(o[t], t * 1000 + 1 + 200000) << t;
      EXPECT_EQ(gv[t], t * 1000 + 1) << t;
    }
  }
}

TEST(SimtMemory, VectorLoadsAndStores) {
  Harness h(kMemPtx);
  const int threads = 33;
  std::vector<int> in(threads * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 3) - 50;
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 8);
  h.run("vec_ld", dim(1), dim(threads), Args().add(din).add(dout));
  auto o = h.download<int>(dout, threads * 2);
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(o[2 * t], in[4 * t] + in[4 * t + 1]);
    EXPECT_EQ(o[2 * t + 1], in[4 * t + 2] * in[4 * t + 3]);
  }
}

TEST(SimtMemory, SignExtendingLoads) {
  Harness h(kMemPtx);
  const int threads = 32;
  std::vector<int8_t> b(threads);
  std::vector<int16_t> s(threads);
  for (int t = 0; t < threads; ++t) {
    b[t] = static_cast<int8_t>(t * 9 - 128);
    s[t] = static_cast<int16_t>(t * 2000 - 32000);
  }
  const uint64_t db = h.upload(b), ds = h.upload(s);
  const uint64_t o32 = h.alloc(threads * 4), o64 = h.alloc(threads * 8);
  h.run("signext", dim(1), dim(threads), Args().add(db).add(o32).add(ds).add(o64));
  auto r32 = h.download<int>(o32, threads);
  auto r64 = h.download<int64_t>(o64, threads);
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(r32[t], static_cast<int>(b[t])) << t;
    EXPECT_EQ(r64[t], static_cast<int64_t>(s[t])) << t;
  }
}

TEST(SimtMemory, Grid3DWithBoundsCheck) {
  Harness h(kMemPtx);
  const int nx = 13, ny = 7, nz = 5;
  const uint64_t out = h.upload(std::vector<float>(nx * ny * nz, -1.0f));
  h.run("grid3d", dim(4, 2, 3), dim(4, 4, 2), Args().add(out).add(nx).add(ny).add(nz));
  auto o = h.download<float>(out, nx * ny * nz);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) EXPECT_EQ(o[(z * ny + y) * nx + x], x + 100.0f * y + 10000.0f * z);
}

const char* const kHandPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry packs(.param .u64 out)
{
  .reg .b16 %h<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 0x10000;
  mov.b64 %rd1, {%r1, %r2};
  mov.b64 {%r3, %r4}, %rd1;
  mov.b32 {%h1, %h2}, %r2;
  mov.b32 %r5, {%h2, %h1};
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u64 [%rd4], %rd1;
  st.global.v2.u32 [%rd4+8], {%r5, %r4};
  ret;
}

.visible .entry copy(.param .u64 src, .param .u64 dst)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  st.global.u32 [%rd5], %r2;
  ret;
}

.visible .entry smem_overflow(.param .u64 dst)
{
  .reg .b32 %r<6>;
  .shared .align 4 .b32 arr[16];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, arr;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  ret;
}

.visible .entry local_overflow(.param .u32 i)
{
  .local .align 4 .b8 frame[16];
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u32 %r1, [i];
  mov.u64 %rd1, frame;
  cvt.u64.u32 %rd2, %r1;
  add.s64 %rd3, %rd1, %rd2;
  ld.local.u32 %r2, [%rd3];
  ret;
}

.visible .entry isspace(.param .u64 g, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .reg .pred %p<8>;
  .shared .align 4 .b32 s[4];
  .local .align 4 .b32 l[4];
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  mov.u64 %rd3, s;
  cvta.shared.u64 %rd4, %rd3;
  mov.u64 %rd5, l;
  cvta.local.u64 %rd6, %rd5;
  isspacep.shared %p1, %rd4;
  isspacep.global %p2, %rd4;
  isspacep.local %p3, %rd6;
  isspacep.shared %p4, %rd6;
  isspacep.global %p5, %rd1;
  isspacep.local %p6, %rd1;
  selp.u32 %r1, 1, 0, %p1;
  selp.u32 %r2, 2, 0, %p2;
  selp.u32 %r3, 4, 0, %p3;
  selp.u32 %r4, 8, 0, %p4;
  selp.u32 %r5, 16, 0, %p5;
  selp.u32 %r6, 32, 0, %p6;
  or.b32 %r1, %r1, %r2;
  or.b32 %r1, %r1, %r3;
  or.b32 %r1, %r1, %r4;
  or.b32 %r1, %r1, %r5;
  or.b32 %r1, %r1, %r6;
  cvta.to.shared.u64 %rd7, %rd4;
  mov.u32 %r7, 77;
  st.u32 [%rd4], %r7;
  ld.shared.u32 %r7, [%rd7];
  st.global.v2.u32 [%rd2], {%r1, %r7};
  ret;
}
)PTX";

TEST(SimtMemory, MovPackUnpack) {
  Harness h(kHandPtx);
  const uint32_t threads = 40;
  const uint64_t out = h.alloc(threads * 16);
  h.run("packs", dim(1), dim(threads), Args().add(out));
  auto o = h.download<uint32_t>(out, threads * 4);
  for (uint32_t t = 0; t < threads; ++t) {
    EXPECT_EQ(o[4 * t + 0], t);
    EXPECT_EQ(o[4 * t + 1], t + 0x10000u);
    EXPECT_EQ(o[4 * t + 2], 1u | (t << 16));
    EXPECT_EQ(o[4 * t + 3], t + 0x10000u);
  }
}

TEST(SimtMemory, IsspacepAndCvtaRoundTrip) {
  Harness h(kHandPtx);
  const uint64_t g = h.alloc(16);
  const uint64_t out = h.alloc(8);
  h.run("isspace", dim(1), dim(1), Args().add(g).add(out));
  auto o = h.download<uint32_t>(out, 2);
  EXPECT_EQ(o[0], 1u | 4u | 16u);
  EXPECT_EQ(o[1], 77u);
}

std::string hex(uint64_t a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
  return buf;
}

TEST(SimtFaults, OutOfBoundsGlobalLoad) {
  Harness h(kHandPtx);
  const uint64_t src = h.upload(std::vector<int>(16, 5));
  const uint64_t dst = h.upload(std::vector<int>(32, -1));
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("copy", dim(2), dim(32), Args().add(src).add(dst));
  });
  EXPECT_NE(msg.find("out-of-bounds global load of 4 bytes at address " + hex(src + 64)), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("kernel 'copy'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("`ld.global.u32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line "), std::string::npos) << msg;
  EXPECT_NE(msg.find("CTA (0,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (16,0,0)"), std::string::npos) << msg;
  // The load faulted before any lane stored.
  EXPECT_EQ(h.download<int>(dst, 32), std::vector<int>(32, -1));
}

TEST(SimtFaults, OutOfBoundsGlobalStoreWritesNothing) {
  Harness h(kHandPtx);
  std::vector<int> src(64);
  for (int i = 0; i < 64; ++i) src[i] = i + 1;
  const uint64_t dsrc = h.upload(src);
  const uint64_t ddst = h.upload(std::vector<int>(20, -1));
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("copy", dim(1), dim(64), Args().add(dsrc).add(ddst));
  });
  EXPECT_NE(msg.find("out-of-bounds global store of 4 bytes at address " + hex(ddst + 80)), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("`st.global.u32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (20,0,0)"), std::string::npos) << msg;
  EXPECT_EQ(h.download<int>(ddst, 20), std::vector<int>(20, -1));  // lanes 0..19 wrote nothing
}

TEST(SimtFaults, MisalignedGlobalLoad) {
  Harness h(kHandPtx);
  const uint64_t src = h.alloc(256);
  const uint64_t dst = h.alloc(256);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("copy", dim(1), dim(8), Args().add(src + 2).add(dst));
  });
  EXPECT_NE(msg.find("misaligned global load of 4 bytes at address " + hex(src + 2)), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("thread (0,0,0)"), std::string::npos) << msg;
}

TEST(SimtFaults, SharedOverflow) {
  Harness h(kHandPtx);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("smem_overflow", dim(1), dim(32), Args().add(uint64_t{0}));
  });
  EXPECT_NE(msg.find("out-of-bounds shared store of 4 bytes at address 0x40"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the CTA's shared memory is 64 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (16,0,0)"), std::string::npos) << msg;
}

TEST(SimtFaults, LocalOverflowAndMisalignment) {
  Harness h(kHandPtx);
  h.run("local_overflow", dim(1), dim(4), Args().add(uint32_t{12}));  // last word: fine
  std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("local_overflow", dim(1), dim(4), Args().add(uint32_t{16}));
  });
  EXPECT_NE(msg.find("out-of-bounds local load"), std::string::npos) << msg;
  EXPECT_NE(msg.find("local frame is 16 bytes"), std::string::npos) << msg;
  msg = expect_error(ErrorKind::Fault, [&] {
    h.run("local_overflow", dim(1), dim(4), Args().add(uint32_t{6}));
  });
  EXPECT_NE(msg.find("misaligned local load"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::functional::test
