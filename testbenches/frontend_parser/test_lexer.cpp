// Tokenizer and literal conversion.
#include <gtest/gtest.h>

#include <memory>

#include "frontend/ptx/lexer.h"
#include "frontend/ptx/literals.h"
#include "simtlm/error.h"

using namespace simtlm;
using namespace simtlm::frontend::ptx;
using simtlm::ir::DataType;

namespace {

// Tokens view the source text, so keep every lexed text alive.
std::vector<Token> lex(const std::string& s) {
  static std::vector<std::unique_ptr<std::string>> keep;
  keep.push_back(std::make_unique<std::string>(s));
  return tokenize(*keep.back(), "lex.ptx");
}

std::string lex_error(const std::string& s) {
  try {
    lex(s);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Ptx);
    return e.what();
  }
  return "<no error>";
}

uint64_t bits(const std::string& text, DataType t, bool negative = false) {
  bool is_float = text.size() > 1 && (text[1] == 'f' || text[1] == 'd' || text.find('.') != std::string::npos ||
                                       (text.find('e') != std::string::npos && text[1] != 'x'));
  Literal lit;
  std::string err;
  EXPECT_TRUE(parse_literal(text, is_float, lit, err)) << err;
  lit.negative = negative;
  uint64_t out = 0;
  EXPECT_TRUE(literal_to_bits(lit, t, out, err)) << text << ": " << err;
  return out;
}

std::string conv_error(const std::string& text, bool is_float, DataType t, bool negative = false) {
  Literal lit;
  std::string err;
  if (!parse_literal(text, is_float, lit, err)) return err;
  lit.negative = negative;
  uint64_t out = 0;
  if (literal_to_bits(lit, t, out, err)) return "<no error>";
  return err;
}

}  // namespace

TEST(Lexer, TokenKinds) {
  auto t = lex("ld.global.nc.v4.f32 {%f1,_}, [%rd1+-4]; .reg .b32 %r<5>; 0f3F800000 0d4000000000000000 "
               "1.5 1e-3 .5 \"s\" $L__BB0_1: %tid.x ld.global.L1::evict_last.f32");
  ASSERT_GE(t.size(), 10u);
  EXPECT_EQ(t[0].kind, TokKind::Ident);
  EXPECT_EQ(t[0].text, "ld.global.nc.v4.f32");
  EXPECT_TRUE(t[1].is('{'));
  EXPECT_EQ(t[2].text, "%f1");
  EXPECT_TRUE(t[3].is(','));
  EXPECT_EQ(t[4].text, "_");
  EXPECT_TRUE(t[5].is('}'));
  EXPECT_TRUE(t[7].is('['));
  EXPECT_EQ(t[8].text, "%rd1");
  EXPECT_TRUE(t[9].is('+'));
  EXPECT_TRUE(t[10].is('-'));
  EXPECT_EQ(t[11].kind, TokKind::Int);
  EXPECT_TRUE(t[14].is_directive("reg"));
  EXPECT_EQ(t[15].kind, TokKind::Directive);
  EXPECT_EQ(t[15].text, ".b32");
  size_t i = 16;
  EXPECT_EQ(t[i].text, "%r");
  EXPECT_TRUE(t[i + 1].is('<'));
  EXPECT_EQ(t[i + 2].kind, TokKind::Int);
  EXPECT_TRUE(t[i + 3].is('>'));
  i += 5;
  EXPECT_EQ(t[i].kind, TokKind::Float);
  EXPECT_EQ(t[i + 1].kind, TokKind::Float);
  EXPECT_EQ(t[i + 2].kind, TokKind::Float);
  EXPECT_EQ(t[i + 3].kind, TokKind::Float);
  EXPECT_EQ(t[i + 4].kind, TokKind::Float);
  EXPECT_EQ(t[i + 4].text, ".5");
  EXPECT_EQ(t[i + 5].kind, TokKind::String);
  EXPECT_EQ(t[i + 6].text, "$L__BB0_1");
  EXPECT_TRUE(t[i + 7].is(':'));
  EXPECT_EQ(t[i + 8].text, "%tid.x");
  EXPECT_EQ(t[i + 9].text, "ld.global.L1::evict_last.f32");
  EXPECT_EQ(t.back().kind, TokKind::End);
}

TEST(Lexer, CommentsAndPositions) {
  auto t = lex("// line comment\n  /* block\n comment */ add /* inline */ .u32\n\tfoo");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].text, "add");
  EXPECT_EQ(t[0].line, 3u);
  EXPECT_EQ(t[0].column, 13u);
  EXPECT_EQ(t[1].text, ".u32");
  EXPECT_EQ(t[2].text, "foo");
  EXPECT_EQ(t[2].line, 4u);
  EXPECT_EQ(t[2].column, 2u);
}

