// Device memory through the Device API and functional::GlobalMemory directly:
// alignment, zero fill, copies, bounds errors with their messages, free rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "functional/launch.h"
#include "functional/memory.h"
#include "simtlm/config.h"
#include "simtlm/device.h"
#include "testbenches/common/error_of.h"

namespace simtlm {
namespace {

using ::testing::HasSubstr;

// Runs `f`, expects Error of `kind` and returns its message.
using test::error_of;

TEST(RuntimeMemory, MallocIsAlignedDistinctAndZeroFilled) {
  Device dev;
  DevicePtr a = dev.malloc(100);
  DevicePtr b = dev.malloc(1);
  DevicePtr c = dev.malloc(4096);
  for (DevicePtr p : {a, b, c}) {
    EXPECT_NE(p, 0u);
    EXPECT_EQ(p % 256, 0u);
    EXPECT_GE(p, functional::kGlobalBase);
    EXPECT_LT(p, functional::kLocalWindowBase);
  }
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  std::vector<uint8_t> bytes = dev.download<uint8_t>(c, 4096);
  for (uint8_t v : bytes) ASSERT_EQ(v, 0);
}

TEST(RuntimeMemory, CopyRoundTripAndMemset) {
  Device dev;
  std::vector<uint32_t> host = {1, 2, 3, 0xDEADBEEF, 5};
  DevicePtr p = dev.upload(host);
  EXPECT_EQ(dev.download<uint32_t>(p, host.size()), host);
  dev.memset(p + 4, 0xAB, 8);
  std::vector<uint32_t> back = dev.download<uint32_t>(p, host.size());
  EXPECT_EQ(back[0], 1u);
  EXPECT_EQ(back[1], 0xABABABABu);
  EXPECT_EQ(back[2], 0xABABABABu);
  EXPECT_EQ(back[3], 0xDEADBEEFu);
  // Partial copies inside an allocation.
  uint32_t v = 0;
  dev.memcpy_to_host(&v, p + 16, 4);
  EXPECT_EQ(v, 5u);
}

TEST(RuntimeMemory, CopyPastTheEndNamesTheRangeAndAllocation) {
  Device dev;
  DevicePtr p = dev.malloc(64);
  std::vector<uint8_t> data(65, 1);
  std::string msg = error_of(ErrorKind::Launch, [&] { dev.memcpy_to_device(p, data.data(), 65); });
  EXPECT_THAT(msg, HasSubstr("copy to device"));
  EXPECT_THAT(msg, HasSubstr("65 bytes"));
  EXPECT_THAT(msg, HasSubstr("overruns the allocation"));
  EXPECT_THAT(msg, HasSubstr("64 bytes"));
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(p));
  EXPECT_THAT(msg, HasSubstr(hex));
  // Nothing was written.
  EXPECT_EQ(dev.download<uint8_t>(p, 64), std::vector<uint8_t>(64, 0));

