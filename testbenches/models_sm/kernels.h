// Hand-written PTX kernels of the SM tests. Register declarations come first
// so register indices are known: in `.reg .b32 %r<N>` the registers %r0..
// %r(N-1) get consecutive indices in declaration order (the register-bank
// tests rely on it).
#pragma once

namespace simtlm::models::test {

// c[i] = a[i] + b[i] for i < n (bounds check = divergent exit in the last CTA).
inline const char* const kVaddPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.s32 %rd4, %r5, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd6];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd7], %f3;
DONE:
  ret;
}
)PTX";

// Per-CTA tree reduction in shared memory with barriers, then one atomic add
// per CTA into out[0] and the CTA sum stored to out[1 + ctaid].
inline const char* const kReducePtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry reduce(.param .u64 pin, .param .u64 pout)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b8 sdata[1024];
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  mov.u32 %r6, sdata;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r5;
  bar.sync 0;
  shr.u32 %r9, %r3, 1;
LOOP:
  setp.eq.u32 %p1, %r9, 0;
  @%p1 bra END;
  setp.ge.u32 %p2, %r1, %r9;
  @%p2 bra SKIP;
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r8, %r10;
  ld.shared.u32 %r12, [%r11];
  ld.shared.u32 %r13, [%r8];
  add.s32 %r14, %r12, %r13;
  st.shared.u32 [%r8], %r14;
SKIP:
  bar.sync 0;
  shr.u32 %r9, %r9, 1;
  bra LOOP;
END:
  setp.ne.u32 %p3, %r1, 0;
  @%p3 bra DONE;
  ld.shared.u32 %r15, [%r6];
  atom.global.add.u32 %r16, [%rd2], %r15;
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6+4], %r15;
DONE:
  ret;
}
)PTX";

// Per-thread local array (indexed by data, so it stays in local memory),
// constant-memory table and a generic pointer to global memory:
// out[t] = sum_{k<8} loc[(t + k) & 7] + ctab[t & 7], loc[j] = t * j.
inline const char* const kLocalConstPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.const .align 4 .b8 ctab[32] = {3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 6};

.visible .entry locals(.param .u64 pout)
{
  .reg .pred %p<3>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .local .align 4 .b8 loc[32];
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mov.u64 %rd2, loc;
  mov.u32 %r5, 0;
FILL:
  mul.lo.s32 %r6, %r4, %r5;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.local.u32 [%rd4], %r6;
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, 8;
  @%p1 bra FILL;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
SUM:
  add.s32 %r9, %r4, %r7;
  and.b32 %r10, %r9, 7;
  mul.wide.u32 %rd5, %r10, 4;
  add.s64 %rd6, %rd2, %rd5;
  ld.local.u32 %r11, [%rd6];
  add.s32 %r8, %r8, %r11;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p2, %r7, 8;
  @%p2 bra SUM;
  and.b32 %r12, %r4, 7;
  mul.wide.u32 %rd7, %r12, 4;
  mov.u64 %rd8, ctab;
  add.s64 %rd9, %rd8, %rd7;
  ld.const.u32 %r13, [%rd9];
  add.s32 %r14, %r8, %r13;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd1, %rd10;
  cvta.global.u64 %rd11, %rd11;
  st.u32 [%rd11], %r14;
  ret;
}
)PTX";

// Timing kernels (one warp each unless stated otherwise).
//   chain: 16 dependent integer adds on %r1.
//   indep: 16 independent integer adds (%rI = %r0 + I).
//   conflict: add whose two sources share a register bank (%r1, %r17 with 16 banks).
//   sfu: 4 independent sqrt.approx.f32.
inline const char* const kTimingPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry chain()
{
  .reg .b32 %r<4>;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  add.s32 %r1, %r1, 1;
  ret;
}

