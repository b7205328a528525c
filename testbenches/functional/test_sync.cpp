// Barriers: bar.sync across warps, barriers that count only live threads,
// bar.red.popc/and/or, named barriers with thread counts and bar.arrive,
// dynamic shared memory, deadlock reports, warp widths.
#include <gtest/gtest.h>

#include <vector>

#include "harness.h"

namespace simtlm::functional::test {
namespace {

// nvcc -arch=compute_75 -ptx of:
//   reverse: s[t] = data[g]; __syncthreads(); data[g] = s[blockDim.x - 1 - t]
//   exit_then_sync: if (t >= n) return; s[t] = 2t; __syncthreads(); out[t] = s[n - 1 - t]
//   popc_red: out[t] = __syncthreads_count(in[t] > 10) * 100 + __syncthreads_and(in[t] > 0) * 10
//                      + __syncthreads_or(in[t] > 1000)
//   smem_tree: tree reduction in extern __shared__ float buf[] with __syncthreads per level
const char* const kSyncPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

	// .globl	reverse
// _ZZ7reverseE1s has been demoted
// _ZZ14exit_then_syncE1s has been demoted
.extern .shared .align 16 .b8 buf[];

.visible .entry reverse(
	.param .u64 reverse_param_0
)
{
	.reg .b32 	%r<14>;
	.reg .b64 	%rd<5>;
	// demoted variable
	.shared .align 4 .b8 _ZZ7reverseE1s[1024];

	ld.param.u64 	%rd1, [reverse_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mad.lo.s32 	%r4, %r2, %r3, %r1;
	mul.wide.u32 	%rd3, %r4, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r5, [%rd4];
	shl.b32 	%r6, %r1, 2;
	mov.u32 	%r7, _ZZ7reverseE1s;
	add.s32 	%r8, %r7, %r6;
	st.shared.u32 	[%r8], %r5;
	bar.sync 	0;
	not.b32 	%r9, %r1;
	add.s32 	%r10, %r3, %r9;
	shl.b32 	%r11, %r10, 2;
	add.s32 	%r12, %r7, %r11;
	ld.shared.u32 	%r13, [%r12];
	st.global.u32 	[%rd4], %r13;
	ret;

}
	// .globl	exit_then_sync
.visible .entry exit_then_sync(
	.param .u64 exit_then_sync_param_0,
	.param .u32 exit_then_sync_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<5>;
	// demoted variable
	.shared .align 4 .b8 _ZZ14exit_then_syncE1s[1024];

	ld.param.u64 	%rd1, [exit_then_sync_param_0];
	ld.param.u32 	%r2, [exit_then_sync_param_1];
	mov.u32 	%r1, %tid.x;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB1_2;

	cvta.to.global.u64 	%rd2, %rd1;
	shl.b32 	%r3, %r1, 2;
	mov.u32 	%r4, _ZZ14exit_then_syncE1s;
	add.s32 	%r5, %r4, %r3;
	shl.b32 	%r6, %r1, 1;
	st.shared.u32 	[%r5], %r6;
	bar.sync 	0;
	not.b32 	%r7, %r1;
	add.s32 	%r8, %r7, %r2;
	shl.b32 	%r9, %r8, 2;
	add.s32 	%r10, %r4, %r9;
	ld.shared.u32 	%r11, [%r10];
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r11;

$L__BB1_2:
	ret;

}
	// .globl	popc_red
.visible .entry popc_red(
	.param .u64 popc_red_param_0,
	.param .u64 popc_red_param_1
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<14>;
	.reg .b64 	%rd<8>;


	ld.param.u64 	%rd1, [popc_red_param_0];
	ld.param.u64 	%rd2, [popc_red_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	setp.gt.s32 	%p1, %r2, 10;
	selp.u32 	%r3, 1, 0, %p1;
	{
	.reg .pred 	%p1;
	setp.ne.u32 	%p1, %r3, 0;
	bar.red.popc.u32 	%r4, 0, %p1;
	}
	ld.global.u32 	%r5, [%rd6];
	setp.gt.s32 	%p2, %r5, 0;
	selp.u32 	%r6, 1, 0, %p2;
	{
	.reg .pred 	%p1;
	.reg .pred 	%p2;
	setp.ne.u32 	%p1, %r6, 0;
	bar.red.and.pred 	%p2, 0, %p1;
	selp.u32 	%r7, 1, 0, %p2;
	}
	ld.global.u32 	%r8, [%rd6];
	setp.gt.s32 	%p3, %r8, 1000;
	selp.u32 	%r9, 1, 0, %p3;
	{
	.reg .pred 	%p1;
	.reg .pred 	%p2;
	setp.ne.u32 	%p1, %r9, 0;
	bar.red.or.pred 	%p2, 0, %p1;
	selp.u32 	%r10, 1, 0, %p2;
	}
	mul.lo.s32 	%r11, %r4, 100;
	mad.lo.s32 	%r12, %r7, 10, %r11;
	add.s32 	%r13, %r12, %r10;
	add.s64 	%rd7, %rd3, %rd5;
	st.global.u32 	[%rd7], %r13;
	ret;

}
	// .globl	smem_tree
.visible .entry smem_tree(
	.param .u64 smem_tree_param_0,
	.param .u64 smem_tree_param_1
)
{
	.reg .pred 	%p<5>;
	.reg .f32 	%f<6>;
	.reg .b32 	%r<14>;
	.reg .b64 	%rd<9>;


	ld.param.u64 	%rd2, [smem_tree_param_0];
	ld.param.u64 	%rd1, [smem_tree_param_1];
	mov.u32 	%r7, %ntid.x;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	mad.lo.s32 	%r8, %r1, %r7, %r2;
	cvta.to.global.u64 	%rd3, %rd2;
	mul.wide.u32 	%rd4, %r8, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.f32 	%f1, [%rd5];
	shl.b32 	%r9, %r2, 2;
	mov.u32 	%r10, buf;
	add.s32 	%r3, %r10, %r9;
	st.shared.f32 	[%r3], %f1;
	bar.sync 	0;
	shr.u32 	%r13, %r7, 1;
	setp.eq.s32 	%p1, %r13, 0;
	@%p1 bra 	$L__BB3_4;

$L__BB3_1:
	setp.ge.s32 	%p2, %r2, %r13;
	@%p2 bra 	$L__BB3_3;

	shl.b32 	%r11, %r13, 2;
	add.s32 	%r12, %r3, %r11;
	ld.shared.f32 	%f2, [%r3];
	ld.shared.f32 	%f3, [%r12];
	add.f32 	%f4, %f3, %f2;
	st.shared.f32 	[%r3], %f4;

$L__BB3_3:
	bar.sync 	0;
	shr.u32 	%r13, %r13, 1;
	setp.ne.s32 	%p3, %r13, 0;
	@%p3 bra 	$L__BB3_1;

$L__BB3_4:
	setp.ne.s32 	%p4, %r2, 0;
	@%p4 bra 	$L__BB3_6;

	ld.shared.f32 	%f5, [buf];
	cvta.to.global.u64 	%rd6, %rd1;
	mul.wide.u32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.f32 	[%rd8], %f5;

$L__BB3_6:
	ret;

}
)PTX";

TEST(SimtSync, ReverseThroughSharedMemory) {
  Harness h(kSyncPtx);
  const int threads = 256, ctas = 3;
  std::vector<int> data(threads * ctas);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i * 7 + 1);
  const uint64_t d = h.upload(data);
  h.run("reverse", dim(ctas), dim(threads), Args().add(d));
  auto v = h.download<int>(d, data.size());
  for (int b = 0; b < ctas; ++b)
    for (int t = 0; t < threads; ++t) EXPECT_EQ(v[b * threads + t], data[b * threads + threads - 1 - t]);
}

void check_exit_then_sync(int n, unsigned warp_size) {
  Harness h(kSyncPtx);
  const uint64_t out = h.upload(std::vector<int>(64, -5));
  h.run("exit_then_sync", dim(1), dim(64), Args().add(out).add(n), warp_size);
  auto v = h.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], t < n ? 2 * (n - 1 - t) : -5) << "n=" << n << " t=" << t;
}

