// DeviceMemoryTarget: a virtual platform's initiator reads and writes the
// Device's global memory with TLM-2.0 transactions. Expected bytes come from
// what the test wrote through the Device API (or through the socket) itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "simtlm/device.h"
#include "simtlm/device_memory_target.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm {
namespace {

// A CPU model: runs `program` in a thread with a bus initiator socket.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  std::function<void(Initiator&)> program;
  SC_HAS_PROCESS(Initiator);
  std::vector<std::pair<uint64_t, uint64_t>> invalidated;  // DMI ranges the target withdrew
  explicit Initiator(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
    SC_THREAD(main);
    socket.register_invalidate_direct_mem_ptr(this, &Initiator::invalidate);
  }
  void main() {
    if (program) program(*this);
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }

  // One blocking transaction; returns its response status, adds its delay to `delay`.
  tlm::tlm_response_status transfer(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len,
                                    sc_core::sc_time& delay, const uint8_t* be = nullptr, unsigned be_len = 0,
                                    unsigned width = 0) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(static_cast<unsigned char*>(data));
    t.set_data_length(len);
    t.set_streaming_width(width == 0 ? len : width);
    t.set_byte_enable_ptr(const_cast<uint8_t*>(be));
    t.set_byte_enable_length(be_len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
    return t.get_response_status();
  }
};

TEST(DeviceMemoryTarget, BusWritesAndReadsAreDeviceMemory) {
  Device dev;
  Initiator cpu("cpu");
  DeviceMemoryTarget target("gpu_mem", dev, sc_core::sc_time(20, sc_core::SC_NS));
  cpu.socket.bind(target.socket);
  const DevicePtr buf = dev.malloc(64);
  std::vector<uint8_t> seen(64);
  sc_core::sc_time delay;
  cpu.program = [&](Initiator& c) {
    std::vector<uint8_t> bytes(64);
    for (unsigned i = 0; i < 64; ++i) bytes[i] = uint8_t(3 * i + 1);
    EXPECT_EQ(c.transfer(tlm::TLM_WRITE_COMMAND, buf, bytes.data(), 64, delay), tlm::TLM_OK_RESPONSE);
    uint32_t word = 0;
    EXPECT_EQ(c.transfer(tlm::TLM_READ_COMMAND, buf + 8, &word, 4, delay), tlm::TLM_OK_RESPONSE);
    uint32_t expected;
    std::memcpy(&expected, &bytes[8], 4);
    EXPECT_EQ(word, expected);
  };
  sc_core::sc_start();
  dev.memcpy_to_host(seen.data(), buf, 64);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(seen[i], uint8_t(3 * i + 1)) << i;
  EXPECT_EQ(delay, sc_core::sc_time(40, sc_core::SC_NS));  // two transactions, 20 ns each
  EXPECT_EQ(target.writes(), 1u);
  EXPECT_EQ(target.reads(), 1u);
  EXPECT_EQ(target.errors(), 0u);
}

