// Module tests of the crossbar: N TestInitiators -> Crossbar -> M
// FixedLatencyMemories. Expected times follow docs/memory-system.md:
//   - a packet sent at time T (on an edge) may be granted at cycle T/P + 1;
//   - a packet of F flits holds its input and output for S = ceil(F / bw)
//     cycles and is ready at the output S - 1 + latency cycles after its grant;
//   - it leaves the output port in that cycle (request: BEGIN_REQ to the
//     memory side; reply: BEGIN_RESP to the requester).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include <systemc>

#include "models/noc/crossbar.h"
#include "simtlm/error.h"
#include "testbenches/models_cache/tb_traffic.h"

namespace simtlm::models {
namespace {

using tb::FixedLatencyMemory;
using tb::ns;
using tb::TestInitiator;

constexpr double kP = 1.0;     // crossbar clock (ns)
constexpr uint64_t kLm = 10;   // memory latency (cycles)

sc_core::sc_time cyc(uint64_t n) { return ns(kP * static_cast<double>(n)); }

XbarParams base_params(unsigned n, unsigned m) {
  XbarParams p;
  p.ports_in = n;
  p.ports_out = m;
  p.latency = 3;
  p.flit_bytes = 32;
  p.flits_per_cycle = 1;
  p.input_buffer_flits = 8;
  p.output_buffer_flits = 8;
  p.clock_period = ns(kP);
  return p;
}

struct Bench {
  std::vector<std::unique_ptr<TestInitiator>> init;
  std::unique_ptr<Crossbar> xbar;
  std::vector<std::unique_ptr<FixedLatencyMemory>> mem;
  Bench(const XbarParams& p, AddressMap map, std::size_t mem_outstanding = 1u << 20, uint64_t mem_latency = kLm) {
    xbar = std::make_unique<Crossbar>("xbar", p, std::move(map));
    for (unsigned i = 0; i < p.ports_in; ++i) {
      init.push_back(std::make_unique<TestInitiator>(("init" + std::to_string(i)).c_str()));
      init.back()->socket.bind(xbar->target_socket(i));
    }
    for (unsigned j = 0; j < p.ports_out; ++j) {
      mem.push_back(std::make_unique<FixedLatencyMemory>(("mem" + std::to_string(j)).c_str(), cyc(mem_latency),
                                                         mem_outstanding));
      xbar->initiator_socket(j).bind(mem.back()->socket);
    }
  }
  void run(double until_ns = 5000) { sc_core::sc_start(ns(until_ns)); }
  bool all_responded() const {
    for (const auto& i : init) {
      if (!i->all_responded()) return false;
    }
    return true;
  }
};

tb::TbRequest request(tlm::tlm_command cmd, uint64_t addr, uint32_t len, int32_t src) {
  tb::TbRequest r;
  r.cmd = cmd;
  r.kind = cmd == tlm::TLM_WRITE_COMMAND ? AccessKind::Store : AccessKind::Load;
  r.addr = addr;
  r.len = len;
  r.sm = src;
  return r;
}

TEST(Crossbar, SinglePacketLatencyInBothDirections) {
  const XbarParams p = base_params(2, 2);
  Bench b(p, linear_interleave(2, 128));
  b.init[0]->add(request(tlm::TLM_READ_COMMAND, 0x80, 128, 0));  // line 1 -> memory port 1
  b.run();
  ASSERT_TRUE(b.all_responded());
  ASSERT_EQ(b.mem[1]->seen.size(), 1u);
  EXPECT_TRUE(b.mem[0]->seen.empty());
  // Request: 1 flit (S = 1), granted at 1, leaves at 1 + latency.
  const uint64_t at_memory = 1 + p.latency;
  EXPECT_EQ(b.mem[1]->seen[0].at, cyc(at_memory));
  // Reply: 128 bytes = 4 flits, registered one edge after the memory answers.
  const uint64_t s_reply = p.serialization(p.flits_for(128));
  const uint64_t reply_grant = at_memory + kLm + 1;
  EXPECT_EQ((*b.init[0])[0].responded_at, cyc(reply_grant + s_reply - 1 + p.latency));
  EXPECT_EQ(b.xbar->stats().request.packets, 1u);
  EXPECT_EQ(b.xbar->stats().request.flits, 1u);
  EXPECT_EQ(b.xbar->stats().reply.flits, 4u);
}

void bandwidth_test(uint32_t flits_per_cycle) {
  XbarParams p = base_params(1, 1);
  p.flits_per_cycle = flits_per_cycle;
  Bench b(p, linear_interleave(1, 128));
  const unsigned n = 12;
  for (unsigned k = 0; k < n; ++k) b.init[0]->add(request(tlm::TLM_WRITE_COMMAND, k * 128, 128, 0));
  b.run();
  ASSERT_TRUE(b.all_responded());
  ASSERT_EQ(b.mem[0]->seen.size(), n);
  const uint64_t f = p.flits_for(128);
  const uint64_t s = (f + flits_per_cycle - 1) / flits_per_cycle;
  // Grants at 1, 1+S, 1+2S, ...: packet k reaches the memory at
  // 1 + k*S + S - 1 + latency, so n packets take n*S cycles.
  for (unsigned k = 0; k < n; ++k) {
    EXPECT_EQ(b.mem[0]->seen[k].at, cyc(p.latency + (k + 1) * s)) << "packet " << k;
  }
  EXPECT_EQ(b.mem[0]->seen[n - 1].at - b.mem[0]->seen[0].at, cyc((n - 1) * s));
  EXPECT_EQ(b.xbar->stats().request.flits, n * f);
}

TEST(Crossbar, OneFlitPerCycleLimitsPacketRate) { bandwidth_test(1); }
TEST(Crossbar, TwoFlitsPerCycleHalvesSerialisation) { bandwidth_test(2); }

TEST(Crossbar, RoundRobinSharesAnOutputFairly) {
  const XbarParams p = base_params(3, 1);
  Bench b(p, linear_interleave(1, 128));
  const unsigned per_source = 6;
  for (unsigned i = 0; i < 3; ++i) {
    for (unsigned k = 0; k < per_source; ++k) {
      b.init[i]->add(request(tlm::TLM_WRITE_COMMAND, (i * 64 + k) * 128, 128, static_cast<int32_t>(i)));
    }
  }
  b.run();
  ASSERT_TRUE(b.all_responded());
  const auto& seen = b.mem[0]->seen;
  ASSERT_EQ(seen.size(), 3u * per_source);
  const uint64_t s = p.serialization(p.flits_for(128));
  std::map<int32_t, uint64_t> next_id;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].sm, static_cast<int32_t>(k % 3)) << "position " << k;  // 0,1,2,0,1,2,...
    EXPECT_EQ(seen[k].id, next_id[seen[k].sm]++) << "in order per source";
    EXPECT_EQ(seen[k].at, cyc(p.latency + (k + 1) * s));  // the output never idles
  }
  EXPECT_GT(b.xbar->stats().request.arb_conflicts, 0u);
}

