// The JSON Schema subset tool schemas use, and its error messages.
#include "mcp/schema_validator.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "mcp/schema_compiler.hpp"

namespace hamcp::mcp {
namespace {

std::vector<std::string> errors(std::string_view schema, std::string_view instance) {
  SchemaValidator v(json::parse(schema).as_object());
  return v.validate(json::parse(instance), "arguments");
}

std::string first(std::string_view schema, std::string_view instance) {
  auto e = errors(schema, instance);
  return e.empty() ? "" : e.front();
}

TEST(SchemaValidator, TypesIncludingIntegerVersusNumberAndTypeArrays) {
  EXPECT_EQ(first(R"({"type":"integer"})", "3"), "");
  EXPECT_EQ(first(R"({"type":"integer"})", "3.0"), "");
  EXPECT_EQ(first(R"({"type":"integer"})", "3.5"), "arguments: expected integer, got 3.5");
  EXPECT_EQ(first(R"({"type":"number"})", "3"), "");
  EXPECT_EQ(first(R"({"type":"string"})", "3"), "arguments: expected string, got 3");
  EXPECT_EQ(first(R"({"type":["string","null"]})", "null"), "");
  EXPECT_EQ(first(R"({"type":["string","null"]})", "true"), "arguments: expected string or null, got true");
  EXPECT_EQ(first(R"({"type":"object"})", "[]"), "arguments: expected object, got an array");
  EXPECT_EQ(first(R"({"type":"boolean"})", R"("yes")"), R"(arguments: expected boolean, got string "yes")");
}

TEST(SchemaValidator, ObjectsRequiredPropertiesAndAdditionalProperties) {
  const char* schema = R"({"type":"object","properties":{"entity_id":{"type":"string"},"n":{"type":"integer"}},
                          "required":["entity_id"],"additionalProperties":false})";
  EXPECT_EQ(first(schema, R"({"entity_id":"light.x"})"), "");
  EXPECT_EQ(first(schema, R"({})"), "arguments.entity_id: missing required property (expected string)");
  EXPECT_EQ(first(schema, R"({"entity_id":"a","x":1})"), "arguments.x: unexpected property; allowed: entity_id, n");
  EXPECT_EQ(first(schema, R"({"entity_id":"a","n":"1"})"), R"(arguments.n: expected integer, got string "1")");
  // additionalProperties as a schema
  const char* map = R"({"type":"object","additionalProperties":{"type":"number"}})";
  EXPECT_EQ(first(map, R"({"a":1,"b":2.5})"), "");
  EXPECT_EQ(first(map, R"({"a":1,"b":"x"})"), R"(arguments.b: expected number, got string "x")");
  // all errors are collected
  EXPECT_EQ(errors(schema, R"({"x":1,"n":"1"})").size(), 3u);
}

TEST(SchemaValidator, NumericBounds) {
  EXPECT_EQ(first(R"({"type":"integer","minimum":1})", "-3"), "arguments: expected integer >= 1, got -3");
  EXPECT_EQ(first(R"({"type":"integer","maximum":10})", "11"), "arguments: expected integer <= 10, got 11");
  EXPECT_EQ(first(R"({"type":"number","exclusiveMinimum":0})", "0"), "arguments: expected number > 0, got 0");
  EXPECT_EQ(first(R"({"type":"number","exclusiveMaximum":1.5})", "1.5"), "arguments: expected number < 1.5, got 1.5");
  EXPECT_EQ(first(R"({"type":"number","minimum":0,"maximum":1})", "0.5"), "");
  // draft-04 boolean form
  EXPECT_EQ(first(R"({"type":"number","minimum":0,"exclusiveMinimum":true})", "0"),
            "arguments: expected number > 0, got 0");
}

