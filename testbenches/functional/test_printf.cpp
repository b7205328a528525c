// Device printf (nvcc's vprintf calls): nvcc-generated kernels print through
// the executor into a PrintfBuffer. The expected text is made by the host C
// library from the same format literals and C arguments as printf.cu, so it
// checks the whole chain: the parser's vprintf definition, call inlining,
// the argument buffer layout, the format parser and the output order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "functional/printf_buffer.h"
#include "functional/printf_format.h"
#include "harness.h"
#include "testbenches/common/test_data.h"

namespace simtlm::functional::test {
namespace {

// testbenches/data/nvcc/printf_sm75.ptx, compiled from printf.cu beside it.
const char* const kFile = "nvcc/printf_sm75.ptx";

template <typename... T>
std::string c_format(const char* format, T... values) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, values...);
  return buf;
}

std::string run_printing(Harness& h, const std::string& kernel, Dim3u grid, Dim3u block, const Args& args,
                         unsigned warp_size, PrintfBuffer& buffer) {
  LaunchRequest r = h.request(kernel, grid, block, args, warp_size);
  r.printf_buffer = &buffer;
  run_launch(r, h.memory());
  return buffer.text();
}

// print_ids: odd threads print an extra line first. The output is ordered by
// CTA, then thread, then program order, at every warp size.
TEST(SimtPrintf, OutputOrderedByCtaThreadAndProgramOrderAtEveryWarpSize) {
  std::string expected;
  for (unsigned cta = 0; cta < 3; ++cta) {
    for (unsigned t = 0; t < 6; ++t) {
      if (t & 1) expected += c_format("odd  %d/%u first\n", 42, t);
      expected += c_format("cta %u thread %u tag %d\n", cta, t, 42);
    }
  }
  for (unsigned w : {1u, 4u, 32u, 64u}) {
    SCOPED_TRACE(w);
    Harness h(test_data::ptx(kFile));
    PrintfBuffer buffer(1 << 20);
    EXPECT_EQ(run_printing(h, "print_ids", dim(3), dim(6), Args().add(int32_t{42}), w, buffer), expected);
    EXPECT_EQ(buffer.calls(), 3u * 9u);
    EXPECT_EQ(buffer.dropped(), 0u);
  }
}

TEST(SimtPrintf, EverySupportedConversionAsTheCLibraryPrintsIt) {
  Harness h(test_data::ptx(kFile));
  const int v = 1234567;
  const float f = 3.25f;
  const double d = -0.000123456789;
  const uint64_t a = h.upload(std::vector<int>{v});
  const char text[] = "device string";
  const uint64_t s = h.upload(std::vector<char>(text, text + sizeof text));
  PrintfBuffer buffer(1 << 20);
  const std::string got =
      run_printing(h, "print_conversions", dim(1), dim(1), Args().add(a).add(f).add(d).add(s), 32, buffer);
  const void* device_a = reinterpret_cast<const void*>(static_cast<uintptr_t>(a));
  std::string expected;
  expected += c_format("d=%d i=%i u=%u x=%x X=%X o=%o c=%c\n", v, -v, (unsigned)v, v, v, v, 'A' + (v & 15));
  expected += c_format("f=%f e=%e g=%g E=%E G=%G a=%a F=%F\n", f, d, d, d, d, f, f);
  expected += c_format("w=[%8.3f] [%-6d] [%06d] [%+d] [% d] [%#x] [%.2e] [%10s] [%-5s] [%.2s]\n", d, v, v, v, v, v,
                       d, text, "ab", text);
  expected += c_format("ld=%ld lld=%lld lu=%lu llu=%llu hd=%hd hhx=%hhx\n", (long)v * -3000000000L,
                       (long long)v * 4000000000LL, (unsigned long)v * 3000000000UL, ~0ULL, (short)v,
                       (unsigned char)v);
  expected += c_format("star=[%*d] [%.*f] pct=%% p=%p s=%s\n", 6, v, 3, d, device_a, text);
  expected += "no arguments\n";
  EXPECT_EQ(got, expected);
}