TEST(SimtSync, BarrierCountsOnlyLiveThreadsPartialWarp) { check_exit_then_sync(40, 32); }

// Warp 1 exits entirely while warp 0 already waits: the exit must release it.
TEST(SimtSync, BarrierReleasedWhenWaitedForWarpExits) { check_exit_then_sync(20, 32); }

TEST(SimtSync, BarrierWithExitsAtOtherWidths) {
  check_exit_then_sync(20, 8);
  check_exit_then_sync(37, 64);
  check_exit_then_sync(5, 1);
}

TEST(SimtSync, BarRedPopcAndOr) {
  Harness h(kSyncPtx);
  const int threads = 96;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t) in[t] = (t * 13) % 40 + 1;  // all > 0, none > 1000
  const uint64_t din = h.upload(in);
  const uint64_t dout = h.alloc(threads * 4);
  h.run("popc_red", dim(1), dim(threads), Args().add(din).add(dout));
  int count = 0;
  for (int t = 0; t < threads; ++t) count += in[t] > 10;
  auto v = h.download<int>(dout, threads);
  for (int t = 0; t < threads; ++t) EXPECT_EQ(v[t], count * 100 + 10 + 0) << t;

  in[50] = -3;    // and becomes false
  in[17] = 5000;  // or becomes true
  Harness h2(kSyncPtx);
  const uint64_t din2 = h2.upload(in);
  const uint64_t dout2 = h2.alloc(threads * 4);
  h2.run("popc_red", dim(1), dim(threads), Args().add(din2).add(dout2));
  count = 0;
  for (int t = 0; t < threads; ++t) count += in[t] > 10;
  v = h2.download<int>(dout2, threads);
  for (int t = 0; t < threads; ++t) EXPECT_EQ(v[t], count * 100 + 0 + 1) << t;
}

