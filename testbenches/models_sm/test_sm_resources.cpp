// Building blocks of the SM (allocators, register banks, shared-memory banks,
// coalescer, fixed-latency caches, parameters from the configuration) and
// the SM's admission, barrier, completion, fault and stall-report behaviour.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/regfile/allocator.h"
#include "models/regfile/register_banks.h"
#include "models/sm/coalescer.h"
#include "models/sm/fixed_latency_cache.h"
#include "models/smem/allocator.h"
#include "models/smem/banks.h"
#include "simtlm/config.h"
#include "simtlm/error.h"
#include "testbenches/models_sm/kernels.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

CtaShape shape(uint32_t threads, uint32_t regs, uint64_t shared, uint32_t warp = 32) {
  CtaShape s;
  s.threads = threads;
  s.warp_size = warp;
  s.warps = (threads + warp - 1) / warp;
  s.regs_per_thread = regs;
  s.shared_bytes = shared;
  return s;
}

TEST(SmResources, BaselineRegisterAllocatorRoundsPerThreadAndPadsWarps) {
  regfile::AllocatorParams p;
  p.registers = 32768;
  p.granularity = 4;
  p.max_ctas = 8;
  regfile::BaselineAllocator a(p);
  const CtaShape s = shape(200, 21, 0);  // 7 warps = 224 threads, 21 -> 24 registers
  EXPECT_EQ(a.units(s), 24u * 224u);
  EXPECT_EQ(a.max_ctas(s), 6u);  // 32768 / 5376
  for (uint32_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(a.can_admit(s));
    a.admit(i, s);
  }
  EXPECT_FALSE(a.can_admit(s));
  a.release(2);
  EXPECT_TRUE(a.can_admit(s));
  EXPECT_EQ(a.in_use(), 5u * 5376u);
  EXPECT_THROW(a.release(2), Error);
  p.policy = "no_such_policy";  // an allocator nobody registered
  EXPECT_THROW(regfile::make_allocator(p), Error);
}

TEST(SmResources, BaselineSharedAllocatorRoundsToGranularity) {
  smem::AllocatorParams p;
  p.bytes = 16384;
  p.granularity = 128;
  p.max_ctas = 8;
  smem::BaselineAllocator a(p);
  const CtaShape s = shape(64, 8, 1000);
  EXPECT_EQ(a.bytes(s), 1024u);
  EXPECT_EQ(a.max_ctas(s), 8u);  // 16 fit, 8 slots
  EXPECT_EQ(a.max_ctas(shape(64, 8, 5000)), 3u);
  EXPECT_EQ(a.max_ctas(shape(64, 8, 0)), 8u);
}

TEST(SmResources, RegisterBanksSerialiseSameBankReads) {
  regfile::RegisterBanks banks(16, 1);
  const uint32_t same[2] = {1, 17};
  EXPECT_EQ(banks.read(same, 2, 0, 10), 12u);  // second read waits one cycle
  EXPECT_EQ(banks.conflicts(), 1u);
  const uint32_t diff[3] = {2, 3, 4};
  EXPECT_EQ(banks.read(diff, 3, 0, 20), 21u);
  EXPECT_EQ(banks.conflicts(), 1u);
  // Warp skew: register 1 of warp 15 is in bank 0, like register 0 of warp 0.
  EXPECT_EQ(banks.bank_of(1, 15), banks.bank_of(0, 0));
  // Two instructions of one cycle contend for a bank.
  const uint32_t r0[1] = {0};
  EXPECT_EQ(banks.read(r0, 1, 0, 30), 31u);
  EXPECT_EQ(banks.read(r0, 1, 16, 30), 32u);
  EXPECT_EQ(banks.conflicts(), 2u);
  EXPECT_EQ(banks.read(static_cast<const uint32_t*>(nullptr), 0, 0, 40), 41u);
}

