// Hand-written PTX kernels of the SPU tests (docs/spu.md): each exercises one
// rule of the instructions' semantics with values the tests derive on their own.
#pragma once

namespace simtlm::functional::test {

inline constexpr const char* kSpuHeader = R"(
.version 7.5
.target sm_75
.address_size 64
)";

// Producer ahead of its consumer by one face. SM (0,0) stores 10, 11, 12 into
// its south CB, each followed by bar.blocksync.south; the south IU reads its
// north CB after each bar.blocksync.north into out[0..2]. The SM runs before
// the IU in every round of the functional driver, so it writes face r+1
// before the IU reads face r: only a second buffer keeps face r intact.
inline constexpr const char* kPingPong = R"(
.visible .entry pingpong(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  spu.sreg.u32 %r1, isiu;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra IU;
  mov.u32 %r2, 0;
SMLOOP:
  add.u32 %r3, %r2, 10;
  st.cb.south.u32 [0], %r3;
  bar.blocksync.south;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 3;
  @%p2 bra SMLOOP;
  ret;
IU:
  spu.sreg.u32 %r4, iudir;
  setp.ne.u32 %p3, %r4, 2;
  @%p3 bra DONE;
  mov.u32 %r2, 0;
IULOOP:
  bar.blocksync.north;
  ld.cb.north.u32 %r5, [0];
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 3;
  @%p2 bra IULOOP;
DONE:
  ret;
}
)";

// Global barrier. Every unit sets flags[%smid] = 1 (east IUs first leave when
// skip_east != 0), west IU y stores 100 + y into byte 4 of its east CB, then
// bar.blocksync; after it each unit writes the number of flags set into
// out[%smid], and an SM of column 0 what its west CB holds at byte 4 into
// out[32 + %smid].
inline constexpr const char* kGlobal = R"(
.visible .entry global_sync(.param .u64 flags, .param .u64 out, .param .u32 skip_east)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [flags];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r10, [skip_east];
  spu.sreg.u32 %r1, isiu;
  spu.sreg.u32 %r2, iudir;
  spu.sreg.u32 %r3, iuid;
  setp.ne.u32 %p1, %r1, 0;
  setp.eq.u32 %p2, %r2, 3;
  setp.ne.u32 %p3, %r10, 0;
  and.pred %p4, %p1, %p2;
  and.pred %p4, %p4, %p3;
  @%p4 bra DONE;
  mov.u32 %r4, %smid;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd4, %rd1, %rd3;
  mov.u32 %r5, 1;
  st.global.u32 [%rd4], %r5;
  setp.eq.u32 %p5, %r2, 1;
  and.pred %p5, %p5, %p1;
  add.u32 %r6, %r3, 100;
  @%p5 st.cb.east.u32 [4], %r6;
  bar.blocksync;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
SUM:
  mul.wide.u32 %rd5, %r8, 4;
  add.u64 %rd6, %rd1, %rd5;
  ld.global.u32 %r9, [%rd6];
  add.u32 %r7, %r7, %r9;
  add.u32 %r8, %r8, 1;
  setp.lt.u32 %p6, %r8, 32;
  @%p6 bra SUM;
  add.u64 %rd7, %rd2, %rd3;
  st.global.u32 [%rd7], %r7;
  @%p1 bra DONE;
  mov.u32 %r11, %ctaid.x;
  setp.ne.u32 %p7, %r11, 0;
  @%p7 bra DONE;
  ld.cb.west.u32 %r12, [4];
  st.global.u32 [%rd7+128], %r12;
DONE:
  ret;
}
)";