float tree_ref(const std::vector<float>& in, int base, int n) {
  std::vector<float> b(in.begin() + base, in.begin() + base + n);
  for (int s = n / 2; s > 0; s >>= 1)
    for (int t = 0; t < s; ++t) b[t] += b[t + s];
  return b[0];
}

TEST(SimtSync, DynamicSharedTreeReductionAllWidths) {
  const int threads = 128, ctas = 3;
  std::vector<float> in(threads * ctas);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 37) % 101) * 0.25f;
  for (unsigned w : {1u, 8u, 32u, 64u, 48u}) {
    Harness h(kSyncPtx);
    const uint64_t din = h.upload(in);
    const uint64_t dout = h.alloc(ctas * 4);
    h.run("smem_tree", dim(ctas), dim(threads), Args().add(din).add(dout), w, threads * 4);
    auto v = h.download<float>(dout, ctas);
    for (int b = 0; b < ctas; ++b) EXPECT_EQ(v[b], tree_ref(in, b * threads, threads)) << "W=" << w;
  }
}

TEST(SimtSync, DynamicSharedTooSmallFaults) {
  Harness h(kSyncPtx);
  const uint64_t din = h.upload(std::vector<float>(64, 1.0f));
  const uint64_t dout = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("smem_tree", dim(1), dim(64), Args().add(din).add(dout), 32, 32 * 4);
  });
  EXPECT_NE(msg.find("out-of-bounds shared store"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (32,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the CTA's shared memory is 128 bytes"), std::string::npos) << msg;
}

// Producers (warps 0-1) fill shared memory and bar.arrive; consumers (warps
// 2-3) bar.sync on the same named barrier with a thread count, then read.
const char* const kNamedPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64
.visible .entry prodcons(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  .reg .pred %p<3>;
  .shared .align 4 .b32 buf[64];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  @!%p1 bra CONSUMER;
  mul.lo.u32 %r2, %r1, 7;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  st.shared.u32 [%r4], %r2;
  bar.arrive 1, 128;
  bra.uni END;
CONSUMER:
  bar.sync 1, 128;
  sub.u32 %r5, %r1, 64;
  shl.b32 %r3, %r5, 2;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  ld.shared.u32 %r6, [%r4];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
END:
  ret;
}

.visible .entry twobarriers(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra A;
  bar.sync 1;
  bra.uni END;
A:
  bar.sync 0;
END:
  ret;
}

.visible .entry counted(.param .u64 out)
{
  bar.sync 2, 96;
  ret;
}

.visible .entry halfwarp(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra SKIP;
  bar.sync 0;
SKIP:
  ret;
}
)PTX";

TEST(SimtSync, NamedBarrierArriveAndSyncWithCount) {
  Harness h(kNamedPtx);
  const uint64_t out = h.alloc(64 * 4);
  h.run("prodcons", dim(2), dim(128), Args().add(out));
  auto v = h.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(v[t], t * 7) << t;
}

TEST(SimtSync, DeadlockOnDifferentBarriers) {
  Harness h(kNamedPtx);
  const uint64_t out = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Deadlock, [&] {
    h.run("twobarriers", dim(2), dim(64), Args().add(out));
  });
  EXPECT_NE(msg.find("kernel 'twobarriers'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("CTA (0,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 0 waits at barrier 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 1 waits at barrier 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("32 of 64 threads arrived"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bar.sync 0"), std::string::npos) << msg;
}

// bar executes per warp: half a warp reaching the barrier arrives for the
// whole warp (lanes parked on the other path count), as on hardware.
TEST(SimtSync, BarrierInsideDivergentBranchCountsWholeWarp) {
  Harness h(kNamedPtx);
  const uint64_t out = h.alloc(4);
  const LaunchCounters c = h.run("halfwarp", dim(2), dim(64), Args().add(out));
  EXPECT_EQ(c.ctas, 2u);
}

TEST(SimtSync, DeadlockWhenCountExceedsThreads) {
  Harness h(kNamedPtx);
  const uint64_t out = h.alloc(4);
  const std::string msg = expect_error(ErrorKind::Deadlock, [&] {
    h.run("counted", dim(1), dim(64), Args().add(out));
  });
  EXPECT_NE(msg.find("kernel 'counted'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp 1 waits at barrier 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("64 of 96 threads arrived"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::functional::test