TEST(DeviceMemoryTarget, OutsideAnAllocationIsAnAddressErrorAndCopiesNothing) {
  Device dev;
  Initiator cpu("cpu");
  DeviceMemoryTarget target("gpu_mem", dev);
  cpu.socket.bind(target.socket);
  const DevicePtr buf = dev.malloc(16);
  dev.memset(buf, 0x5A, 16);
  cpu.program = [&](Initiator& c) {
    sc_core::sc_time delay;
    std::vector<uint8_t> data(32, 0xEE);
    // Runs past the end of the 16-byte buffer.
    EXPECT_EQ(c.transfer(tlm::TLM_WRITE_COMMAND, buf + 8, data.data(), 16, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Never allocated.
    EXPECT_EQ(c.transfer(tlm::TLM_READ_COMMAND, 0x10, data.data(), 4, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  };
  sc_core::sc_start();
  std::vector<uint8_t> seen(16);
  dev.memcpy_to_host(seen.data(), buf, 16);
  for (uint8_t b : seen) EXPECT_EQ(b, 0x5A);
  EXPECT_EQ(target.errors(), 2u);
}

TEST(DeviceMemoryTarget, ByteEnablesStreamingWidthOffsetAndDebugAccess) {
  Device dev;
  Initiator cpu("cpu");
  const DevicePtr buf = dev.malloc(16);
  // The bus delivers addresses relative to the GPU window; the window starts at `buf`.
  DeviceMemoryTarget target("gpu_mem", dev, sc_core::SC_ZERO_TIME, buf);
  cpu.socket.bind(target.socket);
  dev.memset(buf, 0, 16);
  bool ran = false;
  cpu.program = [&](Initiator& c) {
    sc_core::sc_time delay;
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint8_t be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};  // every other byte
    EXPECT_EQ(c.transfer(tlm::TLM_WRITE_COMMAND, 0, data, 8, delay, be, 2), tlm::TLM_OK_RESPONSE);
    // Streaming width 2: eight bytes into the same two device bytes, the last pair wins.
    uint8_t fifo[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    EXPECT_EQ(c.transfer(tlm::TLM_WRITE_COMMAND, 12, fifo, 8, delay, nullptr, 0, 2), tlm::TLM_OK_RESPONSE);
    // Debug read through the same socket (no timing).
    tlm::tlm_generic_payload t;
    uint8_t back[16] = {};
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(0);
    t.set_data_ptr(back);
    t.set_data_length(16);
    t.set_streaming_width(16);
    EXPECT_EQ(c.socket->transport_dbg(t), 16u);
    const uint8_t expected[16] = {1, 0, 3, 0, 5, 0, 7, 0, 0, 0, 0, 0, 16, 17, 0, 0};
    for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(back[i], expected[i]) << i;
    t.set_address(12);  // 16 bytes from offset 12 leave the allocation
    EXPECT_EQ(c.socket->transport_dbg(t), 0u);
    ran = true;
  };
  sc_core::sc_start();
  EXPECT_TRUE(ran);
}

TEST(DeviceMemoryTarget, NonBlockingRequestsCompleteOnTheReturnPath) {
  Device dev;
  Initiator cpu("cpu");
  DeviceMemoryTarget target("gpu_mem", dev, sc_core::sc_time(5, sc_core::SC_NS));
  cpu.socket.bind(target.socket);
  const DevicePtr buf = dev.malloc(4);
  cpu.program = [&](Initiator& c) {
    uint32_t v = 0xCAFEF00Du;
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(buf);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    t.set_data_length(4);
    t.set_streaming_width(4);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(c.socket->nb_transport_fw(t, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(delay, sc_core::sc_time(5, sc_core::SC_NS));
  };
  sc_core::sc_start();
  EXPECT_EQ(dev.download<uint32_t>(buf, 1)[0], 0xCAFEF00Du);
}

TEST(DeviceMemoryTarget, AKernelSeesWhatTheBusWroteAndTheBusSeesItsResults) {
  Device dev;  // the functional backend: the same target serves either backend
  Initiator cpu("cpu");
  DeviceMemoryTarget target("gpu_mem", dev);
  cpu.socket.bind(target.socket);
  const uint32_t n = 100;
  std::vector<float> c(n);
  cpu.program = [&](Initiator& bus) {
    const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    const DevicePtr da = dev.malloc(n * 4), db = dev.malloc(n * 4), dc = dev.malloc(n * 4);
    std::vector<float> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 2.0f;
    sc_core::sc_time delay;
    bus.transfer(tlm::TLM_WRITE_COMMAND, da, a.data(), n * 4, delay);
    bus.transfer(tlm::TLM_WRITE_COMMAND, db, b.data(), n * 4, delay);
    LaunchConfig lc;
    lc.grid = Dim3(1);
    lc.block = Dim3(128);
    dev.launch(h, "vec_add", lc, KernelArgs().add(da).add(db).add(dc).add(n));
    EXPECT_EQ(bus.transfer(tlm::TLM_READ_COMMAND, dc, c.data(), n * 4, delay), tlm::TLM_OK_RESPONSE);
  };
  sc_core::sc_start();
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(c[i], float(i) + 2.0f) << i;
}

TEST(DeviceMemoryTarget, DirectMemoryAccessCoversOneAllocationUntilItIsFreed) {
  Device dev;
  Initiator cpu("cpu");
  DeviceMemoryTarget target("gpu_mem", dev, sc_core::sc_time(7, sc_core::SC_NS));
  cpu.socket.bind(target.socket);
  const DevicePtr keep = dev.malloc(100), buf = dev.malloc(300);
  tlm::tlm_generic_payload t;
  t.set_address(buf + 40);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(cpu.socket->get_direct_mem_ptr(t, dmi));
  EXPECT_EQ(dmi.get_start_address(), buf);
  EXPECT_EQ(dmi.get_end_address(), buf + 299);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_read_latency(), sc_core::sc_time(7, sc_core::SC_NS));
  // Stores through the pointer are device memory.
  dmi.get_dmi_ptr()[40] = 0x77;
  EXPECT_EQ(dev.download<uint8_t>(buf + 40, 1)[0], 0x77);
  // Outside every allocation: no grant.
  tlm::tlm_dmi none;
  t.set_address(0x20);
  EXPECT_FALSE(cpu.socket->get_direct_mem_ptr(t, none));
  EXPECT_FALSE(none.is_read_allowed() || none.is_write_allowed());
  // A successful transaction hints that DMI is available.
  uint8_t byte = 0;
  sc_core::sc_time delay;
  cpu.program = [&](Initiator& c) {
    tlm::tlm_generic_payload r;
    r.set_command(tlm::TLM_READ_COMMAND);
    r.set_address(buf + 40);
    r.set_data_ptr(&byte);
    r.set_data_length(1);
    r.set_streaming_width(1);
    c.socket->b_transport(r, delay);
    EXPECT_TRUE(r.is_dmi_allowed());
  };
  sc_core::sc_start();
  EXPECT_EQ(byte, 0x77);
  // Freeing the allocation withdraws exactly its range; freeing another one
  // withdraws that one's.
  ASSERT_TRUE(cpu.invalidated.empty());
  dev.free(buf);
  ASSERT_EQ(cpu.invalidated.size(), 1u);
  EXPECT_EQ(cpu.invalidated[0], std::make_pair(uint64_t(buf), uint64_t(buf + 299)));
  dev.free(keep);
  ASSERT_EQ(cpu.invalidated.size(), 2u);
  EXPECT_EQ(cpu.invalidated[1], std::make_pair(uint64_t(keep), uint64_t(keep + 99)));
}

}  // namespace
}  // namespace simtlm