// CTA-wide arrival: in SM (0,0) (64 threads) warp 1 spins `spin` iterations and
// then thread 32 stores 77 into byte 8 of the south CB; warp 0 goes straight
// to bar.blocksync.south. The south IU reads byte 8 after its rendezvous
// into out[0]. `mixed` != 0: warp 1 uses the global bar.blocksync instead.
inline constexpr const char* kCtaWide = R"(
.visible .entry cta_wide(.param .u64 out, .param .u32 spin, .param .u32 mixed)
{
  .reg .pred %p<8>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [spin];
  ld.param.u32 %r10, [mixed];
  spu.sreg.u32 %r1, isiu;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra IU;
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p2, %r2, 32;
  @%p2 bra SYNC;
  mov.u32 %r3, 0;
SPIN:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p3, %r3, %r9;
  @%p3 bra SPIN;
  setp.eq.u32 %p4, %r2, 32;
  mov.u32 %r4, 77;
  @%p4 st.cb.south.u32 [8], %r4;
  setp.ne.u32 %p5, %r10, 0;
  @%p5 bra MIXED;
SYNC:
  bar.blocksync.south;
  ret;
MIXED:
  bar.blocksync;
  ret;
IU:
  spu.sreg.u32 %r5, iudir;
  setp.ne.u32 %p6, %r5, 2;
  @%p6 bra DONE;
  bar.blocksync.north;
  ld.cb.north.u32 %r6, [8];
  mov.u32 %r7, %tid.x;
  setp.ne.u32 %p7, %r7, 0;
  @%p7 bra DONE;
  st.global.u32 [%rd1], %r6;
DONE:
  ret;
}
)";

// Every unit writes its special registers to out[8 * %smid + 0..7] (isiu,
// iudir, iuid, regviu, regpassx, regpassy, regnpassx, regnpassy) and
// %ctaid.x, %ctaid.y, %nsmid to out[8 * 64 + 3 * %smid + 0..2].
inline constexpr const char* kSregs = R"(
.visible .entry sregs(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %smid;
  mul.wide.u32 %rd2, %r1, 32;
  add.u64 %rd3, %rd1, %rd2;
  spu.sreg.u32 %r2, isiu;
  st.global.u32 [%rd3], %r2;
  spu.sreg.u32 %r3, iudir;
  st.global.u32 [%rd3+4], %r3;
  spu.sreg.u32 %r4, iuid;
  st.global.u32 [%rd3+8], %r4;
  spu.sreg.u32 %r5, regviu;
  st.global.u32 [%rd3+12], %r5;
  spu.sreg.u32 %r6, regpassx;
  st.global.u32 [%rd3+16], %r6;
  spu.sreg.u32 %r7, regpassy;
  st.global.u32 [%rd3+20], %r7;
  spu.sreg.u32 %r8, regnpassx;
  st.global.u32 [%rd3+24], %r8;
  spu.sreg.u32 %r9, regnpassy;
  st.global.u32 [%rd3+28], %r9;
  mul.wide.u32 %rd4, %r1, 12;
  add.u64 %rd5, %rd1, %rd4;
  mov.u32 %r10, %ctaid.x;
  st.global.u32 [%rd5+2048], %r10;
  mov.u32 %r11, %ctaid.y;
  st.global.u32 [%rd5+2052], %r11;
  mov.u32 %r12, %nsmid;
  st.global.u32 [%rd5+2056], %r12;
  ret;
}
)";

// One CB access or synchronisation chosen by `what`, executed by the unit
// chosen by `who` (0: SM (0,0); 1: the north IU), everybody else leaves:
// 0: st.cb.south.u32 [off]; 1: ld.cb.north.u32 [off]; 2: bar.blocksync.east.
// Pass registers of a multi-pass launch. An SM writes (passx, passy, npassx,
// npassy, viu, %smid) to out[8 * (ctaid.y * nctaid.x + ctaid.x)]; an IU writes
// (1, passx, passy, npassx, npassy, viu) to out[1024 + 8 * (64 * iudir + iuid)]
// (each real IU of the launch once: its lane is in the whole grid).
inline constexpr const char* kPassRegs = R"(
.visible .entry pass_regs(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  spu.sreg.u32 %r1, regpassx;
  spu.sreg.u32 %r2, regpassy;
  spu.sreg.u32 %r3, regnpassx;
  spu.sreg.u32 %r4, regnpassy;
  spu.sreg.u32 %r5, regviu;
  spu.sreg.u32 %r6, isiu;
  setp.ne.u32 %p1, %r6, 0;
  @%p1 bra IU;
  mov.u32 %r7, %ctaid.y;
  mov.u32 %r8, %nctaid.x;
  mov.u32 %r9, %ctaid.x;
  mad.lo.u32 %r10, %r7, %r8, %r9;
  mul.wide.u32 %rd2, %r10, 32;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r2;
  st.global.u32 [%rd3+8], %r3;
  st.global.u32 [%rd3+12], %r4;
  st.global.u32 [%rd3+16], %r5;
  mov.u32 %r11, %smid;
  st.global.u32 [%rd3+20], %r11;
  ret;
IU:
  spu.sreg.u32 %r7, iudir;
  spu.sreg.u32 %r8, iuid;
  mad.lo.u32 %r9, %r7, 64, %r8;
  mul.wide.u32 %rd2, %r9, 32;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3+4096], %r6;
  st.global.u32 [%rd3+4100], %r1;
  st.global.u32 [%rd3+4104], %r2;
  st.global.u32 [%rd3+4108], %r3;
  st.global.u32 [%rd3+4112], %r4;
  st.global.u32 [%rd3+4116], %r5;
  ret;
}
)";