TEST(Crossbar, DisjointPairsTransferInParallel) {
  const XbarParams p = base_params(2, 2);
  Bench b(p, linear_interleave(2, 128));
  const unsigned n = 8;
  for (unsigned k = 0; k < n; ++k) {
    b.init[0]->add(request(tlm::TLM_WRITE_COMMAND, (2 * k) * 128, 128, 0));      // -> port 0
    b.init[1]->add(request(tlm::TLM_WRITE_COMMAND, (2 * k + 1) * 128, 128, 1));  // -> port 1
  }
  b.run();
  ASSERT_TRUE(b.all_responded());
  const uint64_t s = p.serialization(p.flits_for(128));
  for (unsigned j = 0; j < 2; ++j) {
    ASSERT_EQ(b.mem[j]->seen.size(), n);
    for (unsigned k = 0; k < n; ++k) {
      EXPECT_EQ(b.mem[j]->seen[k].at, cyc(p.latency + (k + 1) * s));
      EXPECT_EQ(b.mem[j]->seen[k].sm, static_cast<int32_t>(j));
    }
  }
  EXPECT_EQ(b.xbar->stats().request.arb_conflicts, 0u);
}

TEST(Crossbar, ReplyNetworkSerialisesDataReplies) {
  const XbarParams p = base_params(1, 1);
  Bench b(p, linear_interleave(1, 128));
  const unsigned n = 6;
  for (unsigned k = 0; k < n; ++k) b.init[0]->add(request(tlm::TLM_READ_COMMAND, k * 128, 128, 0));
  b.run();
  ASSERT_TRUE(b.all_responded());
  // Requests are 1 flit: granted at 1, 2, 3, ...; replies are 4 flits and
  // share one reply output, so they leave S_reply cycles apart.
  const uint64_t s_reply = p.serialization(p.flits_for(128));
  const uint64_t first_reply_grant = 1 + p.latency + kLm + 1;
  for (unsigned k = 0; k < n; ++k) {
    EXPECT_EQ(b.mem[0]->seen[k].at, cyc(1 + k + p.latency));
    EXPECT_EQ((*b.init[0])[k].responded_at, cyc(first_reply_grant + (k + 1) * s_reply - 1 + p.latency))
        << "reply " << k;
  }
  EXPECT_EQ(b.xbar->stats().reply.flits, n * p.flits_for(128));
  EXPECT_GT(b.xbar->stats().reply.input_stalls, 0u);  // the memory had to wait for END_RESP
}

