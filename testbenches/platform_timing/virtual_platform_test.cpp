// A timing Device driven from inside a running SystemC simulation, as a CPU
// model of a virtual platform drives it: launch() called from an SC_THREAD
// waits while the GPU and every other module of the platform run on, and
// returns after the kernel's simulated time has passed for the caller.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "simtlm/device_memory_target.h"
#include "testbenches/platform_timing/platform_harness.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm {
namespace {

// Another module of the platform: counts its own 10 ns ticks for ever.
struct Ticker : sc_core::sc_module {
  uint64_t ticks = 0;
  SC_HAS_PROCESS(Ticker);
  explicit Ticker(const sc_core::sc_module_name& n) : sc_core::sc_module(n) { SC_THREAD(loop); }
  void loop() {
    for (;;) {
      sc_core::wait(10, sc_core::SC_NS);
      ++ticks;
    }
  }
};

// The CPU model: runs `program` in a thread process, then stops the simulation.
struct Cpu : sc_core::sc_module {
  std::function<void()> program;
  SC_HAS_PROCESS(Cpu);
  Cpu(const sc_core::sc_module_name& n, std::function<void()> p) : sc_core::sc_module(n), program(std::move(p)) {
    SC_THREAD(main);
  }
  void main() {
    program();
    sc_core::sc_stop();
  }
};

// The CPU model with a bus socket (its program is set after construction).
struct BusCpu : Cpu {
  tlm_utils::simple_initiator_socket<BusCpu> bus{"bus"};
  explicit BusCpu(const sc_core::sc_module_name& n) : Cpu(n, nullptr) {}
};

LaunchConfig blocks(uint32_t grid, uint32_t block) {
  LaunchConfig lc;
  lc.grid = Dim3(grid);
  lc.block = Dim3(block);
  return lc;
}

TEST(VirtualPlatform, LaunchFromAThreadTakesSimulatedTimeWhileThePlatformRuns) {
  const auto cfg = test::make_config({});
  Device dev(test::timing_options(cfg));
  Ticker ticker("ticker");
  const uint32_t n = 4 * 256;
  std::vector<float> a(n), b(n), c;
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.25f * float(i);
  LaunchStats stats;
  sc_core::sc_time before, after;
  uint64_t ticks_before = 0, ticks_after = 0;
  Cpu cpu("cpu", [&] {
    sc_core::wait(1, sc_core::SC_US);  // the CPU does something else first
    const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(n * 4);
    before = sc_core::sc_time_stamp();
    ticks_before = ticker.ticks;
    stats = dev.launch(h, "vec_add", blocks(4, 256), KernelArgs().add(da).add(db).add(dc).add(n));
    after = sc_core::sc_time_stamp();
    ticks_after = ticker.ticks;
    c = dev.download<float>(dc, n);
  });
  sc_core::sc_start();

  ASSERT_EQ(c.size(), n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], 1.25f * float(i)) << "i=" << i;
  EXPECT_EQ(before, sc_core::sc_time(1, sc_core::SC_US));
  // The launch's core cycles are the simulated time the caller waited.
  ASSERT_GT(stats.cycles, 0u);
  const double core_ns = 1e3 / cfg->f64("gpu.clocks.core_mhz");
  const double waited_cycles = (after - before).to_seconds() * 1e9 / core_ns;
  EXPECT_NEAR(waited_cycles, double(stats.cycles), 2.0 + 1e-3 * double(stats.cycles));
  // The rest of the platform ran meanwhile: one tick per 10 ns.
  const double ticks_expected = (after - before).to_seconds() * 1e9 / 10.0;
  EXPECT_NEAR(double(ticks_after - ticks_before), ticks_expected, 1.0);
  EXPECT_EQ(dev.launch_history().size(), 1u);
}

TEST(VirtualPlatform, CpuMovesDataOverTheBusAndLaunchesOnTheTimingModel) {
  Device dev(test::timing_options(test::make_config({})));
  DeviceMemoryTarget gpu_mem("gpu_mem", dev, sc_core::sc_time(10, sc_core::SC_NS));
  BusCpu cpu("cpu");
  cpu.bus.bind(gpu_mem.socket);
  const uint32_t n = 512;
  std::vector<float> c(n);
  // One bus transaction of `bytes` at device address `addr`.
  auto transfer = [&](tlm::tlm_command cmd, DevicePtr addr, void* data, uint32_t bytes) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(static_cast<unsigned char*>(data));
    t.set_data_length(bytes);
    t.set_streaming_width(bytes);
    sc_core::sc_time delay;
    cpu.bus->b_transport(t, delay);
    sc_core::wait(delay);  // a loosely-timed initiator that syncs after each access
    EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
  };
  cpu.program = [&] {
    const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    const DevicePtr da = dev.malloc(n * 4), db = dev.malloc(n * 4), dc = dev.malloc(n * 4);
    std::vector<float> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = -0.5f * float(i);
    transfer(tlm::TLM_WRITE_COMMAND, da, a.data(), n * 4);
    transfer(tlm::TLM_WRITE_COMMAND, db, b.data(), n * 4);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(20, sc_core::SC_NS));
    dev.launch(h, "vec_add", blocks(2, 256), KernelArgs().add(da).add(db).add(dc).add(n));
    transfer(tlm::TLM_READ_COMMAND, dc, c.data(), n * 4);
  };
  sc_core::sc_start();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], 0.5f * float(i)) << "i=" << i;
  EXPECT_EQ(gpu_mem.writes(), 2u);
  EXPECT_EQ(gpu_mem.reads(), 1u);
}