// Faces through a row of passes. SM (X, Y) adds
// its ctaid.x + 1 to the value it receives from the west and passes it east,
// `faces` times (bar.blocksync.west / .east around it); the west IU of row Y
// feeds 1000 * Y + f for face f; the east IU stores what arrives at
// out[Y * faces + f]. With `global_sync` every unit uses the global barrier
// instead, with the wavefront schedule of the stencil (SM X works face f at
// step X + f + 1, the west IU feeds face f at step f, the east IU takes it at
// step gx + f + 1; gx + faces + 1 steps). Directed only: an SM with odd X
// spins `spin` iterations before each face (a slow producer and consumer
// between fast ones), and SM X = `skip` skips its bar.blocksync.east of
// face 0 (a kernel that skips a blocksync). Global only: SM (skip, 0) ends
// at step 1 (a CTA ending early).
inline constexpr const char* kRow = R"(
.visible .entry row(.param .u64 out, .param .u32 faces, .param .u32 global_sync, .param .u32 spin,
                    .param .u32 skip)
{
  .reg .pred %p<12>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [faces];
  ld.param.u32 %r2, [global_sync];
  ld.param.u32 %r20, [spin];
  ld.param.u32 %r21, [skip];
  mov.u32 %r3, %nctaid.x;
  add.u32 %r4, %r3, %r1;
  add.u32 %r4, %r4, 1;          // steps = gx + faces + 1
  spu.sreg.u32 %r5, isiu;
  spu.sreg.u32 %r6, iudir;
  spu.sreg.u32 %r7, iuid;
  mov.u32 %r8, %ctaid.x;
  setp.ne.u32 %p7, %r2, 0;
  mov.u32 %r10, 0;              // step (global) or face (directed)
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra IU;
SM_LOOP:
  @%p7 bra SM_GLOBAL;
  setp.ge.u32 %p2, %r10, %r1;
  @%p2 bra DONE;
  and.b32 %r22, %r8, 1;
  mul.lo.u32 %r22, %r22, %r20;  // spin iterations: odd X only
  mov.u32 %r23, 0;
SPIN:
  setp.lt.u32 %p8, %r23, %r22;
  @!%p8 bra SPUN;
  add.u32 %r23, %r23, 1;
  bra SPIN;
SPUN:
  bar.blocksync.west;
  ld.cb.west.u32 %r11, [0];
  add.u32 %r11, %r11, %r8;
  add.u32 %r11, %r11, 1;
  st.cb.east.u32 [0], %r11;
  setp.eq.u32 %p9, %r8, %r21;
  setp.eq.u32 %p10, %r10, 0;
  and.pred %p9, %p9, %p10;
  @!%p9 bar.blocksync.east;
  add.u32 %r10, %r10, 1;
  bra SM_LOOP;
SM_GLOBAL:
  setp.ge.u32 %p2, %r10, %r4;
  @%p2 bra DONE;
  mov.u32 %r24, %ctaid.y;       // SM (skip, 0) ends early, at step 1
  setp.eq.u32 %p9, %r8, %r21;
  setp.eq.u32 %p10, %r24, 0;
  setp.eq.u32 %p11, %r10, 1;
  and.pred %p9, %p9, %p10;
  and.pred %p9, %p9, %p11;
  @%p9 bra DONE;
  sub.u32 %r12, %r10, %r8;      // face = step - X - 1
  sub.u32 %r12, %r12, 1;
  setp.lt.u32 %p3, %r12, %r1;   // unsigned: also false before the first face
  @!%p3 bra SM_SYNC;
  ld.cb.west.u32 %r11, [0];
  add.u32 %r11, %r11, %r8;
  add.u32 %r11, %r11, 1;
  st.cb.east.u32 [0], %r11;
SM_SYNC:
  bar.blocksync;
  add.u32 %r10, %r10, 1;
  bra SM_LOOP;
IU:
  setp.eq.u32 %p4, %r6, 1;      // west: feeds
  setp.eq.u32 %p5, %r6, 3;      // east: stores
  @%p7 bra IU_GLOBAL;
  setp.ge.u32 %p2, %r10, %r1;
  @%p2 bra DONE;
  @%p5 bar.blocksync.west;
  mad.lo.u32 %r13, %r7, 1000, %r10;
  @%p4 st.cb.east.u32 [0], %r13;
  @%p4 bar.blocksync.east;
  @!%p5 bra IU_NEXT;
  ld.cb.west.u32 %r14, [0];
  mad.lo.u32 %r15, %r7, %r1, %r10;
  mul.wide.u32 %rd2, %r15, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r14;
IU_NEXT:
  add.u32 %r10, %r10, 1;
  bra IU;
IU_GLOBAL:
  setp.ge.u32 %p2, %r10, %r4;
  @%p2 bra DONE;
  mov.u32 %r12, %r10;           // west: face = step
  @%p5 sub.u32 %r12, %r10, %r3; // east: face = step - gx - 1
  @%p5 sub.u32 %r12, %r12, 1;
  setp.lt.u32 %p3, %r12, %r1;
  @!%p3 bra IU_SYNC;
  mad.lo.u32 %r13, %r7, 1000, %r12;
  @%p4 st.cb.east.u32 [0], %r13;
  @!%p5 bra IU_SYNC;
  ld.cb.west.u32 %r14, [0];
  mad.lo.u32 %r15, %r7, %r1, %r12;
  mul.wide.u32 %rd2, %r15, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r14;
IU_SYNC:
  bar.blocksync;
  add.u32 %r10, %r10, 1;
  bra IU_GLOBAL;
DONE:
  ret;
}
)";

