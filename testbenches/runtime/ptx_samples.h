// Small hand-written PTX modules used by the runtime tests.
#pragma once

namespace simtlm::test {

// Writes each of its parameters into `out` so the packing can be checked:
// out+0: a (u32), +8: b (u64), +16: c (f32), +20: d (u16), +24/+32: arr[16].
// Parameter offsets: out 0, a 8, b 16, c 24, d 28, arr 32 (48 bytes).
inline const char* kParamsPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry write_params(
	.param .u64 out,
	.param .u32 a,
	.param .u64 b,
	.param .f32 c,
	.param .u16 d,
	.param .align 8 .b8 arr[16]
)
{
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<2>;
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<6>;

	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.param.u32 	%r1, [a];
	st.global.u32 	[%rd2], %r1;
	ld.param.u64 	%rd3, [b];
	st.global.u64 	[%rd2+8], %rd3;
	ld.param.f32 	%f1, [c];
	st.global.f32 	[%rd2+16], %f1;
	ld.param.u16 	%rs1, [d];
	st.global.u16 	[%rd2+20], %rs1;
	ld.param.u64 	%rd4, [arr];
	st.global.u64 	[%rd2+24], %rd4;
	ld.param.u64 	%rd5, [arr+8];
	st.global.u64 	[%rd2+32], %rd5;
	ret;
}
)";

// c[i] = a[i] + b[i] for i < n (one thread per element), as nvcc emits it;
// plus a second kernel with launch-bound directives and static shared memory.
inline const char* kVecAddPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry vec_add(
	.param .u64 vec_add_param_0,
	.param .u64 vec_add_param_1,
	.param .u64 vec_add_param_2,
	.param .u32 vec_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [vec_add_param_0];
	ld.param.u64 	%rd2, [vec_add_param_1];
	ld.param.u64 	%rd3, [vec_add_param_2];
	ld.param.u32 	%r2, [vec_add_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;

$L__BB0_2:
	ret;
}

.visible .entry bounded(
	.param .u32 bounded_param_0
)
.reqntid 64, 1, 1
{
	.reg .b32 	%r<2>;
	.shared .align 4 .b8 tile[1024];

	ld.param.u32 	%r1, [bounded_param_0];
	st.shared.u32 	[tile], %r1;
	ret;
}

.visible .entry capped(
	.param .u32 capped_param_0
)
.maxntid 128, 1, 1
{
	.reg .b32 	%r<2>;

	ld.param.u32 	%r1, [capped_param_0];
	ret;
}
)";

// Module-scope .global/.const variables with initialisers, including one that
// holds the address of another variable; the kernel copies them out:
// out[0] = table[2], out[1] = bits of scale, out[2] = *(ptr + 1) (= table[1]).
inline const char* kGlobalsPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .global .align 4 .u32 table[4] = {10, 20, 30, 40};
.visible .const .align 4 .f32 scale = 0f40400000;
.visible .global .align 8 .u64 ptr = generic(table);

.visible .entry copy_globals(
	.param .u64 copy_globals_param_0
)
{
	.reg .b32 	%r<4>;
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [copy_globals_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.u32 	%r1, [table+8];
	st.global.u32 	[%rd2], %r1;
	ld.const.f32 	%f1, [scale];
	st.global.f32 	[%rd2+4], %f1;
	ld.global.u64 	%rd3, [ptr];
	ld.u32 	%r2, [%rd3+4];
	st.global.u32 	[%rd2+8], %r2;
	ret;
}
)";

}  // namespace simtlm::test