TEST(SmResources, RegisterBankWritesSerialiseOnTheirOwnPorts) {
  regfile::RegisterBanks banks(16, 1, 1);
  const uint32_t same[2] = {1, 17};
  EXPECT_EQ(banks.write(same, 2, 0, 10), 11u);  // one write port: the second write lands a cycle later
  EXPECT_EQ(banks.write_conflicts(), 1u);
  EXPECT_EQ(banks.writes(), 2u);
  // The bank's write port is busy in cycle 11 now; another bank's is not.
  const uint32_t r1[1] = {1};
  const uint32_t r2[1] = {2};
  EXPECT_EQ(banks.write(r1, 1, 0, 11), 12u);
  EXPECT_EQ(banks.write(r2, 1, 0, 11), 11u);
  EXPECT_EQ(banks.write_conflicts(), 2u);
  // Reads have their own ports: a read of the bank being written is not delayed.
  EXPECT_EQ(banks.read(r1, 1, 0, 11), 12u);
  EXPECT_EQ(banks.conflicts(), 0u);
  // Two write ports take both writes in one cycle.
  regfile::RegisterBanks two(16, 1, 2);
  EXPECT_EQ(two.write(same, 2, 0, 10), 10u);
  EXPECT_EQ(two.write_conflicts(), 0u);
  EXPECT_EQ(two.write(static_cast<const uint32_t*>(nullptr), 0, 0, 20), 20u);
}

TEST(SmResources, SharedMemoryBankConflictDegree) {
  smem::Banks banks(32, 4);
  uint64_t a[32];
  auto fill = [&](uint64_t stride) {
    for (unsigned i = 0; i < 32; ++i) a[i] = i * stride;
  };
  fill(4);
  EXPECT_EQ(banks.degree(a, ~0u, 4), 1u);
  fill(128);
  EXPECT_EQ(banks.degree(a, ~0u, 4), 32u);
  fill(8);
  EXPECT_EQ(banks.degree(a, ~0u, 4), 2u);
  EXPECT_EQ(banks.degree(a, ~0u, 8), 2u);  // 64-bit: every lane covers 2 words
  fill(0);
  EXPECT_EQ(banks.degree(a, ~0u, 4), 1u);  // broadcast
  fill(128);
  EXPECT_EQ(banks.degree(a, 0x3u, 4), 2u);
  EXPECT_EQ(banks.degree(a, 0, 4), 0u);
  for (unsigned i = 0; i < 32; ++i) a[i] = 1000 + i * 4;
  EXPECT_EQ(banks.degree(a, ~0u, 4, 1000), 1u);
}

TEST(SmResources, CoalescerGroupsLanesIntoLinesAndSectors) {
  Coalescer c(128, 32);
  for (unsigned i = 0; i < 32; ++i) c.add(0x1000 + i * 4, 4);
  ASSERT_EQ(c.lines().size(), 1u);
  EXPECT_EQ(c.lines()[0].line, 0x1000u);
  EXPECT_EQ(c.lines()[0].sectors, 0xFu);
  c.clear();
  for (unsigned i = 0; i < 32; ++i) c.add(0x1000 + i * 128, 4);
  ASSERT_EQ(c.lines().size(), 32u);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(c.lines()[i].sectors, 1u);
  c.clear();
  c.add(0x1070, 32);  // crosses into the next line
  ASSERT_EQ(c.lines().size(), 2u);
  EXPECT_EQ(c.lines()[0].sectors, 0x8u);
  EXPECT_EQ(c.lines()[1].sectors, 0x1u);
  c.clear();
  c.add(0x2040, 4);
  c.add(0x1000, 4);
  c.add(0x2000, 4);
  ASSERT_EQ(c.lines().size(), 2u);
  EXPECT_EQ(c.lines()[0].line, 0x2000u);  // first-touch order
  EXPECT_EQ(c.lines()[0].sectors, 0x5u);
}

