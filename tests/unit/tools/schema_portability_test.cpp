// tools/list is portable to single-type schema dialects (Gemini's function
// declarations, the MCP Inspector's portability check): no `type` arrays, no
// schema without a validation keyword, no bare boolean schemas, no remote
// $ref. Before: 11 type unions across 8 tools. The shapes those unions
// advertised (a list of ids, null to reset) are still accepted.
#include "mcp/schema_validator.hpp"
#include "tools/tool_spec.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

// Keywords that make a schema node constrain its value (as the Inspector's
// untyped-schema rule counts them).
bool constrains(const json::object& node) {
  for (const char* k : {"type",
                        "enum",
                        "const",
                        "properties",
                        "items",
                        "anyOf",
                        "oneOf",
                        "allOf",
                        "not",
                        "$ref",
                        "required",
                        "minimum",
                        "maximum",
                        "minLength",
                        "maxLength",
                        "pattern",
                        "minItems",
                        "maxItems",
                        "additionalProperties",
                        "patternProperties"})
    if (node.contains(k)) return true;
  return false;
}

void walk(const json::value& node, const std::string& path, std::vector<std::string>& problems) {
  if (node.is_bool()) {
    problems.push_back(path + ": bare boolean schema");
    return;
  }
  if (!node.is_object()) return;
  const json::object& o = node.get_object();
  if (const json::value* type = o.if_contains("type"); type && type->is_array())
    problems.push_back(path + ": type union " + json::serialize(*type));
  if (!constrains(o)) problems.push_back(path + ": schema without any validation keyword");
  if (const json::value* ref = o.if_contains("$ref"); ref && ref->is_string() && !ref->as_string().starts_with("#"))
    problems.push_back(path + ": remote $ref");
  for (const char* map_key : {"properties", "patternProperties", "$defs", "definitions"})
    if (const json::value* m = o.if_contains(map_key); m && m->is_object())
      for (const auto& kv : m->get_object()) walk(kv.value(), path + "." + std::string(kv.key()), problems);
  for (const char* key : {"items", "additionalProperties", "not", "contains", "propertyNames"})
    if (const json::value* sub = o.if_contains(key);
        sub && !(key == std::string("additionalProperties") && sub->is_bool()))
      walk(*sub, path + "." + key, problems);
  for (const char* key : {"anyOf", "oneOf", "allOf", "prefixItems"})
    if (const json::value* arr = o.if_contains(key); arr && arr->is_array())
      for (std::size_t i = 0; i < arr->get_array().size(); ++i)
        walk(arr->get_array()[i], path + "." + key + "[" + std::to_string(i) + "]", problems);
}

TEST_F(ToolsTest, ListedSchemasHaveNoTypeUnionsOrOtherPortabilityProblems) {
  start();
  json::object r = list_tools();
  std::vector<std::string> problems;
  for (const auto& t : r.at("result").at("tools").as_array()) {
    const std::string name(t.at("name").as_string());
    walk(t.at("inputSchema"), name + ".inputSchema", problems);
    if (const json::value* out = t.as_object().if_contains("outputSchema"))
      walk(*out, name + ".outputSchema", problems);
  }
  EXPECT_TRUE(problems.empty()) << [&] {
    std::string all;
    for (const auto& p : problems) all += p + "\n";
    return all;
  }();
}

TEST_F(ToolsTest, ShapesTheOldUnionsAdvertisedAreStillAccepted) {
  start();
  CallResult r = call("ha_get_state", R"({"entity_id":["light.kitchen_ceiling_light","light.porch_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("states").as_array().size(), 2u);
  r = call("ha_get_entity", R"({"entity_id":["light.kitchen_ceiling_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_history", R"({"entity_id":["light.kitchen_ceiling_light"],"start":"1h"})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_call_service", R"({"domain":"light","service":"turn_on","entity_id":["light.porch_light"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_bulk_control", R"({"operations":[{"entity_id":["light.porch_light"],"action":"turn_off"}]})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_set_entity", R"({"entity_id":"light.porch_light","name":null,"icon":null})");
  ASSERT_FALSE(r.is_error) << r.text;
  // The widened schema keeps its limits.
  std::string many;
  for (int i = 0; i < 101; ++i) many += std::string(many.empty() ? "" : ",") + "\"light.x" + std::to_string(i) + "\"";
  r = call("ha_get_state", R"({"entity_id":[)" + many + "]}");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("arguments.entity_id"), std::string::npos) << r.text;
  // And still refuses what no shape allowed.
  r = call("ha_get_state", R"({"entity_id":5})");
  ASSERT_TRUE(r.is_error);
  r = call("ha_set_entity", R"({"entity_id":"light.porch_light","hidden":null})");
  ASSERT_TRUE(r.is_error);
}

TEST(WidenSchema, MergesIntoNestedPropertiesAndRefusesUnknownPaths) {
  const json::object schema = json::parse(R"({"type":"object","properties":{"ops":{"type":"array","items":{
    "type":"object","properties":{"id":{"type":"string"}}}}}})")
                                  .as_object();
  json::object wide = widen_schema(schema, {{"ops[].id", R"({"type":["string","array"]})"}});
  EXPECT_TRUE(mcp::SchemaValidator(wide).is_valid(json::parse(R"({"ops":[{"id":["a","b"]}]})")));
  EXPECT_FALSE(mcp::SchemaValidator(schema).is_valid(json::parse(R"({"ops":[{"id":["a","b"]}]})")));
  EXPECT_THROW(widen_schema(schema, {{"ops[].nope", "{}"}}), std::logic_error);
}

}  // namespace
}  // namespace hamcp::tools::testing