TEST(Crossbar, BlockedOutputBackPressuresSendersWithoutLoss) {
  XbarParams p = base_params(2, 1);
  p.input_buffer_flits = 4;
  p.output_buffer_flits = 4;
  // The memory takes one request at a time and keeps it 20 cycles.
  const uint64_t slow = 20;
  Bench b(p, linear_interleave(1, 128), /*mem_outstanding=*/1, slow);
  const unsigned per_source = 5;
  for (unsigned i = 0; i < 2; ++i) {
    for (unsigned k = 0; k < per_source; ++k) {
      b.init[i]->add(request(tlm::TLM_WRITE_COMMAND, (i * 64 + k) * 128, 128, static_cast<int32_t>(i)));
    }
  }
  b.run(20000);
  ASSERT_TRUE(b.all_responded());
  const auto& seen = b.mem[0]->seen;
  ASSERT_EQ(seen.size(), 2u * per_source);
  std::map<int32_t, uint64_t> next_id;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].id, next_id[seen[k].sm]++) << "in order per source";
  }
  // The memory is the bottleneck: it accepts one request per `slow` cycles.
  for (std::size_t k = 1; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].at - seen[k - 1].at, cyc(slow));
  }
  // Senders were stalled by END_REQ: the last request of each source was
  // accepted long after it could have been sent.
  EXPECT_GT(b.xbar->stats().request.input_stalls, 0u);
  EXPECT_GT((*b.init[0])[per_source - 1].accepted_at, (*b.init[0])[per_source - 1].sent_at);
  EXPECT_GT(b.mem[0]->held, 0u);
}

TEST(Crossbar, HeaderBytesAddToThePacketSize) {
  XbarParams p = base_params(1, 1);
  p.header_bytes = 8;
  p.input_buffer_flits = 16;
  p.output_buffer_flits = 16;
  Bench b(p, linear_interleave(1, 128));
  const unsigned n = 6;
  for (unsigned k = 0; k < n; ++k) b.init[0]->add(request(tlm::TLM_WRITE_COMMAND, k * 128, 128, 0));
  b.run();
  ASSERT_TRUE(b.all_responded());
  const uint64_t f = (8 + 128 + p.flit_bytes - 1) / p.flit_bytes;  // 5 flits
  ASSERT_EQ(p.flits_for(128), f);
  ASSERT_EQ(p.flits_for(0), 1u);  // a read request: the header alone
  for (unsigned k = 0; k < n; ++k) EXPECT_EQ(b.mem[0]->seen[k].at, cyc(p.latency + (k + 1) * f));
  EXPECT_EQ(b.xbar->stats().request.flits, n * f);
}

// gpu.noc.header_bytes on the read path (the platform passes it to both
// networks): with 40-byte headers and 32-byte flits a read request is
// ceil(40/32) = 2 flits (header alone) and the reply of a 128-byte line
// ceil((40+128)/32) = 6 flits, against 1 and 4 flits without a header.
class CrossbarHeader : public ::testing::TestWithParam<uint32_t> {};