TEST(SmResources, FixedLatencyCacheHitsMissesMergesAndMshrs) {
  FixedLatencyCacheParams p;
  p.sets = 2;
  p.ways = 1;
  p.line_bytes = 64;
  p.mshrs = 1;
  p.hit_latency = 2;
  p.miss_latency = 30;
  FixedLatencyCache c(p);
  EXPECT_EQ(c.access(0, 10), 40u);
  EXPECT_EQ(c.access(8, 12), 40u);  // merge with the outstanding fill
  EXPECT_TRUE(c.would_block(64, 12));
  EXPECT_EQ(c.access(64, 12), FixedLatencyCache::kBlocked);
  EXPECT_EQ(c.access(4, 50), 52u);  // hit
  EXPECT_EQ(c.access(128, 50), 80u);  // same set: evicts line 0
  EXPECT_EQ(c.access(0, 90), 120u);
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(c.misses, 3u);
  EXPECT_EQ(c.merges, 1u);
}

TEST(SmResources, ParamsFromConfigFollowTheSchema) {
  Config cfg;
  const SmParams p = sm_params_from_config(cfg, 3);
  EXPECT_EQ(p.id, 3u);
  EXPECT_EQ(p.warp_size, 32u);
  EXPECT_EQ(p.max_warps(), 48u);
  EXPECT_EQ(p.schedulers, 2u);
  EXPECT_EQ(p.policy.name, "gto");
  EXPECT_EQ(p.op_int.add.latency, 4u);
  EXPECT_EQ(p.op_dp.div.initiation_interval, 130u);
  EXPECT_EQ(p.sfu.initiation_interval, 8u);
  EXPECT_EQ(p.l1d.hit_latency, 35u);
  EXPECT_EQ(p.l1d.write_policy, WritePolicy::WriteEvict);
  EXPECT_EQ(p.icache_miss_latency, 128u);  // L2 hit 120 + 2 x 4 interconnect
  EXPECT_EQ(p.param_latency, 35u);
  EXPECT_NO_THROW(p.validate());
  SmParams bad = p;
  bad.schedulers = 0;
  EXPECT_THROW(bad.validate(), Error);
}

TEST(SmResources, AdmissionLimitsAndOccupancy) {
  SmBench b(kVaddPtx, test_params());
  Sm& sm = b.sm();
  EXPECT_EQ(sm.max_resident_ctas(shape(512, 16, 0)), 3u);    // 1536 threads
  EXPECT_EQ(sm.max_resident_ctas(shape(64, 16, 0)), 8u);     // CTA slots
  EXPECT_EQ(sm.max_resident_ctas(shape(256, 32, 0)), 4u);    // 32768 / (32 x 256)
  EXPECT_EQ(sm.max_resident_ctas(shape(64, 8, 20000)), 2u);  // 49152 / 20000
  EXPECT_EQ(sm.max_resident_ctas(shape(32, 8, 0, 16)), 0u);  // other warp size
  EXPECT_EQ(sm.max_resident_ctas(shape(2048, 8, 0)), 0u);    // never fits
  // Asked again, in another order (the SM remembers its answers per shape).
  EXPECT_EQ(sm.max_resident_ctas(shape(64, 8, 20000)), 2u);
  EXPECT_EQ(sm.max_resident_ctas(shape(512, 16, 0)), 3u);
  EXPECT_EQ(sm.max_resident_ctas(shape(64, 8, 20000)), 2u);
  EXPECT_EQ(sm.max_resident_ctas(shape(256, 32, 0)), 4u);
  // Occupancy is enforced while running: 12 CTAs of 256 threads.
  const uint32_t n = 3000;
  const uint64_t pa = b.alloc(n * 4), pb = b.alloc(n * 4), pc = b.alloc(n * 4);
  const uint32_t regs = b.request("vadd", dim(1), dim(1), Args()).kernel->analysis.regs_per_thread;
  const uint32_t by_regs = 32768 / (((regs + 3) / 4 * 4) * 256);
  b.launch("vadd", dim(12), dim(256), Args().add(pa).add(pb).add(pc).add(n));
  b.run();
  ASSERT_TRUE(b.all_done());
  EXPECT_EQ(b.sm().stats().max_resident_ctas, std::min(6u, by_regs));  // 1536 / 256 threads
  EXPECT_EQ(b.sm().stats().ctas_completed, 12u);
  EXPECT_THROW(
      {
        functional::LaunchContext ctx(b.request("vadd", dim(1), dim(2048), Args().add(pa).add(pb).add(pc).add(n)),
                                      b.memory());
        b.sm().launch_cta(ctx, 0);
      },
      Error);
}

