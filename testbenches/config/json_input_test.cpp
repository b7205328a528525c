// The one JSON reading path of every loader (models/common/json_input.h): the
// inputs that crashed or were silently accepted before it (issue "Hardening")
// end as errors naming file, line and column; legitimate documents pass.
#include <gtest/gtest.h>

#include <string>

#include "models/common/json_input.h"
#include "simtlm/config.h"
#include "testbenches/common/error_of.h"

namespace simtlm {
namespace {

using test::error_of;

std::string nested(std::size_t depth) {
  std::string s;
  for (std::size_t i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  for (std::size_t i = 0; i < depth; ++i) s += "}";
  return s;
}

std::string check_error(const std::string& text) {
  return error_of(ErrorKind::Input, [&] { check_json_input(text, "in.json", ErrorKind::Input); });
}

TEST(JsonInput, NestingIsCappedWithThePlaceOfTheFirstLevelTooDeep) {
  EXPECT_NO_THROW(check_json_input(nested(kMaxJsonDepth), "in.json", ErrorKind::Input));
  const std::string m = check_error(nested(kMaxJsonDepth + 1));
  // Each level is `{"a":` (5 bytes): the 65th brace is at column 5 * 64 + 1.
  EXPECT_NE(m.find("in.json:1:321: JSON nested deeper than 64 levels"), std::string::npos) << m;
}

TEST(JsonInput, ADocumentNestedSixtyThousandDeepIsAConfigErrorNotACrash) {
  Config c = Config::preset("gtx480");
  const std::string m = error_of(ErrorKind::Config, [&] { c.load_string(nested(60000), "deep.json"); });
  EXPECT_NE(m.find("deep.json:1:321: JSON nested deeper than 64 levels"), std::string::npos) << m;
  EXPECT_EQ(c, Config::preset("gtx480")) << "nothing of the rejected file is applied";
}

TEST(JsonInput, ArraysCountTowardsTheDepth) {
  std::string s(kMaxJsonDepth + 1, '[');
  s += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_NE(check_error(s).find("in.json:1:65: JSON nested deeper than 64 levels"), std::string::npos);
}

TEST(JsonInput, ANumberBeyondADoubleIsNamedWithItsPlace) {
  const std::string m = check_error("{\n  \"x\": [1, 2,\n   -1e400]\n}");
  EXPECT_NE(m.find("in.json:3:4: number -1e400 is beyond the range of a double"), std::string::npos) << m;
  const std::string big_integer = "{\"x\": 1" + std::string(400, '0') + "}";
  EXPECT_NE(check_error(big_integer).find("in.json:1:7: number 1"), std::string::npos);
  // Tiny numbers round to zero (as the JSON library does): not an error.
  EXPECT_NO_THROW(check_json_input("{\"x\": 1e-400}", "in.json", ErrorKind::Input));
}

TEST(JsonInput, AMemberGivenTwiceInOneObjectNamesBothPlaces) {
  const std::string m = check_error("{\"a\": 1,\n \"b\": {\"c\": 2},\n \"a\": 3}");
  EXPECT_NE(m.find("in.json:3:2: member \"a\" is given twice in one object (first at line 1, column 2)"),
            std::string::npos)
      << m;
}

TEST(JsonInput, EqualNamesInDifferentObjectsAndArraysAreFine) {
  EXPECT_NO_THROW(check_json_input(R"({"a": {"x": 1}, "b": {"x": 2}, "l": [{"x": 1}, {"x": 2}], "s": ["x", "x"]})",
                                   "in.json", ErrorKind::Input));
  // Brackets, quotes and colons inside strings are text, not structure.
  EXPECT_NO_THROW(check_json_input(R"({"$comment": "{[\"a\": 1, ", "a": "]}", "b": "\\"})", "in.json",
                                   ErrorKind::Input));
}

TEST(JsonInput, AnOverlongMemberNameIsRefused) {
  const std::string m = check_error("{\"" + std::string(kMaxJsonKeyLength + 1, 'k') + "\": 1}");
  EXPECT_NE(m.find("in.json:1:2: member name of 257 bytes; at most 256 are accepted"), std::string::npos) << m;
  EXPECT_NO_THROW(check_json_input("{\"" + std::string(kMaxJsonKeyLength, 'k') + "\": 1}", "in.json",
                                   ErrorKind::Input));
}

TEST(JsonInput, SyntaxErrorsKeepFileLineAndColumn) {
  const std::string m = error_of(ErrorKind::Input, [] { parse_json_input("{\n  \"a\": tru\n}", "s.json", ErrorKind::Input); });
  EXPECT_NE(m.find("s.json:2:"), std::string::npos) << m;
  EXPECT_NE(m.find("malformed JSON"), std::string::npos) << m;
  EXPECT_EQ(m.find("[json.exception"), std::string::npos) << m;
}

TEST(JsonInput, AConfigKeyGivenNestedAndDottedInOneFileIsAnError) {
  Config c = Config::preset("gtx480");
  const std::string m = error_of(ErrorKind::Config, [&] {
    c.load_string(R"({"gpu": {"num_sms": 4}, "gpu.num_sms": 8})", "twice.json");
  });
  EXPECT_NE(m.find("key 'gpu.num_sms' is given twice: as \"gpu\" > \"num_sms\" and as \"gpu.num_sms\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("twice.json"), std::string::npos) << m;
  // Across files, a later file still overrides an earlier one.
  Config d = Config::preset("gtx480");
  d.load_string(R"({"gpu": {"num_sms": 4}})", "a.json");
  d.load_string(R"({"gpu.num_sms": 8})", "b.json");
  EXPECT_EQ(d.u64("gpu.num_sms"), 8u);
}

}  // namespace
}  // namespace simtlm