TEST_P(CrossbarHeader, HeaderBytesLengthenReadRequestsAndReplies) {
  {
    const uint32_t header = GetParam();
    XbarParams p = base_params(1, 1);
    p.header_bytes = header;
    const uint64_t f_req = header == 0 ? 1 : 2, f_rep = header == 0 ? 4 : 6;
    ASSERT_EQ(p.flits_for(0), f_req);
    ASSERT_EQ(p.flits_for(128), f_rep);
    Bench b(p, linear_interleave(1, 128));
    const unsigned n = 4;
    for (unsigned k = 0; k < n; ++k) b.init[0]->add(request(tlm::TLM_READ_COMMAND, k * 128, 128, 0));
    b.run();
    ASSERT_TRUE(b.all_responded());
    // Requests sent back to back at 0: granted at 1, 1 + f_req, ...; each
    // reaches the memory f_req - 1 + latency after its grant.
    for (unsigned k = 0; k < n; ++k) {
      EXPECT_EQ(b.mem[0]->seen[k].at, cyc(1 + k * f_req + f_req - 1 + p.latency)) << header << " " << k;
    }
    // First reply: granted one edge after the memory answers, S = f_rep.
    const uint64_t reply_grant = 1 + f_req - 1 + p.latency + kLm + 1;
    EXPECT_EQ((*b.init[0])[0].responded_at, cyc(reply_grant + f_rep - 1 + p.latency)) << header;
    EXPECT_EQ(b.xbar->stats().request.flits, n * f_req);
    EXPECT_EQ(b.xbar->stats().reply.flits, n * f_rep);
  }
}
// One SystemC elaboration per process: each header size is its own test.
INSTANTIATE_TEST_SUITE_P(Sizes, CrossbarHeader, ::testing::Values(0u, 40u));

TEST(Crossbar, IdealNetworkHasFixedLatencyAndNoContention) {
  XbarParams p = base_params(3, 1);
  p.ideal = true;
  Bench b(p, linear_interleave(1, 128));
  for (unsigned i = 0; i < 3; ++i) {
    b.init[i]->add(request(tlm::TLM_WRITE_COMMAND, i * 128, 128, static_cast<int32_t>(i)));
  }
  b.run();
  ASSERT_TRUE(b.all_responded());
  // All three cross at once (ready at 1 + latency); the output socket still
  // carries one BEGIN_REQ per cycle.
  for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(b.mem[0]->seen[k].at, cyc(1 + p.latency + k));
  EXPECT_EQ(b.xbar->stats().request.arb_conflicts, 0u);
}

TEST(Crossbar, LinearInterleaveRoutesLinesToPorts) {
  const XbarParams p = base_params(1, 4);
  Bench b(p, linear_interleave(4, 128));
  for (uint64_t k = 0; k < 8; ++k) b.init[0]->add(request(tlm::TLM_READ_COMMAND, k * 128 + 4, 4, 0));
  b.run();
  ASSERT_TRUE(b.all_responded());
  for (unsigned j = 0; j < 4; ++j) {
    ASSERT_EQ(b.mem[j]->seen.size(), 2u);
    for (const auto& s : b.mem[j]->seen) EXPECT_EQ((s.addr / 128) % 4, j);
  }
}

TEST(Crossbar, XorInterleaveSpreadsPowerOfTwoStrides) {
  const AddressMap lin = linear_interleave(4, 128);
  const AddressMap x = xor_interleave(4, 128);
  // Granule numbers 4k (a stride of 4 lines): linear maps all to port 0; the
  // XOR of the 2-bit fields of 4k = (k << 2) gives k & 3 for k < 4.
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(lin(4 * k * 128), 0u);
    EXPECT_EQ(x(4 * k * 128), k);
  }
  // Hand-computed: granule 5 = 0b01'01 -> 01 ^ 01 = 0; granule 6 = 0b01'10 -> 3;
  // granule 27 = 0b01'10'11 -> 11 ^ 10 ^ 01 = 0.
  EXPECT_EQ(x(5 * 128), 0u);
  EXPECT_EQ(x(6 * 128 + 127), 3u);
  EXPECT_EQ(x(27 * 128), 0u);
  // Each aligned group of 4 granules still covers all 4 ports.
  for (uint64_t g = 0; g < 64; g += 4) {
    unsigned seen = 0;
    for (uint64_t k = 0; k < 4; ++k) seen |= 1u << x((g + k) * 128);
    EXPECT_EQ(seen, 0xFu) << "group " << g;
  }
}

TEST(Crossbar, MismatchedReplyNetworkIsAConfigError) {
  XbarParams req = base_params(4, 2);
  XbarParams rep = base_params(4, 2);  // should be 2 -> 4
  EXPECT_THROW(Crossbar("xbar", req, rep, linear_interleave(2, 128)), Error);
  XbarParams bad = base_params(4, 2);
  bad.flits_per_cycle = 0;
  EXPECT_THROW(bad.validate("gpu.icnt"), Error);
}

}  // namespace
}  // namespace simtlm::models