TEST(SmResources, BarrierHoldsWarpsUntilAllArrive) {
  SmParams p = test_params();
  p.op_int.add.latency = 10;
  SmBench b(kBarrierPtx, p);
  const uint64_t out = b.alloc(64 * 4);
  b.launch("barrier", dim(1), dim(64), Args().add(out));
  b.run();
  ASSERT_TRUE(b.all_done());
  uint64_t bar0 = 0, bar1 = 0, after1 = ~0ull;
  for (const IssueRecord& r : b.trace) {
    if (r.cls == functional::ExecClass::Barrier) (r.warp_in_cta == 0 ? bar0 : bar1) = r.cycle;
    if (r.warp_in_cta == 1 && r.cls != functional::ExecClass::Barrier && bar1 != 0 && after1 == ~0ull) after1 = r.cycle;
  }
  ASSERT_NE(after1, ~0ull);
  EXPECT_LT(bar1, bar0);      // warp 1 arrives first ...
  EXPECT_GT(after1, bar0);    // ... and continues only after warp 0 arrived
  EXPECT_GT(bar0 - bar1, 90u);  // 10 dependent adds of latency 10
  EXPECT_GT(b.sm().stats().slot_barrier, 50u);
  const auto got = b.download<uint32_t>(out, 64);
  EXPECT_EQ(got, b.download<uint32_t>(out, 64, true));
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(got[t], 10 + t);
}

TEST(SmResources, DescribeStallNamesWhatWarpsWaitOn) {
  SmParams p = test_params();
  p.op_int.add.latency = 10;
  SmBench b(kBarrierPtx, p);
  const uint64_t out = b.alloc(64 * 4);
  b.launch("barrier", dim(1), dim(64), Args().add(out));
  sc_core::sc_start(ns(60));
  const std::string d = b.sm().describe_stall();
  EXPECT_NE(d.find("waiting at barrier 0"), std::string::npos) << d;
  EXPECT_NE(d.find("waits for register %r2 (ALU result in flight)"), std::string::npos) << d;
  EXPECT_NE(d.find("gto:"), std::string::npos) << d;
  b.run();
  EXPECT_TRUE(b.all_done());
}

TEST(SmResources, CallbacksFireOncePerCtaAndWhenIdle) {
  SmBench b(kVaddPtx, test_params());
  int idle = 0;
  b.sm().set_idle_callback([&](Sm& sm) {
    ++idle;
    EXPECT_FALSE(sm.busy());
  });
  const uint32_t n = 256;
  const uint64_t pa = b.alloc(n * 4), pb = b.alloc(n * 4), pc = b.alloc(n * 4);
  b.launch("vadd", dim(4), dim(64), Args().add(pa).add(pb).add(pc).add(n));
  b.run();
  EXPECT_EQ(b.completed, 4u);
  EXPECT_EQ(idle, 1);
  EXPECT_EQ(b.sm().stats().ctas_launched, 4u);
  EXPECT_EQ(b.sm().resident_ctas(), 0u);
  EXPECT_EQ(b.sm().progress(), b.reference.warp_instructions);
}

TEST(SmResources, DeviceFaultStopsTheSm) {
  SmBench b(kFaultPtx, test_params());
  const uint64_t buf = b.alloc(64);
  EXPECT_THROW(b.launch("oob", dim(1), dim(32), Args().add(buf)), Error);  // functional reference faults too
  ASSERT_FALSE(b.all_done());
  b.run();
  ASSERT_TRUE(b.sm().fault() != nullptr);
  try {
    std::rethrow_exception(b.sm().fault());
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Fault);
  }
  EXPECT_NE(b.sm().describe_stall().find("device fault"), std::string::npos);
}

}  // namespace
}  // namespace simtlm::models::test
