// Truncated and damaged PTX must give one clean simtlm::Error, never a crash
// or another exception type; and parsing must be fast.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "parse_helpers.h"
#include "nvcc_samples.h"

using namespace simtlm;
using namespace parser_test;
using namespace nvcc_samples;

namespace {

// Byte ranges [begin, end) of function definitions (from the line holding
// .entry/.func up to and including the closing '}' line) and function
// declarations (up to the ';'): a cut inside one can never be valid PTX.
std::vector<std::pair<size_t, size_t>> function_regions(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    bool starts = line.rfind(".visible .entry", 0) == 0 || line.rfind(".entry", 0) == 0 ||
                  line.rfind(".func", 0) == 0 || line.rfind(".visible .func", 0) == 0 ||
                  line.rfind(".weak .func", 0) == 0 || line.rfind(".extern .func", 0) == 0;
    if (starts) {
      size_t end_body = text.find("\n}\n", pos);
      size_t end_decl = text.find("\n;\n", pos);
      size_t next_open = text.find("\n{\n", pos);
      size_t end;
      if (end_decl != std::string::npos && (next_open == std::string::npos || end_decl < next_open))
        end = end_decl + 2;
      else
        end = end_body + 2;
      out.emplace_back(pos, end);
      pos = end;
      continue;
    }
    pos = eol + 1;
  }
  return out;
}

struct TruncationStats {
  size_t cuts = 0, errors = 0, parsed = 0;
};

TruncationStats truncate_everywhere(const std::string& text, size_t stride, const char* name) {
  TruncationStats st;
  auto regions = function_regions(text);
  EXPECT_FALSE(regions.empty()) << name;
  for (size_t cut = 0; cut < text.size(); cut += stride) {
    bool inside = false;
    for (const auto& r : regions) inside = inside || (cut > r.first && cut < r.second);
    ++st.cuts;
    try {
      parse(text.substr(0, cut), name);
      ++st.parsed;
      EXPECT_FALSE(inside) << name << ": truncation at byte " << cut << " inside a function parsed without error";
    } catch (const Error& e) {
      ++st.errors;
      EXPECT_EQ(e.kind(), ErrorKind::Ptx);
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind(std::string(name) + ":", 0), 0u) << msg;
      EXPECT_NE(msg.find(": error: "), std::string::npos) << msg;
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": truncation at byte " << cut << " threw a non-simtlm exception: " << e.what();
    }
  }
  return st;
}

}  // namespace

TEST(Robustness, TruncateSmallSamplesAtEveryByte) {
  for (auto [text, name] : {std::pair{test_data::ptx(kInitializers), kInitializers},
                            std::pair{test_data::ptx(kExternCall), kExternCall}}) {
    TruncationStats st = truncate_everywhere(text, 1, name);
    EXPECT_GT(st.errors, st.cuts / 2) << name;
  }
}

TEST(Robustness, TruncateLargeSamples) {
  TruncationStats a = truncate_everywhere(test_data::ptx(kBasicKernels), 101, kBasicKernels);
  TruncationStats b = truncate_everywhere(test_data::ptx(kRdcKernels), 7, kRdcKernels);
  TruncationStats c = truncate_everywhere(test_data::ptx(kDebugSwitch), 5, kDebugSwitch);
  TruncationStats d = truncate_everywhere(test_data::ptx(kFastMath), 5, kFastMath);
  EXPECT_GT(a.errors + b.errors + c.errors + d.errors, 0u);
}

TEST(Robustness, DamagedInputs) {
  const std::string base = test_data::ptx(kRdcKernels);
  // Replace single characters at many positions with characters that often
  // break structure; the parser must either accept or throw simtlm::Error.
  const char repl[] = {'{', '}', ';', ',', '[', ']', '(', ')', '.', '%', '-', '0', 'x', '@', '!', '|', '\n', '"'};
  size_t k = 0;
  for (size_t pos = 0; pos < base.size(); pos += 11, ++k) {
    std::string t = base;
    t[pos] = repl[k % sizeof repl];
    try {
      parse(t, "damaged.ptx");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "position " << pos << ": non-simtlm exception " << e.what();
    }
  }
}

TEST(Robustness, PathologicalNesting) {
  std::string deep = kernel_text("mov.b64 %rd1, " + std::string(5000, '{') + ";");
  EXPECT_NE(error_of(deep).find("nested operand lists"), std::string::npos);
  std::string blocks = kernel_text(std::string(20000, '{') + std::string(20000, '}'));
  parse(blocks);
  std::string dims = std::string(kHeader) + ".global .u32 a";
  for (int i = 0; i < 100; ++i) dims += "[1]";
  dims += ";\n";
  EXPECT_NE(error_of(dims).find("too many array dimensions"), std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".global .u32 a[] = " + std::string(3000, '{')).find("error"),
            std::string::npos);
}

TEST(Performance, OneMegabyteUnderASecond) {
  // A realistic instruction mix, repeated in many kernels until > 1 MB.
  const std::string body =
      "  ld.param.u64 %rd1, [p0];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, %ctaid.x;\n  mad.lo.s32 %r3, %r2, 256, %r1;\n  mul.wide.s32 %rd3, %r3, 4;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n  ld.global.f32 %f1, [%rd4];\n  fma.rn.f32 %f2, %f1, 0f3F800000, %f1;\n"
      "  setp.lt.f32 %p1, %f2, 0f00000000;\n  @%p1 bra $L__BB_1;\n  st.global.f32 [%rd4+4], %f2;\n"
      "$L__BB_1:\n  shfl.sync.down.b32 %r4|%p2, %r3, 16, 31, -1;\n  atom.global.add.u32 %r5, [%rd4], 1;\n"
      "  bar.sync 0;\n  ld.shared.v4.f32 {%f3, %f4, %f5, %f6}, [sm+16];\n  selp.b32 %r6, %r4, %r5, %p2;\n";
  std::string text = std::string(kHeader) + ".shared .align 16 .b8 sm[1024];\n";
  int n = 0;
  while (text.size() < (1u << 20) + 1000) {
    text += ".visible .entry kern" + std::to_string(n++) + "(.param .u64 p0)\n{\n"
            "  .reg .pred %p<3>;\n  .reg .f32 %f<7>;\n  .reg .b32 %r<7>;\n  .reg .b64 %rd<5>;\n";
    for (int rep = 0; rep < 20; ++rep) {
      std::string b = body;
      std::string lbl = "$L__BB_" + std::to_string(rep);
      for (size_t p = b.find("$L__BB_1"); p != std::string::npos; p = b.find("$L__BB_1", p + lbl.size()))
        b.replace(p, 8, lbl);
      text += b;
    }
    text += "  ret;\n}\n";
  }
  auto t0 = std::chrono::steady_clock::now();
  auto m = parse(text, "big.ptx");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(m->functions.size(), static_cast<size_t>(n));
  RecordProperty("parse_seconds_per_MB", std::to_string(secs / (text.size() / 1048576.0)));
  std::printf("parsed %.2f MB (%zu kernels) in %.3f s\n", text.size() / 1048576.0, m->functions.size(), secs);
  EXPECT_LT(secs, 1.0);
}
