// SEP-2243 Mcp-Param-* headers checked against a tools/call's arguments.
#include "mcp/param_headers.hpp"

#include <gtest/gtest.h>

#include <map>

namespace hamcp::mcp {
namespace {

json::object obj(std::string_view text) { return json::parse(text).as_object(); }

class ParamHeaders : public ::testing::Test {
 protected:
  std::map<std::string, std::string> headers;
  modern::HeaderLookup lookup = [this](std::string_view name) -> std::optional<std::string> {
    auto it = headers.find(std::string(name));
    if (it == headers.end()) return std::nullopt;
    return it->second;
  };
  std::vector<modern::ParamHeader> declared = modern::param_headers_of(obj(R"({"type":"object","properties":{
      "region":{"type":"string","x-mcp-header":"Region"},
      "count":{"type":"integer","x-mcp-header":"Count"},
      "dry":{"type":"boolean","x-mcp-header":"Dry"},
      "target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
      "plain":{"type":"string"}}})"));

  std::optional<std::string> check(std::string_view arguments) {
    return modern::param_header_mismatch(lookup, declared, obj(arguments));
  }
};

TEST_F(ParamHeaders, AnnotationsAreFoundThroughPropertiesChains) {
  ASSERT_EQ(declared.size(), 4u);
  std::map<std::string, std::vector<std::string>> by_header;
  for (const auto& d : declared) by_header[d.header_name] = d.path;
  EXPECT_EQ(by_header["Region"], std::vector<std::string>{"region"});
  EXPECT_EQ(by_header["Zone"], (std::vector<std::string>{"target", "zone"}));
  EXPECT_TRUE(modern::param_headers_of(obj(R"({"type":"object","properties":{"a":{"type":"string"}}})")).empty());
}

TEST_F(ParamHeaders, MatchingHeadersPass) {
  headers = {{"mcp-param-region", "eu-west"},
             {"mcp-param-count", "3"},
             {"mcp-param-dry", "true"},
             {"mcp-param-zone", "kitchen"}};
  EXPECT_EQ(check(R"({"region":"eu-west","count":3,"dry":true,"target":{"zone":"kitchen"},"plain":"x"})"),
            std::nullopt);
}

TEST_F(ParamHeaders, AMismatchedValueIsRefusedNamingTheHeader) {
  headers = {{"mcp-param-region", "us-east"}};
  auto mismatch = check(R"({"region":"eu-west"})");
  ASSERT_TRUE(mismatch);
  EXPECT_NE(mismatch->find("Mcp-Param-Region"), std::string::npos) << *mismatch;
  headers = {{"mcp-param-dry", "false"}};
  EXPECT_TRUE(check(R"({"dry":true})"));
  headers = {{"mcp-param-count", "4"}};
  EXPECT_TRUE(check(R"({"count":3})"));
  headers = {{"mcp-param-zone", "hall"}};
  EXPECT_TRUE(check(R"({"target":{"zone":"kitchen"}})"));
}

TEST_F(ParamHeaders, AbsentHeaderWithAValueInTheBodyIsRefused) {
  auto mismatch = check(R"({"region":"eu-west"})");
  ASSERT_TRUE(mismatch);
  EXPECT_NE(mismatch->find("required"), std::string::npos) << *mismatch;
}

TEST_F(ParamHeaders, BothAbsentOrANullArgumentPass) {
  EXPECT_EQ(check(R"({"plain":"x"})"), std::nullopt);
  EXPECT_EQ(check(R"({"region":null})"), std::nullopt);
}

TEST_F(ParamHeaders, AHeaderWithoutItsArgumentIsRefused) {
  headers = {{"mcp-param-region", "eu-west"}};
  EXPECT_TRUE(check(R"({})"));
}

TEST_F(ParamHeaders, Base64ValuesAreDecodedStrictly) {
  headers = {{"mcp-param-region", "=?base64?SGVsbG8=?="}};  // "Hello"
  EXPECT_EQ(check(R"({"region":"Hello"})"), std::nullopt);
  headers = {{"mcp-param-region", "=?base64?w6Rww6Rw?="}};  // "äpäp" (not plain ASCII)
  EXPECT_EQ(check(R"({"region":"äpäp"})"), std::nullopt);
  headers = {{"mcp-param-region", "=?base64?SGVsbG8?="}};  // missing padding
  EXPECT_TRUE(check(R"({"region":"Hello"})"));
  headers = {{"mcp-param-region", "=?base64?SGVs!!!bG8=?="}};  // not the alphabet
  EXPECT_TRUE(check(R"({"region":"Hello"})"));
}

TEST_F(ParamHeaders, AValueWithoutTheFullSentinelIsLiteral) {
  headers = {{"mcp-param-region", "SGVsbG8="}};
  EXPECT_EQ(check(R"({"region":"SGVsbG8="})"), std::nullopt);
  headers = {{"mcp-param-region", "=?base64?SGVsbG8="}};
  EXPECT_EQ(check(R"({"region":"=?base64?SGVsbG8="})"), std::nullopt);
  EXPECT_TRUE(check(R"({"region":"Hello"})"));
}

TEST_F(ParamHeaders, NumbersCompareAsNumbers) {
  declared = modern::param_headers_of(
      obj(R"({"type":"object","properties":{"level":{"type":"number","x-mcp-header":"Level"}}})"));
  headers = {{"mcp-param-level", "2.50"}};
  EXPECT_EQ(check(R"({"level":2.5})"), std::nullopt);
  headers = {{"mcp-param-level", "2"}};
  EXPECT_EQ(check(R"({"level":2})"), std::nullopt);
  headers = {{"mcp-param-level", "two"}};
  EXPECT_TRUE(check(R"({"level":2})"));
}

}  // namespace
}  // namespace hamcp::mcp
