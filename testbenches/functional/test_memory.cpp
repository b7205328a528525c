// Memory spaces and special registers: 3-D grids/blocks, %laneid/%warpid/
// %lanemask_*, shared-memory sizes, const/global module variables with
// initialisers, local arrays, generic addressing (cvta, isspacep), vector
// accesses, sign extension, mov pack/unpack, and device-fault reports.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/functional/memory_nvcc_sm75.ptx (its header says what each kernel does).
const char* const kMemFile = "functional/memory_nvcc_sm75.ptx";

TEST(SimtMemory, SpecialRegisters3D) {
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
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
  Harness h(test_data::ptx(kMemFile));
  const int nx = 13, ny = 7, nz = 5;
  const uint64_t out = h.upload(std::vector<float>(nx * ny * nz, -1.0f));
  h.run("grid3d", dim(4, 2, 3), dim(4, 4, 2), Args().add(out).add(nx).add(ny).add(nz));
  auto o = h.download<float>(out, nx * ny * nz);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) EXPECT_EQ(o[(z * ny + y) * nx + x], x + 100.0f * y + 10000.0f * z);
}

// testbenches/data/functional/memory_hand.ptx (its header says what each kernel does).
const char* const kHandFile = "functional/memory_hand.ptx";

TEST(SimtMemory, MovPackUnpack) {
  Harness h(test_data::ptx(kHandFile));
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
  Harness h(test_data::ptx(kHandFile));
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
  Harness h(test_data::ptx(kHandFile));
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
  Harness h(test_data::ptx(kHandFile));
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
  Harness h(test_data::ptx(kHandFile));
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
  Harness h(test_data::ptx(kHandFile));
  const std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("smem_overflow", dim(1), dim(32), Args().add(uint64_t{0}));
  });
  EXPECT_NE(msg.find("out-of-bounds shared store of 4 bytes at address 0x40"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the CTA's shared memory is 64 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (16,0,0)"), std::string::npos) << msg;
}

TEST(SimtFaults, LocalOverflowAndMisalignment) {
  Harness h(test_data::ptx(kHandFile));
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


// A 32-bit address register's sum wraps at 32 bits in the 32-bit windows, as
// on hardware: nvcc addresses a neighbour as [%r + 4] with %r 4 bytes before
// the element, which at a shared array's first element is 0xfffffffc. Scalar
// (fast path) and vector (general path) accesses, shared and local; a 64-bit
// register does not wrap, and a wrapped address beyond the buffer still faults.
TEST(SimtMemory, ThirtyTwoBitAddressRegistersWrap) {
  const std::string ptx = R"(.version 7.0
.target sm_50
.address_size 64
.shared .align 8 .b8 buf[16];
.visible .entry wrap(.param .u64 out, .param .u32 extra)
{
  .reg .u32 %r<12>;
  .reg .u64 %rd<3>;
  .local .align 8 .b8 frame[16];
  mov.u32 %r0, buf;
  sub.u32 %r1, %r0, 4;
  ld.param.u32 %r9, [extra];
  add.u32 %r10, %r1, %r9;
  mov.u32 %r2, 11;
  mov.u32 %r3, 22;
  st.shared.u32 [%r1+4], %r2;
  st.shared.u32 [%r1+8], %r3;
  ld.shared.u32 %r4, [%r1+8];
  ld.shared.v2.u32 {%r5, %r6}, [%r1+4];
  mov.u32 %r11, frame;
  sub.u32 %r11, %r11, 4;
  st.local.u32 [%r11+12], %r3;
  ld.local.u32 %r7, [%r11+12];
  atom.shared.add.u32 %r8, [%r10+4], 1;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r7};
  ret;
}
.visible .entry nowrap64()
{
  .reg .u64 %rd<3>;
  .reg .u32 %r<2>;
  mov.u64 %rd1, 4294967292;
  mov.u32 %r1, 5;
  st.shared.u32 [%rd1+4], %r1;
  ret;
}
)";
  Harness h(ptx);
  const uint64_t out = h.alloc(16);
  h.run("wrap", dim(1), dim(1), Args().add(out).add(uint32_t{0}));
  const auto o = h.download<uint32_t>(out, 4);
  EXPECT_EQ(o[0], 22u);  // buf[1], written through 0xfffffffc + 8
  EXPECT_EQ(o[1], 11u);  // buf[0] by the vector load
  EXPECT_EQ(o[2], 22u);
  EXPECT_EQ(o[3], 22u);  // frame[2]
  // 0xfffffffc + 16 + 4 wraps to 20: still beyond the 16-byte array.
  std::string msg = expect_error(ErrorKind::Fault, [&] {
    h.run("wrap", dim(1), dim(1), Args().add(out).add(uint32_t{16}));
  });
  EXPECT_NE(msg.find("out-of-bounds shared atom"), std::string::npos) << msg;
  msg = expect_error(ErrorKind::Fault, [&] { h.run("nowrap64", dim(1), dim(32), Args()); });
  EXPECT_NE(msg.find("out-of-bounds shared store of 4 bytes at address 0x100000000"), std::string::npos) << msg;
}


// A kernel without shared memory that touches shared address 0: no limit of
// the fast path could reject address 0, so it read and wrote past an empty
// buffer (a segmentation fault) before the size check moved out of the loop.
TEST(SimtFaults, SharedAccessWithoutSharedMemoryIsOutOfBounds) {
  const std::string ptx = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry ld0(.param .u64 out)
{
  .reg .u32 %r<3>;
  .reg .u64 %rd<3>;
  mov.u32 %r1, 0;
  ld.shared.u32 %r2, [%r1];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;
}
.visible .entry st0()
{
  .reg .u32 %r<2>;
  mov.u32 %r1, 0;
  st.shared.u32 [%r1], %r1;
  ret;
}
)";
  Harness h(ptx);
  const uint64_t out = h.alloc(4);
  std::string msg = expect_error(ErrorKind::Fault, [&] { h.run("ld0", dim(1), dim(32), Args().add(out)); });
  EXPECT_NE(msg.find("out-of-bounds shared load of 4 bytes at address 0x0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the CTA's shared memory is 0 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (0,0,0)"), std::string::npos) << msg;
  msg = expect_error(ErrorKind::Fault, [&] { h.run("st0", dim(1), dim(32), Args()); });
  EXPECT_NE(msg.find("out-of-bounds shared store of 4 bytes at address 0x0"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simtlm::functional::test
