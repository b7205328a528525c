// Hand-written PTX microbenchmarks of the platform tests.
#pragma once

namespace simtlm::test {

// One thread follows a chain of 64-bit pointers `iters` times (each load's
// address is the previous load's value) and stores where it ended.
inline const char* kChasePtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry chase(
	.param .u64 p_start,
	.param .u32 p_iters,
	.param .u64 p_out
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	.reg .pred 	%p<2>;

	ld.param.u64 	%rd1, [p_start];
	ld.param.u32 	%r1, [p_iters];
	ld.param.u64 	%rd2, [p_out];
	mov.u32 	%r2, 0;
$L_loop:
	ld.global.u64 	%rd1, [%rd1];
	add.u32 	%r2, %r2, 1;
	setp.lt.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L_loop;
	st.global.u64 	[%rd2], %rd1;
	ret;
}
)";

// Streaming read: thread g of T sums in[g + k*T] for k = 0.. (four loads in
// flight per iteration; n must be a multiple of 4T) into out[g].
inline const char* kStreamPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry stream(
	.param .u64 p_in,
	.param .u64 p_out,
	.param .u32 p_n
)
{
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<12>;
	.reg .pred 	%p<2>;

	ld.param.u64 	%rd1, [p_in];
	ld.param.u64 	%rd2, [p_out];
	ld.param.u32 	%r1, [p_n];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.u32 	%r5, %r2, %r3, %r4;
	mov.u32 	%r6, %nctaid.x;
	mul.lo.u32 	%r7, %r6, %r3;
	shl.b32 	%r13, %r7, 2;
	mul.wide.u32 	%rd5, %r7, 4;
	mov.u32 	%r8, 0;
	mov.u32 	%r14, %r5;
$L_loop:
	mul.wide.u32 	%rd3, %r14, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.u32 	%r9, [%rd4];
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r10, [%rd6];
	add.s64 	%rd7, %rd6, %rd5;
	ld.global.u32 	%r11, [%rd7];
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.u32 	%r12, [%rd8];
	add.u32 	%r8, %r8, %r9;
	add.u32 	%r8, %r8, %r10;
	add.u32 	%r8, %r8, %r11;
	add.u32 	%r8, %r8, %r12;
	add.u32 	%r14, %r14, %r13;
	setp.lt.u32 	%p1, %r14, %r1;
	@%p1 bra 	$L_loop;
	mul.wide.u32 	%rd9, %r5, 4;
	add.s64 	%rd10, %rd2, %rd9;
	st.global.u32 	[%rd10], %r8;
	ret;
}
)";

// Every thread loads shared word (tid * stride) mod 1024 eight times per
// iteration, `iters` iterations (stride 32: all 32 lanes of a warp hit bank 0
// at distinct words, a 32-way conflict; stride 1: conflict-free).
inline const char* kSmemPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry smem(
	.param .u32 p_stride,
	.param .u32 p_iters,
	.param .u64 p_out
)
{
	.shared .align 4 .b8 buf[4096];
	.reg .b32 	%r<30>;
	.reg .b64 	%rd<4>;
	.reg .pred 	%p<2>;

	ld.param.u32 	%r1, [p_stride];
	ld.param.u32 	%r2, [p_iters];
	mov.u32 	%r3, %tid.x;
	mul.lo.u32 	%r4, %r3, %r1;
	and.b32 	%r4, %r4, 1023;
	shl.b32 	%r4, %r4, 2;
	mov.u32 	%r5, buf;
	add.u32 	%r6, %r5, %r4;
	mov.u32 	%r7, 0;
$L_loop:
	ld.shared.u32 	%r10, [%r6];
	ld.shared.u32 	%r11, [%r6];
	ld.shared.u32 	%r12, [%r6];
	ld.shared.u32 	%r13, [%r6];
	ld.shared.u32 	%r14, [%r6];
	ld.shared.u32 	%r15, [%r6];
	ld.shared.u32 	%r16, [%r6];
	ld.shared.u32 	%r17, [%r6];
	add.u32 	%r7, %r7, 1;
	setp.lt.u32 	%p1, %r7, %r2;
	@%p1 bra 	$L_loop;
	ld.param.u64 	%rd1, [p_out];
	st.global.u32 	[%rd1], %r17;
	ret;
}
)";

// Occupancy probe: each thread spins `iters` iterations; dynamic shared
// memory sets the CTA's scratchpad footprint.
inline const char* kSpinPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.extern .shared .align 4 .b8 dyn[];

.visible .entry spin(
	.param .u32 p_iters,
	.param .u64 p_out
)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;
	.reg .pred 	%p<2>;

	ld.param.u32 	%r1, [p_iters];
	mov.u32 	%r2, 0;
	mov.u32 	%r3, %tid.x;
$L_loop:
	add.u32 	%r3, %r3, 3;
	add.u32 	%r2, %r2, 1;
	setp.lt.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L_loop;
	mov.u32 	%r4, %tid.x;
	setp.ne.u32 	%p1, %r4, 0;
	@%p1 bra 	$L_done;
	ld.param.u64 	%rd1, [p_out];
	st.global.u32 	[%rd1], %r3;
$L_done:
	ret;
}
)";

}  // namespace simtlm::test