TEST(VirtualPlatform, SecondLaunchStartsWhereTheCallerIs) {
  Device dev(test::timing_options(test::make_config({})));
  std::vector<LaunchStats> stats;
  std::vector<sc_core::sc_time> starts, ends;
  Cpu cpu("cpu", [&] {
    const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    std::vector<float> a(256, 1.0f);
    const DevicePtr da = dev.upload(a), dc = dev.malloc(256 * 4);
    for (int k = 0; k < 2; ++k) {
      starts.push_back(sc_core::sc_time_stamp());
      stats.push_back(dev.launch(h, "vec_add", blocks(1, 256), KernelArgs().add(da).add(da).add(dc).add(256u)));
      ends.push_back(sc_core::sc_time_stamp());
      sc_core::wait(5, sc_core::SC_US);  // host work between the launches
    }
  });
  sc_core::sc_start();
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(starts[1], ends[0] + sc_core::sc_time(5, sc_core::SC_US));
  EXPECT_GT(ends[1], starts[1]);
  for (const LaunchStats& s : stats) EXPECT_GT(s.cycles, 0u);
}

TEST(VirtualPlatform, DeviceFaultReachesTheCallingThreadAndThePlatformGoesOn) {
  Device dev(test::timing_options(test::make_config({})));
  Ticker ticker("ticker");
  std::string error;
  ErrorKind kind = ErrorKind::Internal;
  uint64_t ticks_at_fault = 0;
  Cpu cpu("cpu", [&] {
    const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
    const DevicePtr small = dev.malloc(16), big = dev.malloc(1024);
    try {
      // n = 256 but c has room for 4 elements.
      dev.launch(h, "vec_add", blocks(1, 256), KernelArgs().add(big).add(big).add(small).add(256u));
    } catch (const Error& e) {
      error = e.what();
      kind = e.kind();
    }
    ticks_at_fault = ticker.ticks;
    sc_core::wait(1, sc_core::SC_US);
  });
  sc_core::sc_start();
  EXPECT_EQ(kind, ErrorKind::Fault) << error;
  EXPECT_GE(ticker.ticks, ticks_at_fault + 99);  // the platform ran on for 1 us
}

TEST(VirtualPlatform, WatchdogEndsADeadlockedLaunchInTheCallingThread) {
  Device dev(test::timing_options(test::make_config({"gpu.num_sms=2", "sim.watchdog_cycles=2000"})));
  std::string error;
  ErrorKind kind = ErrorKind::Internal;
  Cpu cpu("cpu", [&] {
    const ModuleHandle m = dev.load_module_string(test::kDeadlockPtx, "deadlock.ptx");
    try {
      dev.launch(m, "deadlock", blocks(1, 64), KernelArgs());
    } catch (const Error& e) {
      error = e.what();
      kind = e.kind();
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(kind, ErrorKind::Deadlock) << error;
  EXPECT_NE(error.find("sim.watchdog_cycles = 2000"), std::string::npos) << error;
}

TEST(VirtualPlatform, LaunchFromAMethodIsAUsageError) {
  Device dev(test::timing_options(test::make_config({})));
  struct Poker : sc_core::sc_module {
    Device& dev;
    std::string error;
    ErrorKind kind = ErrorKind::Internal;
    SC_HAS_PROCESS(Poker);
    Poker(const sc_core::sc_module_name& n, Device& d) : sc_core::sc_module(n), dev(d) { SC_METHOD(poke); }
    void poke() {
      try {
        const ModuleHandle h = dev.load_module_string(test::kVecAddPtx, "vec.ptx");
        dev.launch(h, "vec_add", blocks(1, 32), KernelArgs().add(uint64_t(0)).add(uint64_t(0)).add(uint64_t(0)).add(0u));
      } catch (const Error& e) {
        error = e.what();
        kind = e.kind();
      }
    }
  } poker("poker", dev);
  sc_core::sc_start(1, sc_core::SC_US);
  EXPECT_EQ(poker.kind, ErrorKind::Usage) << poker.error;
  EXPECT_NE(poker.error.find("SC_THREAD"), std::string::npos) << poker.error;
  EXPECT_NE(poker.error.find("poker.poke"), std::string::npos) << poker.error;
}

}  // namespace
}  // namespace simtlm