TEST(SimtPrintf, ResultIsTheNumberOfArguments) {
  Harness h(test_data::ptx(kFile));
  const uint64_t out = h.upload(std::vector<int>(40, -7));
  PrintfBuffer buffer(1 << 20);
  run_printing(h, "print_result", dim(1), dim(40), Args().add(out), 16, buffer);
  for (int r : h.download<int>(out, 40)) EXPECT_EQ(r, 2);
  // Without a buffer the calls are still made (and their results written).
  Harness h2(test_data::ptx(kFile));
  const uint64_t out2 = h2.upload(std::vector<int>(40, -7));
  h2.run("print_result", dim(1), dim(40), Args().add(out2));
  for (int r : h2.download<int>(out2, 40)) EXPECT_EQ(r, 2);
}

TEST(SimtPrintf, UnsupportedConversionIsAnErrorNamingIt) {
  Harness h(test_data::ptx(kFile));
  const uint64_t where = h.alloc(4);
  PrintfBuffer buffer(1 << 20);
  const std::string msg = expect_error(ErrorKind::Ptx, [&] {
    run_printing(h, "print_unsupported", dim(1), dim(1), Args().add(where), 32, buffer);
  });
  EXPECT_NE(msg.find("'%n'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"count%n\\n\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("kernel 'print_unsupported'"), std::string::npos) << msg;
}

// A buffer too small for all lines keeps the first ones in output order.
TEST(SimtPrintf, CapacityKeepsTheLeadingCallsInOutputOrder) {
  std::vector<std::string> lines;
  for (unsigned cta = 0; cta < 2; ++cta)
    for (unsigned t = 0; t < 8; ++t)
      for (int i = 0; i < 3; ++i) lines.push_back(c_format("cta %u thread %u line %d\n", cta, t, i));
  uint64_t capacity = 0;
  size_t fit = 0;
  while (fit < 20) capacity += lines[fit++].size();
  std::string expected;
  for (size_t i = 0; i < fit; ++i) expected += lines[i];
  for (unsigned w : {2u, 32u}) {
    SCOPED_TRACE(w);
    Harness h(test_data::ptx(kFile));
    PrintfBuffer buffer(capacity + 3);  // not enough for the 21st line
    EXPECT_EQ(run_printing(h, "print_many", dim(2), dim(8), Args().add(int32_t{3}), w, buffer), expected);
    EXPECT_EQ(buffer.calls(), lines.size());
    EXPECT_EQ(buffer.dropped(), lines.size() - fit);
  }
}

// What is kept does not depend on the order calls arrive in (backends and
// warp sizes interleave threads differently).
TEST(PrintfBuffer, KeptCallsDoNotDependOnArrivalOrder) {
  struct Call {
    uint64_t cta;
    uint32_t thread;
    std::string text;
  };
  std::vector<Call> calls;
  for (uint64_t c = 0; c < 4; ++c)
    for (uint32_t t = 0; t < 5; ++t)
      for (int k = 0; k < 2; ++k) calls.push_back({c, t, std::string(1 + (c * 7 + t * 3 + k) % 5, char('a' + k))});
  std::string reference;
  for (const Call& c : calls) reference += c.text;  // already in output order
  for (uint64_t capacity : {uint64_t{1}, uint64_t{17}, uint64_t{40}, uint64_t{1000}}) {
    std::string expected;
    uint64_t kept = 0;
    for (const Call& c : calls) {
      if (expected.size() + c.text.size() > capacity) break;
      expected += c.text;
      ++kept;
    }
    // Arrival orders: output order, reversed by CTA, threads interleaved.
    std::vector<std::vector<size_t>> orders(3);
    for (size_t i = 0; i < calls.size(); ++i) orders[0].push_back(i);
    for (size_t i = calls.size(); i-- > 0;) {
      if (orders[1].empty() || calls[orders[1].back()].cta != calls[i].cta) {
        const uint64_t cta = calls[i].cta;
        for (size_t j = 0; j < calls.size(); ++j)
          if (calls[j].cta == cta) orders[1].push_back(j);
      }
    }
    for (int k = 0; k < 2; ++k)
      for (size_t i = 0; i < calls.size(); ++i)
        if (i % 2 == static_cast<size_t>(k)) orders[2].push_back(i);
    for (const auto& order : orders) {
      ASSERT_EQ(order.size(), calls.size());
      PrintfBuffer b(capacity);
      for (size_t i : order) b.add(calls[i].cta, calls[i].thread, calls[i].text);
      EXPECT_EQ(b.text(), expected) << "capacity " << capacity;
      EXPECT_EQ(b.dropped(), calls.size() - kept) << "capacity " << capacity;
    }
  }
}

}  // namespace
}  // namespace simtlm::functional::test