.visible .entry indep()
{
  .reg .b32 %r<20>;
  add.s32 %r1, %r0, 1;
  add.s32 %r2, %r0, 2;
  add.s32 %r3, %r0, 3;
  add.s32 %r4, %r0, 4;
  add.s32 %r5, %r0, 5;
  add.s32 %r6, %r0, 6;
  add.s32 %r7, %r0, 7;
  add.s32 %r8, %r0, 8;
  add.s32 %r9, %r0, 9;
  add.s32 %r10, %r0, 10;
  add.s32 %r11, %r0, 11;
  add.s32 %r12, %r0, 12;
  add.s32 %r13, %r0, 13;
  add.s32 %r14, %r0, 14;
  add.s32 %r15, %r0, 15;
  add.s32 %r16, %r0, 16;
  ret;
}

.visible .entry conflict()
{
  .reg .b32 %r<20>;
  add.s32 %r2, %r1, %r17;
  add.s32 %r3, %r1, %r2;
  ret;
}

.visible .entry sfu()
{
  .reg .f32 %f<8>;
  sqrt.approx.f32 %f1, %f0;
  sqrt.approx.f32 %f2, %f0;
  sqrt.approx.f32 %f3, %f0;
  sqrt.approx.f32 %f4, %f0;
  ret;
}
)PTX";

// Eight independent shared loads at buf + tid * stride (stride in bytes).
inline const char* const kSmemPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry smem(.param .u32 stride)
{
  .reg .b32 %r<20>;
  .shared .align 4 .b8 buf[8192];
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  mul.lo.s32 %r3, %r2, %r1;
  mov.u32 %r4, buf;
  add.s32 %r5, %r4, %r3;
  ld.shared.u32 %r6, [%r5];
  ld.shared.u32 %r7, [%r5];
  ld.shared.u32 %r8, [%r5];
  ld.shared.u32 %r9, [%r5];
  ld.shared.u32 %r10, [%r5];
  ld.shared.u32 %r11, [%r5];
  ld.shared.u32 %r12, [%r5];
  ld.shared.u32 %r13, [%r5];
  ret;
}
)PTX";

// One global load at p + tid * stride, its use, and a store of the result
// back to the same place.
inline const char* const kStridePtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry strided(.param .u64 p, .param .u32 stride)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, %r1;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r3, [%rd3];
  add.s32 %r4, %r3, 1;
  st.global.u32 [%rd3], %r4;
  ret;
}
)PTX";

// Barrier: warp 0 runs a 10-add dependent chain before bar.sync, warp 1 goes
// straight to it; after the barrier every thread stores tid + chain result.
inline const char* const kBarrierPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry barrier(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[4];
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra WAIT;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  add.s32 %r2, %r2, 1;
  mov.u32 %r6, s;
  st.shared.u32 [%r6], %r2;
WAIT:
  bar.sync 0;
  mov.u32 %r6, s;
  ld.shared.u32 %r3, [%r6];
  add.s32 %r4, %r3, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)PTX";

// Uncoalesced load + atomic counter + store per thread: L1D fills, write-
// evict stores and L1-bypassing atomics compete for the memory socket.
//   q[tid * 32] += 1 (one line per lane); p[tid & 3] += 1 (atomic)
inline const char* const kMixMemPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry mixmem(.param .u64 p, .param .u64 q)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [q];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r7, %ntid.x;
  mad.lo.s32 %r8, %r2, %r7, %r1;
  mul.wide.u32 %rd3, %r8, 128;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r3, [%rd4];
  and.b32 %r4, %r1, 3;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd1, %rd5;
  atom.global.add.u32 %r5, [%rd6], 1;
  add.s32 %r6, %r3, 1;
  st.global.u32 [%rd4], %r6;
  ret;
}
)PTX";

// Out-of-bounds store: thread 0 writes past the end of its buffer.
inline const char* const kFaultPtx = R"PTX(.version 7.0
.target sm_70
.address_size 64

.visible .entry oob(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1+4096], %r1;
  ret;
}
)PTX";

}  // namespace simtlm::models::test