inline constexpr const char* kOne = R"(
.visible .entry one(.param .u32 what, .param .u32 who, .param .u32 off)
{
  .reg .pred %p<9>;
  .reg .b32 %r<12>;
  ld.param.u32 %r1, [what];
  ld.param.u32 %r2, [who];
  ld.param.u32 %r3, [off];
  spu.sreg.u32 %r4, isiu;
  spu.sreg.u32 %r5, iudir;
  setp.eq.u32 %p1, %r2, 0;
  setp.eq.u32 %p2, %r4, 0;
  setp.eq.u32 %p3, %r5, 0;
  setp.ne.u32 %p8, %r4, 0;
  and.pred %p3, %p3, %p8;
  selp.u32 %r6, 1, 0, %p2;
  selp.u32 %r7, 1, 0, %p3;
  selp.u32 %r8, %r6, %r7, %p1;
  setp.eq.u32 %p4, %r8, 0;
  @%p4 bra DONE;
  setp.eq.u32 %p5, %r1, 0;
  @%p5 st.cb.south.u32 [%r3], %r1;
  setp.eq.u32 %p6, %r1, 1;
  @%p6 ld.cb.north.u32 %r9, [%r3];
  setp.eq.u32 %p7, %r1, 2;
  @%p7 bar.blocksync.east;
DONE:
  ret;
}
)";

// Global and directed synchronisation mixed: the SMs wait at
// bar.blocksync.east, every IU at the global bar.blocksync.
inline constexpr const char* kMixedSync = R"(
.visible .entry mixed_sync()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  spu.sreg.u32 %r1, isiu;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra IU;
  bar.blocksync.east;
  ret;
IU:
  bar.blocksync;
  ret;
}
)";

// Interface-unit capabilities: every unit runs `what` = 0: an FP add,
// 1: a shared-memory store, 2: only an FP add whose guard is false (the
// spu.sreg makes it an SPU kernel: one without SPU instructions runs as on a GPU).
inline constexpr const char* kIuCaps = R"(
.shared .align 4 .b8 buf[64];
.visible .entry iu_caps(.param .u32 what)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  ld.param.u32 %r1, [what];
  spu.sreg.u32 %r2, isiu;
  mov.f32 %f1, 0f3F800000;
  setp.eq.u32 %p1, %r1, 99;
  @%p1 add.f32 %f2, %f1, %f1;
  setp.eq.u32 %p2, %r1, 0;
  @%p2 add.f32 %f3, %f1, %f1;
  setp.eq.u32 %p3, %r1, 1;
  @%p3 st.shared.u32 [buf], %r1;
  ret;
}
)";

}  // namespace simtlm::functional::test