  msg = error_of(ErrorKind::Launch, [&] { dev.download<uint8_t>(p + 60, 8); });
  EXPECT_THAT(msg, HasSubstr("copy to host"));
  msg = error_of(ErrorKind::Launch, [&] { dev.memset(p + 1, 0, 64); });
  EXPECT_THAT(msg, HasSubstr("memset"));
}

TEST(RuntimeMemory, CopyToUnallocatedAddressFails) {
  Device dev;
  uint32_t v = 7;
  std::string msg = error_of(ErrorKind::Launch, [&] { dev.memcpy_to_device(0x1234, &v, 4); });
  EXPECT_THAT(msg, HasSubstr("not inside any live allocation"));
  EXPECT_THAT(msg, HasSubstr("0x1234"));
}

TEST(RuntimeMemory, ZeroByteAllocationHasUniqueAddressAndFaultsOnAccess) {
  Device dev;
  DevicePtr a = dev.malloc(0);
  DevicePtr b = dev.malloc(0);
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
  uint8_t v = 0;
  dev.memcpy_to_device(a, &v, 0);  // zero-byte copies are no-ops
  error_of(ErrorKind::Launch, [&] { dev.memcpy_to_device(a, &v, 1); });
  dev.free(a);
}

TEST(RuntimeMemory, FreeRules) {
  Device dev;
  DevicePtr p = dev.malloc(512);
  std::string msg = error_of(ErrorKind::Launch, [&] { dev.free(p + 16); });
  EXPECT_THAT(msg, HasSubstr("not the base of a live allocation"));
  EXPECT_THAT(msg, HasSubstr("inside the allocation"));
  dev.free(p);
  msg = error_of(ErrorKind::Launch, [&] { dev.free(p); });
  EXPECT_THAT(msg, HasSubstr("already freed"));
  // A freed buffer is not accessible and its address is never reused.
  uint32_t v = 0;
  error_of(ErrorKind::Launch, [&] { dev.memcpy_to_host(&v, p, 4); });
  EXPECT_NE(dev.malloc(512), p);
  msg = error_of(ErrorKind::Launch, [&] { dev.free(0xdead0000); });
  EXPECT_THAT(msg, HasSubstr("0xdead0000"));
}

// Issue "Hardening": gpu.global_memory_bytes was documented ("allocations
// beyond it fail") but never enforced.
TEST(GlobalMemory, LiveAllocationsStayWithinTheCapacity) {
  functional::GlobalMemory mem;
  mem.set_capacity(1000);
  const uint64_t a = mem.allocate(600);
  const std::string msg = error_of(ErrorKind::Launch, [&] { mem.allocate(401); });
  EXPECT_THAT(msg, HasSubstr("device malloc of 401 bytes: 600 bytes are allocated already"));
  EXPECT_THAT(msg, HasSubstr("gpu.global_memory_bytes = 1000"));
  const uint64_t b = mem.allocate(400);  // exactly full
  error_of(ErrorKind::Launch, [&] { mem.allocate(1); });
  mem.release(a);
  EXPECT_NO_THROW(mem.allocate(600));  // freed bytes count no more
  mem.release(b);
}

std::shared_ptr<const Config> config_with_memory(uint64_t bytes) {
  auto c = std::make_shared<Config>(Config::preset("gtx480"));
  c->set("gpu.global_memory_bytes", std::to_string(bytes), "test");
  return c;
}

TEST(RuntimeMemory, DeviceAllocationsAndModuleVariablesCountAgainstGlobalMemoryBytes) {
  DeviceOptions o;
  o.config = config_with_memory(1 << 20);
  Device dev(o);
  // Alone beyond the capacity.
  std::string msg = error_of(ErrorKind::Launch, [&] { dev.malloc(2 << 20); });
  EXPECT_THAT(msg, HasSubstr("gpu.global_memory_bytes = 1048576"));
  // In total beyond it, with a module's .global data (768 KB) counted.
  dev.load_module_string(".version 7.0\n.target sm_50\n.address_size 64\n.global .align 4 .b8 table[786432];\n",
                         "table.ptx");
  EXPECT_NO_THROW(dev.malloc(256 << 10));
  msg = error_of(ErrorKind::Launch, [&] { dev.malloc(1); });
  EXPECT_THAT(msg, HasSubstr("gpu.global_memory_bytes"));
}

TEST(GlobalMemory, TranslateValidAndCacheInvalidation) {
  functional::GlobalMemory mem;
  uint64_t a = mem.allocate(100);
  uint64_t b = mem.allocate(200);
  EXPECT_EQ(mem.bytes_allocated(), 300u);
  EXPECT_TRUE(mem.valid(a, 100));
  EXPECT_FALSE(mem.valid(a, 101));
  EXPECT_FALSE(mem.valid(a + 100, 1));
  EXPECT_TRUE(mem.valid(b + 199, 1));
  EXPECT_FALSE(mem.valid(b - 1, 2));  // straddles the guard gap
  uint8_t* pa = mem.translate(a + 10, 4);
  ASSERT_NE(pa, nullptr);
  pa[0] = 42;
  uint8_t v = 0;
  mem.read(&v, a + 10, 1);
  EXPECT_EQ(v, 42);
  // Last-hit cache must not outlive a release.
  ASSERT_NE(mem.translate(b, 8), nullptr);
  mem.release(b);
  EXPECT_EQ(mem.translate(b, 8), nullptr);
  EXPECT_FALSE(mem.valid(b, 1));
  EXPECT_EQ(mem.bytes_allocated(), 100u);
  const functional::GlobalMemory& cmem = mem;
  EXPECT_NE(cmem.translate(a, 100), nullptr);
  // Overflowing ranges are rejected, not wrapped.
  EXPECT_FALSE(mem.valid(a + 50, UINT64_MAX));
}

TEST(GlobalMemory, HugeAllocationIsAnErrorNotACrash) {
  functional::GlobalMemory mem;
  try {
    mem.allocate(uint64_t(1) << 62);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Launch);
    EXPECT_THAT(std::string(e.what()), HasSubstr("device malloc"));
  }
}

TEST(RuntimeMemory, ReleaseObserversSeeEachFreeUntilRemoved) {
  functional::GlobalMemory mem;
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  const uint64_t token = mem.add_release_observer([&](uint64_t base, uint64_t size) { seen.emplace_back(base, size); });
  const uint64_t a = mem.allocate(40), b = mem.allocate(8);
  uint64_t base = 0, size = 0;
  uint8_t* data = nullptr;
  ASSERT_TRUE(mem.allocation_at(a + 39, base, size, data));
  EXPECT_EQ(base, a);
  EXPECT_EQ(size, 40u);
  EXPECT_EQ(data, mem.translate(a, 40));
  EXPECT_FALSE(mem.allocation_at(a + 40, base, size, data));  // the guard gap after it
  mem.release(a);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], std::make_pair(a, uint64_t(40)));
  mem.remove_release_observer(token);
  mem.release(b);
  EXPECT_EQ(seen.size(), 1u);
}

}  // namespace
}  // namespace simtlm
