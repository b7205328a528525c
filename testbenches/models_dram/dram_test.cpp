// Module tests of the DRAM channel: a TestInitiator drives one DramChannel.
// Expected times follow docs/memory-system.md: a request sent at time T (on
// an edge) is registered and schedulable at cycle T/P + 1; one command per
// cycle; the response leaves at the cycle its last data beat ends
// (frontend/backend latencies are 0 here). Burst time Bc = burst_length /
// data_rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include <systemc>

#include "models/dram/dram_channel.h"
#include "simtlm/error.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models {
namespace {

using tb::ns;
using tb::TestInitiator;

constexpr double kP = 1.0;  // DRAM clock (ns)
sc_core::sc_time cyc(uint64_t n) { return ns(kP * static_cast<double>(n)); }

DramParams base_params() {
  DramParams p;  // GDDR5-like defaults (dram_params.h)
  p.clock_period = ns(kP);
  return p;
}

// Address of (bank, row, chunk-in-row, byte) under the documented mapping:
// K-byte chunks rotate over the banks, a row of every bank fills before the next row.
uint64_t addr_of(const DramParams& p, uint64_t bank, uint64_t row, uint64_t chunk = 0, uint64_t byte = 0) {
  const uint64_t k = p.bank_interleave_bytes;
  return row * p.row_bytes * p.banks + chunk * k * p.banks + bank * k + byte;
}

struct Bench {
  TestInitiator init{"init"};
  DramChannel dram;
  explicit Bench(const DramParams& p) : dram("dram", p) { init.socket.bind(dram.target_socket); }
  void run(double until_ns = 3000) { sc_core::sc_start(ns(until_ns)); }
};

TEST(Dram, AddressMappingFollowsDocumentedLayout) {
  const DramParams p = base_params();
  DramAddressMap map(p);
  // 256-byte chunks, 16 banks, 2 KB rows: bank = (a/256)%16, row = a/32K.
  DramAddress a = map.decode(0x0);
  EXPECT_EQ(a.bank, 0u);
  EXPECT_EQ(a.row, 0u);
  a = map.decode(5 * 256 + 17);
  EXPECT_EQ(a.bank, 5u);
  EXPECT_EQ(a.bank_group, 5u % p.bank_groups);
  EXPECT_EQ(a.column, 17u);
  a = map.decode(3 * 32768 + 2 * 4096 + 9 * 256 + 64);  // row 3, chunk 2, bank 9
  EXPECT_EQ(a.row, 3u);
  EXPECT_EQ(a.bank, 9u);
  EXPECT_EQ(a.column, 2u * 256 + 64);
  // Channel interleave removal: 2 channels, 256 B granules.
  DramParams q = base_params();
  q.channels = 2;
  EXPECT_EQ(DramAddressMap(q).local_address(3 * 256 + 5), 1u * 256 + 5);
  // Bank XOR with the row.
  DramParams x = base_params();
  x.bank_xor = true;
  EXPECT_EQ(DramAddressMap(x).decode(addr_of(x, 5, 3)).bank, 5u ^ 3u);
}

TEST(Dram, ClosedRowReadLatencyIsRcdPlusClPlusBurst) {
  const DramParams p = base_params();
  Bench b(p);
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const DramTiming& t = p.timing;
  EXPECT_EQ(b.init[0].responded_at, cyc(1 + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.dram.stats().row_misses, 1u);
  EXPECT_EQ(b.dram.stats().activates, 1u);
}

TEST(Dram, RowHitReadLatencyIsClPlusBurst) {
  const DramParams p = base_params();
  Bench b(p);
  b.init.read(ns(0), addr_of(p, 0, 0, 0), 32);
  const uint64_t t0 = 100;
  b.init.read(cyc(t0), addr_of(p, 0, 0, 3), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[1].responded_at, cyc(t0 + 1 + p.timing.tCL + p.burst_cycles()));
  EXPECT_EQ(b.dram.stats().row_hits, 1u);
  EXPECT_EQ(b.dram.stats().row_misses, 1u);
  EXPECT_EQ(b.dram.stats().activates, 1u);
}

TEST(Dram, RowConflictReadLatencyAddsPrechargeAndActivate) {
  const DramParams p = base_params();
  Bench b(p);
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  const uint64_t t0 = 100;  // later than tRAS after the first ACT
  b.init.read(cyc(t0), addr_of(p, 0, 1), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const DramTiming& t = p.timing;
  EXPECT_EQ(b.init[1].responded_at, cyc(t0 + 1 + t.tRP + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.dram.stats().row_conflicts, 1u);
  EXPECT_EQ(b.dram.stats().precharges, 1u);
  EXPECT_EQ(b.dram.stats().activates, 2u);
}

TEST(Dram, FrFcfsServesYoungerRowHitBeforeOlderConflict) {
  const DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);  // opens row 0 of bank 0
  const uint64_t t0 = 100;
  b.init.read(cyc(t0), addr_of(p, 0, 1), 32);     // X: older, row conflict
  b.init.read(cyc(t0), addr_of(p, 0, 0, 1), 32);  // Y: younger, row hit
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t a = t0 + 1;  // both registered here
  EXPECT_EQ(b.init[2].responded_at, cyc(a + t.tCL + p.burst_cycles()));
  // X's PRE waits for Y's read-to-precharge, then PRE -> ACT -> RD.
  const uint64_t pre = a + std::max(t.tRTP, t.tRTPL);
  EXPECT_EQ(b.init[1].responded_at, cyc(pre + t.tRP + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.init.response_order, (std::vector<std::size_t>{0, 2, 1}));
}

TEST(Dram, FcfsServesOldestFirstEvenOnConflict) {
  DramParams p = base_params();
  p.scheduler = DramScheduler::Fcfs;
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  const uint64_t t0 = 100;
  b.init.read(cyc(t0), addr_of(p, 0, 1), 32);     // X
  b.init.read(cyc(t0), addr_of(p, 0, 0, 1), 32);  // Y: its row gets closed by X
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t a = t0 + 1;
  const uint64_t act_x = a + t.tRP;
  EXPECT_EQ(b.init[1].responded_at, cyc(act_x + t.tRCD + t.tCL + p.burst_cycles()));
  // Y reopens row 0: PRE no earlier than tRAS after X's ACT.
  EXPECT_EQ(b.init[2].responded_at, cyc(act_x + t.tRAS + t.tRP + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.init.response_order, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(b.dram.stats().row_conflicts, 2u);
}

TEST(Dram, ActivatesAreSpacedByTrrd) {
  const DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  b.init.read(ns(0), addr_of(p, 1, 0), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[0].responded_at, cyc(1 + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.init[1].responded_at, cyc(1 + t.tRRD + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.dram.stats().activates, 2u);
}

TEST(Dram, ActivatesToOneBankAreSpacedByTrc) {
  DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  b.init.read(ns(0), addr_of(p, 0, 1), 32);  // same bank, other row
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // ACT at 1; PRE at 1 + tRAS (tRAS dominates tRTP after the RD at 1 + tRCD);
  // ACT again at max(1 + tRAS + tRP, 1 + tRC).
  const uint64_t act2 = 1 + std::max<uint64_t>(t.tRAS + t.tRP, t.tRC);
  EXPECT_EQ(b.init[1].responded_at, cyc(act2 + t.tRCD + t.tCL + p.burst_cycles()));
}

TEST(Dram, ColumnCommandsUseTccdlInsideABankGroupAndTccdAcross) {
  const DramParams p = base_params();
  ASSERT_EQ(p.bank_groups, 4u);
  Bench b(p);
  const DramTiming& t = p.timing;
  // Open bank 0 (group 0), bank 4 (group 0) and bank 1 (group 1).
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  b.init.read(cyc(20), addr_of(p, 4, 0), 32);
  b.init.read(cyc(40), addr_of(p, 1, 0), 32);
  const uint64_t t1 = 200, t2 = 300;
  b.init.read(cyc(t1), addr_of(p, 0, 0, 1), 32);  // 3
  b.init.read(cyc(t1), addr_of(p, 4, 0, 1), 32);  // 4: same group as 3
  b.init.read(cyc(t2), addr_of(p, 0, 0, 2), 32);  // 5
  b.init.read(cyc(t2), addr_of(p, 1, 0, 1), 32);  // 6: other group than 5
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t bc = p.burst_cycles();
  EXPECT_EQ(b.init[3].responded_at, cyc(t1 + 1 + t.tCL + bc));
  EXPECT_EQ(b.init[4].responded_at, cyc(t1 + 1 + std::max<uint64_t>(t.tCCDL, bc) + t.tCL + bc));
  EXPECT_EQ(b.init[6].responded_at, cyc(t2 + 1 + std::max<uint64_t>(t.tCCD, bc) + t.tCL + bc));
  EXPECT_EQ(b.dram.stats().row_hits, 4u);
}

TEST(Dram, WriteLatencyAndWriteToReadTurnaround) {
  const DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);  // open the row
  const uint64_t t0 = 100;
  b.init.write(cyc(t0), addr_of(p, 0, 0, 1), 32);
  b.init.read(cyc(t0), addr_of(p, 0, 0, 2), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t bc = p.burst_cycles();
  const uint64_t write_end = t0 + 1 + t.tWL + bc;
  EXPECT_EQ(b.init[1].responded_at, cyc(write_end));
  // Same bank group: the read waits tWTR after the end of the write data.
  EXPECT_EQ(b.init[2].responded_at, cyc(write_end + t.tWTR + t.tCL + bc));
  EXPECT_EQ(b.dram.stats().writes, 1u);
  EXPECT_EQ(b.dram.stats().write_bursts, 1u);
}

TEST(Dram, ReadToWriteTurnaroundOnTheDataBus) {
  const DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);   // open bank 0 (group 0)
  b.init.read(cyc(20), addr_of(p, 1, 0), 32); // open bank 1 (group 1)
  const uint64_t t0 = 100;
  b.init.read(cyc(t0), addr_of(p, 0, 0, 1), 32);
  b.init.write(cyc(t0), addr_of(p, 1, 0, 1), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t bc = p.burst_cycles();
  const uint64_t a = t0 + 1;
  const uint64_t read_end = a + t.tCL + bc;
  // The write data may start no earlier than read_end + tRTW.
  const uint64_t wr_cmd = std::max<uint64_t>(a + t.tCCD, read_end + t.tRTW - t.tWL);
  EXPECT_EQ(b.init[3].responded_at, cyc(wr_cmd + t.tWL + bc));
  EXPECT_EQ(b.init[3].responded_at, cyc(read_end + t.tRTW + bc));  // the turnaround binds here
}

TEST(Dram, MultiBurstRequestHoldsTheBusForEachBurst) {
  const DramParams p = base_params();
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 128);  // 4 bursts of 32 B
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  const uint64_t bursts = 128 / p.burst_bytes();
  const uint64_t bc = p.burst_cycles();
  // Same bank: bursts are max(tCCDL, Bc) apart.
  const uint64_t last_rd = 1 + t.tRCD + (bursts - 1) * std::max<uint64_t>(t.tCCDL, bc);
  EXPECT_EQ(b.init[0].responded_at, cyc(last_rd + t.tCL + bc));
  EXPECT_EQ(b.dram.stats().read_bursts, bursts);
  EXPECT_EQ(b.dram.stats().bus_busy_cycles, bursts * bc);
  EXPECT_EQ(b.dram.stats().bytes_read, 128u);
}

TEST(Dram, SectorMaskSelectsBursts) {
  const DramParams p = base_params();
  Bench b(p);
  b.init.read(ns(0), addr_of(p, 0, 0), 128, /*mask=*/0x5);  // 2 sectors of 32 B
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.dram.stats().read_bursts, 2u * 32 / p.burst_bytes());
}

TEST(Dram, FullQueueDelaysEndReq) {
  DramParams p = base_params();
  p.queue_size = 2;
  Bench b(p);
  const DramTiming& t = p.timing;
  for (uint64_t k = 0; k < 4; ++k) b.init.read(ns(0), addr_of(p, 0, 0, k), 32);
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  // #0, #1 fill the queue at 0; #2 enters when #0's read issues (1 + tRCD),
  // #3 when #1's read issues tCCDL later (same bank).
  EXPECT_EQ(b.init[1].accepted_at, cyc(0));
  EXPECT_EQ(b.init[2].accepted_at, cyc(1 + t.tRCD));
  EXPECT_EQ(b.init[3].accepted_at, cyc(1 + t.tRCD + t.tCCDL));
  EXPECT_EQ(b.dram.stats().requests_held, 2u);
  EXPECT_EQ(b.dram.stats().reads, 4u);
}

TEST(Dram, StreamingReadsReachNinetyPercentOfPeakBandwidth) {
  const DramParams p = base_params();
  Bench b(p);
  const uint64_t n = 1024, line = 128;
  for (uint64_t k = 0; k < n; ++k) b.init.read(ns(0), k * line, static_cast<uint32_t>(line));
  b.run(100000);
  ASSERT_TRUE(b.init.all_responded());
  sc_core::sc_time last = sc_core::SC_ZERO_TIME;
  for (const auto& r : b.init.records) last = std::max(last, r.responded_at);
  const double cycles = last / cyc(1);
  const double peak = p.peak_bytes_per_cycle();  // bus_width_bytes * data_rate
  const double efficiency = static_cast<double>(n * line) / (cycles * peak);
  RecordProperty("efficiency_percent", static_cast<int>(efficiency * 100));
  EXPECT_GE(efficiency, 0.90) << "cycles " << cycles;
  const DramStats& s = b.dram.stats();
  EXPECT_EQ(s.bytes_read, n * line);
  EXPECT_EQ(s.bus_busy_cycles, n * line / p.burst_bytes() * p.burst_cycles());
  // Every bank opens each of its rows exactly once: n*line bytes span
  // n*line / (row_bytes*banks) rows per bank.
  EXPECT_EQ(s.activates, n * line / p.row_bytes);
}

TEST(Dram, ClosePagePolicyPrechargesIdleRows) {
  DramParams p = base_params();
  p.page_policy = PagePolicy::Close;
  Bench b(p);
  const DramTiming& t = p.timing;
  b.init.read(ns(0), addr_of(p, 0, 0), 32);
  const uint64_t t0 = 100;
  b.init.read(cyc(t0), addr_of(p, 0, 0, 1), 32);  // same row, but it was closed meanwhile
  b.run();
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[1].responded_at, cyc(t0 + 1 + t.tRCD + t.tCL + p.burst_cycles()));
  EXPECT_EQ(b.dram.stats().row_hits, 0u);
  EXPECT_EQ(b.dram.stats().row_misses, 2u);
  EXPECT_EQ(b.dram.stats().precharges, 2u);  // after each access, once tRAS allows
}

TEST(Dram, FullReturnQueueHoldsColumnCommands) {
  DramParams p = base_params();
  p.return_queue_size = 1;
  Bench b(p);
  const uint64_t hold = 50;  // the requester ends each response 50 cycles late
  b.init.response_hold = cyc(hold);
  const DramTiming& t = p.timing;
  for (uint64_t k = 0; k < 3; ++k) b.init.read(ns(0), addr_of(p, 0, 0, k), 32);
  // #0 reads at 1 + tRCD and completes at r0. While its response waits in the
  // one-entry return queue no read issues; #1 reads in the cycle after #0's
  // response left (r0 + 1). #1's response then occupies the queue until the
  // requester ends #0's response (hold cycles later, seen one edge after).
  const uint64_t r0 = 1 + t.tRCD + t.tCL + p.burst_cycles();
  b.run(static_cast<double>(r0 + hold / 2));
  EXPECT_EQ(b.dram.stats().read_bursts, 2u);  // #0 and #1 only; without the limit all 3
  b.run(3000);
  ASSERT_TRUE(b.init.all_responded());
  EXPECT_EQ(b.init[0].responded_at, cyc(r0));
  EXPECT_EQ(b.init[1].responded_at, cyc(r0 + (hold + 1)));
  EXPECT_EQ(b.init[2].responded_at, cyc(r0 + 2 * (hold + 1)));
  EXPECT_GT(b.dram.stats().return_queue_stalls, 0u);
}

TEST(Dram, TwoPortsShareTheChannelRoundRobin) {
  DramParams p = base_params();
  p.queue_size = 1;
  TestInitiator a("a"), c("c");
  DramChannel dram("dram", p, 2);
  a.socket.bind(dram.target_socket);
  c.socket.bind(dram.target_socket_at(1));
  const unsigned n = 4;
  for (unsigned k = 0; k < n; ++k) {
    a.read(ns(0), addr_of(p, 0, 0, k), 32);
    c.read(ns(0), addr_of(p, 1, 0, k), 32);
  }
  sc_core::sc_start(ns(3000));
  ASSERT_TRUE(a.all_responded());
  ASSERT_TRUE(c.all_responded());
  // Each requester gets its own responses, in its own order...
  EXPECT_EQ(a.response_order, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(c.response_order, (std::vector<std::size_t>{0, 1, 2, 3}));
  // ...and with a one-entry queue the ports take turns after the first request.
  std::vector<std::pair<sc_core::sc_time, int>> all;
  for (unsigned k = 0; k < n; ++k) {
    all.push_back({a[k].responded_at, 0});
    all.push_back({c[k].responded_at, 1});
  }
  std::sort(all.begin(), all.end());
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_NE(all[i].second, all[i - 1].second) << i;
  EXPECT_EQ(dram.stats().reads, 2u * n);
}

TEST(Dram, InvalidParametersNameTheField) {
  DramParams p = base_params();
  p.bank_groups = 3;
  try {
    p.validate("gpu.dram");
    FAIL() << "expected a Config error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("bank_groups"), std::string::npos);
  }
  DramParams q = base_params();
  q.data_rate = 3;  // does not divide burst_length 8
  EXPECT_THROW(q.validate("x"), Error);
  DramScheduler s;
  EXPECT_TRUE(parse_dram_scheduler("frfcfs", s));
  EXPECT_EQ(s, DramScheduler::FrFcfs);
  EXPECT_FALSE(parse_dram_scheduler("fr-fcfs", s));
  PagePolicy pp;
  EXPECT_TRUE(parse_page_policy("close", pp));
  EXPECT_EQ(pp, PagePolicy::Close);
}

}  // namespace
}  // namespace simtlm::models