TEST(SchemaValidator, StringsLengthPatternEnumConst) {
  EXPECT_EQ(first(R"({"type":"string","minLength":2})", R"("a")"),
            "arguments: expected a string of at least 2 characters, got 1");
  EXPECT_EQ(first(R"({"type":"string","maxLength":3})", R"("Küche")"),
            "arguments: expected a string of at most 3 characters, got 5");
  EXPECT_EQ(first(R"({"type":"string","maxLength":5})", R"("Küche")"), "");  // code points, not bytes
  EXPECT_EQ(first(R"({"type":"string","pattern":"^[a-z_]+\\.[a-z0-9_]+$"})", R"("light.kitchen")"), "");
  EXPECT_EQ(first(R"({"type":"string","pattern":"^[a-z_]+\\.[a-z0-9_]+$"})", R"("Kitchen")"),
            R"(arguments: expected a string matching /^[a-z_]+\.[a-z0-9_]+$/, got string "Kitchen")");
  EXPECT_EQ(first(R"({"enum":["on","off"]})", R"("dim")"),
            R"(arguments: expected one of "on", "off", got string "dim")");
  EXPECT_EQ(first(R"({"enum":[1,2]})", "2.0"), "");
  EXPECT_EQ(first(R"({"const":"x"})", R"("y")"), R"(arguments: expected "x", got string "y")");
  EXPECT_EQ(first(R"({"type":"string","format":"date-time"})", R"("not a date")"), "");  // format ignored
}

TEST(SchemaValidator, Arrays) {
  const char* schema = R"({"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true})";
  EXPECT_EQ(first(schema, R"(["a","b"])"), "");
  EXPECT_EQ(first(schema, R"([])"), "arguments: expected at least 1 items, got 0");
  EXPECT_EQ(first(schema, R"(["a","b","c","d"])"), "arguments: expected at most 3 items, got 4");
  EXPECT_EQ(first(schema, R"(["a",2])"), "arguments[1]: expected string, got 2");
  EXPECT_EQ(first(schema, R"(["a","a"])"), "arguments[1]: expected unique items, but it repeats item [0]");
  const char* nested = R"({"type":"object","properties":{"ids":{"type":"array","items":{"type":"object",
                          "properties":{"id":{"type":"string"}},"required":["id"]}}}})";
  EXPECT_EQ(first(nested, R"({"ids":[{"id":"a"},{}]})"),
            "arguments.ids[1].id: missing required property (expected string)");
}

TEST(SchemaValidator, Combinators) {
  const char* one_of = R"({"oneOf":[{"type":"string"},{"type":"integer"}]})";
  EXPECT_EQ(first(one_of, R"("a")"), "");
  EXPECT_NE(first(one_of, "true").find("exactly one of the oneOf alternatives"), std::string::npos);
  EXPECT_NE(first(one_of, "true").find("#1: arguments: expected string, got true"), std::string::npos);
  const char* ambiguous = R"({"oneOf":[{"type":"number"},{"type":"integer"}]})";
  EXPECT_NE(first(ambiguous, "3").find("but it matches 2"), std::string::npos);
  const char* any_of = R"({"anyOf":[{"type":"string","minLength":3},{"type":"null"}]})";
  EXPECT_EQ(first(any_of, "null"), "");
  EXPECT_NE(first(any_of, R"("ab")").find("anyOf"), std::string::npos);
  const char* all_of = R"({"allOf":[{"type":"integer"},{"minimum":5}]})";
  EXPECT_EQ(first(all_of, "7"), "");
  EXPECT_EQ(first(all_of, "3"), "arguments: expected number >= 5, got 3");
  EXPECT_NE(first(R"({"not":{"type":"null"}})", "null"), "");
}

TEST(SchemaValidator, LocalRefsIncludingRecursion) {
  const char* schema = R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
    "properties":{"address":{"$ref":"#/$defs/address"}},"additionalProperties":false,
    "$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},
                        "required":["street","city"],"additionalProperties":false}}})";
  EXPECT_EQ(first(schema, R"({"address":{"street":"a","city":"b"}})"), "");
  EXPECT_EQ(first(schema, R"({"address":{"street":"a"}})"),
            "arguments.address.city: missing required property (expected string)");
  const char* tree =
      R"({"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}},
                        "v":{"type":"integer"}}}},"$ref":"#/$defs/node"})";
  EXPECT_EQ(first(tree, R"({"children":[{"children":[{"v":1}]}]})"), "");
  EXPECT_EQ(first(tree, R"({"children":[{"children":[{"v":"x"}]}]})"),
            R"(arguments.children[0].children[0].v: expected integer, got string "x")");
  const char* legacy = R"({"definitions":{"id":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/id"}}})";
  EXPECT_EQ(first(legacy, R"({"a":1})"), "arguments.a: expected string, got 1");
}

