// Diagnostic format: one simtlm::Error(Ptx) with "file:line:column: error:
// <what> near '<text>'" pointing at the offending token.
#include <gtest/gtest.h>

#include "parse_helpers.h"

using namespace simtlm;
using namespace parser_test;

namespace {
const std::string kTop = std::string(kHeader) + ".entry k()\n{\n .reg .b32 %r<4>;\n";  // body starts on line 7
}

TEST(Errors, ExactFormat) {
  EXPECT_EQ(error_of(kTop + "  frob.u32 %r1, %r2;\n ret;\n}\n"),
            "test.ptx:7:3: error: unknown instruction 'frob' near 'frob.u32'");
  EXPECT_EQ(error_of(kTop + " add.u32 %r1, %r2, %zz;\n ret;\n}\n"),
            "test.ptx:7:20: error: undefined identifier '%zz' near '%zz'");
  EXPECT_EQ(error_of(kTop + " add.u32 %r1, %r2, %r3\n ret;\n}\n"),
            "test.ptx:8:2: error: expected ';' at the end of the instruction near 'ret'");
  EXPECT_EQ(error_of(kTop + " ret;\n"),
            "test.ptx:5:1: error: unexpected end of file in the body of 'k' (missing '}') near '{'");
  EXPECT_EQ(error_of(".target sm_75\n"),
            "test.ptx:1:1: error: missing .version directive (it must come first) near '.target'");
  std::string eof = error_of(".version 9.0\n");
  EXPECT_EQ(eof, "test.ptx:2:1: error: missing .target directive near end of file");
}

// Bytes that are not text are shown as \xNN (a raw 0xFF would garble the
// terminal and make the message invalid UTF-8); well-formed UTF-8 is kept.
TEST(Errors, NonTextBytesAreEscaped) {
  EXPECT_EQ(error_of(kTop + "  frob\xff\x01.u32 %r1;\n ret;\n}\n"),
            "test.ptx:7:7: error: unexpected character '\\xFF' near '\\xFF\\x01.u32 %r1;'");
  EXPECT_EQ(error_of(kTop + "  \xc3\xa9t\xc3 x;\n}\n"),
            "test.ptx:7:3: error: unexpected character '\xc3\xa9' near '\xc3\xa9t\\xC3 x;'");
}

TEST(Errors, FileNameIsUsed) {
  try {
    simtlm::frontend::parse_ptx(".version 9.0\n.target sm_75\n.global .u32 x\n", "dir/kernel.ptx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    EXPECT_EQ(std::string(e.what()).rfind("dir/kernel.ptx:4:1: error: ", 0), 0u) << e.what();
  }
}

TEST(Errors, UnsupportedFeaturesAreNamed) {
  EXPECT_NE(kernel_error("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex, {%f5, %f6}];").find("unknown instruction 'tex'"),
            std::string::npos);
  EXPECT_NE(kernel_error("match.any.sync.b32 %r1, %r2, -1;").find("unknown instruction 'match'"), std::string::npos);
  EXPECT_NE(kernel_error("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];").find("unknown instruction"),
            std::string::npos);
  EXPECT_NE(kernel_error("cp.async.ca.shared.global [%rd1], [%rd2], 16;").find("unknown instruction 'cp'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".texref t;\n").find("textures and surfaces are not supported"),
            std::string::npos);
  EXPECT_NE(kernel_error("mov.u32 %r1, %cluster_ctarank;").find("unsupported special register"), std::string::npos);
  EXPECT_NE(kernel_error("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;").find("unknown or unsupported modifier"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".global .u32 x;\n.alias y, x;\n").find(".alias"), std::string::npos);
}

TEST(Errors, MalformedStructure) {
  EXPECT_NE(error_of(kTop + " }\n}\n").find("unexpected brace at module scope"), std::string::npos);
  EXPECT_NE(error_of(kTop + " .maxntid 4;\n ret;\n}\n").find("performance directive inside a function body"),
            std::string::npos);
  EXPECT_NE(error_of(kTop + " .entry x;\n}\n").find("declaration not allowed inside a function body"),
            std::string::npos);
  EXPECT_NE(error_of(kTop + " , ;\n}\n").find("expected an instruction"), std::string::npos);
  EXPECT_NE(error_of(kTop + " add.u32 %r1, [%r2+%r3];\n}\n").find("integer offset"), std::string::npos);
  EXPECT_NE(error_of(kTop + " add.u32 %r1, %r2, -;\n}\n").find("expected a number after '-'"), std::string::npos);
  EXPECT_NE(error_of(kTop + " mov.b64 %r1, {};\n}\n").find("empty vector"), std::string::npos);
  EXPECT_NE(error_of(kTop + " mov.b32 %r1, {%r1, %r2;\n}\n").find("expected ',' or '}'"), std::string::npos);
  EXPECT_NE(error_of(kTop + " ld.u32 %r1, [%r2;\n}\n").find("to close the address"), std::string::npos);
  EXPECT_NE(error_of(kTop + " mov.u32 %r1, !%r2;\n}\n").find("'!' is not allowed"), std::string::npos);
  EXPECT_NE(error_of(kTop + " mov.u32 _, %r2;\n}\n").find("'_' is only allowed"), std::string::npos);
  EXPECT_NE(error_of(kTop + " mov.u32 %r1, %r2+4;\n}\n").find("cannot take an offset"), std::string::npos);
}