TEST(Lexer, Errors) {
  EXPECT_NE(lex_error("0f3F80000").find("exactly 8 hex digits"), std::string::npos);
  EXPECT_NE(lex_error("0d3F80000").find("exactly 16 hex digits"), std::string::npos);
  EXPECT_NE(lex_error("0x").find("malformed hexadecimal"), std::string::npos);
  EXPECT_NE(lex_error("08").find("malformed octal"), std::string::npos);
  EXPECT_NE(lex_error("12ab").find("malformed number"), std::string::npos);
  EXPECT_NE(lex_error("/* never closed").find("unterminated /* comment"), std::string::npos);
  EXPECT_NE(lex_error("\"open string").find("unterminated string"), std::string::npos);
  EXPECT_NE(lex_error("add # x").find("unexpected character '#'"), std::string::npos);
  std::string e = lex_error("a\nb\n  #");
  EXPECT_EQ(e.rfind("lex.ptx:3:3: error:", 0), 0u) << e;
}

TEST(Literals, Integers) {
  EXPECT_EQ(bits("42", DataType::U32), 42u);
  EXPECT_EQ(bits("0x1F", DataType::U32), 31u);
  EXPECT_EQ(bits("017", DataType::U32), 15u);
  EXPECT_EQ(bits("0b101", DataType::U32), 5u);
  EXPECT_EQ(bits("7U", DataType::U32), 7u);
  EXPECT_EQ(bits("0xFFFFFFFFU", DataType::U32), 0xFFFFFFFFu);
  EXPECT_EQ(bits("1", DataType::S32, true), ~uint64_t{0});  // -1 sign-extended to 64 bits
  EXPECT_EQ(bits("2147483648", DataType::S32, true), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(bits("0", DataType::U64), 0u);
  EXPECT_EQ(bits("18446744073709551615", DataType::U64), ~uint64_t{0});
}

TEST(Literals, Floats) {
  EXPECT_EQ(bits("0f3F800000", DataType::F32), 0x3F800000u);
  EXPECT_EQ(bits("0f3F800000", DataType::F64), 0x3FF0000000000000ull);  // widened
  EXPECT_EQ(bits("0d3FF0000000000000", DataType::F64), 0x3FF0000000000000ull);
  EXPECT_EQ(bits("0d3FF0000000000000", DataType::F32), 0x3F800000u);
  EXPECT_EQ(bits("1.5", DataType::F32), 0x3FC00000u);
  EXPECT_EQ(bits("0.1", DataType::F32), 0x3DCCCCCDu);             // rounded to f32
  EXPECT_EQ(bits("0.1", DataType::F64), 0x3FB999999999999Aull);
  EXPECT_EQ(bits("1e-3", DataType::F64), 0x3F50624DD2F1A9FCull);
  EXPECT_EQ(bits("2.0", DataType::F32, true), 0xC0000000u);
  EXPECT_EQ(bits("0f3F800000", DataType::F32, true), 0xBF800000u);
  EXPECT_EQ(bits("1", DataType::F32), 0x3F800000u);               // integer converted by value
  EXPECT_EQ(bits("3", DataType::F64, true), 0xC008000000000000ull);
  EXPECT_EQ(bits("0f3F800000", DataType::B32), 0x3F800000u);      // bit positions keep IEEE bits
  EXPECT_EQ(bits("1.0", DataType::F16), 0x3C00u);
  EXPECT_EQ(bits("1.0", DataType::BF16), 0x3F80u);
  EXPECT_EQ(bits("0x3C00", DataType::F16), 0x3C00u);              // integer = raw half bits
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7C00u);               // rounds to infinity
  EXPECT_EQ(float_to_half_bits(5.9604645e-08f), 0x0001u);         // smallest subnormal
}

TEST(Literals, Errors) {
  EXPECT_NE(conv_error("1.5", true, DataType::U32).find("floating-point immediate"), std::string::npos);
  EXPECT_NE(conv_error("256", false, DataType::U8).find("out of range"), std::string::npos);
  EXPECT_NE(conv_error("0x100000000", false, DataType::U32).find("out of range"), std::string::npos);
  EXPECT_NE(conv_error("2147483649", false, DataType::S32, true).find("out of range"), std::string::npos);
  EXPECT_EQ(conv_error("4294967295", false, DataType::S32), "<no error>");  // fits as unsigned
  EXPECT_NE(conv_error("18446744073709551616", false, DataType::U64).find("64 bits"), std::string::npos);
  EXPECT_NE(conv_error("1.0", true, DataType::Pred).find("predicate"), std::string::npos);
  EXPECT_EQ(conv_error("1", false, DataType::Pred), "<no error>");
}