TEST(SchemaValidator, InvalidSchemasThrowAtConstruction) {
  for (const char* bad :
       {R"({"type":"strin"})", R"({"type":5})", R"({"required":"x"})", R"({"properties":[]})", R"({"minimum":"1"})",
        R"({"minLength":-1})", R"({"pattern":"("})", R"({"items":5})", R"({"oneOf":[]})",
        R"({"$ref":"#/$defs/missing"})", R"({"$ref":"http://x/y"})", R"({"enum":[]})", R"({"uniqueItems":"yes"})",
        R"({"properties":{"a":5}})",
        R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})", R"({"$ref":"#"})"}) {
    EXPECT_THROW(SchemaValidator(json::parse(bad).as_object()), std::invalid_argument) << bad;
  }
  try {
    SchemaValidator(json::parse(R"({"properties":{"limit":{"type":"int"}}})").as_object());
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/properties/limit/type"), std::string::npos) << e.what();
  }
}

TEST(SchemaValidator, LongStringsAndEvilPatternsNeitherCrashNorHang) {
  // std::regex overflows the stack on ~100 kB; Boost.Regex does not.
  std::string long_id = "\"" + std::string(2'000'000, 'a') + ".b\"";
  EXPECT_EQ(first(R"({"type":"string","pattern":"^[a-z_]+\\.[a-z0-9_]+$"})", long_id), "");
  std::string evil_input = "\"" + std::string(40, 'a') + "!\"";
  auto start = std::chrono::steady_clock::now();
  std::string message = first(R"({"type":"string","pattern":"^(a+)+$"})", evil_input);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(message.find("arguments: expected a string matching /^(a+)+$/"), std::string::npos) << message;
}

TEST(SchemaValidator, RecursionThroughCombinatorsIsBounded) {
  // allOf back to the root never consumes input: the depth guard stops it.
  std::string message = first(R"({"allOf":[{"$ref":"#"}]})", "1");
  EXPECT_NE(message.find("too deeply"), std::string::npos) << message;
}

TEST(SchemaValidator, BooleanSchemasAndAnnotationsAreFine) {
  EXPECT_EQ(first(R"({"properties":{"a":true,"b":false}})", R"({"a":1})"), "");
  EXPECT_EQ(first(R"({"properties":{"a":true,"b":false}})", R"({"b":1})"), "arguments.b: no value is allowed here");
  EXPECT_EQ(first(R"({"title":"x","description":"y","default":1,"examples":[1],"deprecated":true})", "1"), "");
}

TEST(SchemaValidator, IsValidAgreesWithValidate) {
  SchemaValidator v(json::parse(R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}}})").as_object());
  EXPECT_TRUE(v.is_valid(json::parse(R"({"n":1})")));
  EXPECT_FALSE(v.is_valid(json::parse(R"({"n":-1})")));
  EXPECT_TRUE(v.validate(json::parse(R"({"n":1})"), "x").empty());
}

// Every validator lives as long as the server (~900 nodes from start-up on): a node pays for
// bounds, pattern, const and combinators only when it has one of them (bench/RESULTS-ha.md, step 11).
TEST(SchemaValidator, ANodeHoldsOnlyTheKeywordsItHas) {
  EXPECT_LE(sizeof(detail::SchemaNode), 128u);
  detail::SchemaStorage storage;
  const auto* root = detail::compile_schema(json::parse(R"({"type":"object","required":["id"],
      "properties":{"id":{"type":"string","enum":["a","b"]},"tags":{"type":"array","items":{"type":"string"}},
                    "limit":{"type":"integer","minimum":1},"name":{"type":"string","pattern":"^x"}}})")
                                                .as_object(),
                                            storage);
  ASSERT_NE(root, nullptr);
  std::size_t with_rare = 0;
  for (const detail::SchemaNode& node : storage.nodes) with_rare += node.rare_keywords ? 1 : 0;
  EXPECT_EQ(with_rare, 2u);  // limit (minimum) and name (pattern); root, id, tags and its items have none
  EXPECT_EQ(root->property("limit")->rare().minimum, 1.0);
  EXPECT_FALSE(root->property("tags")->rare_keywords);
  // And the kept keywords still apply.
  SchemaValidator v(
      json::parse(R"({"type":"object","properties":{"limit":{"type":"integer","minimum":1}}})").as_object());
  EXPECT_EQ(v.validate(json::parse(R"({"limit":0})"), "arguments").front(),
            "arguments.limit: expected integer >= 1, got 0");
}

}  // namespace
}  // namespace hamcp::mcp
