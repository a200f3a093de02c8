// Error results fit the tool's outputSchema (clients such as the TypeScript
// SDK validate structuredContent even when isError is set), and HA's words
// reach the message without JSON debris. Before: a failing ha_eval_template
// returned {"error":...} against a schema requiring `result` (the SDK threw
// "Structured content does not match the tool's output schema"), and its
// message ended in `'end of template'"}` from HA's JSON body.
#include "mcp/schema_validator.hpp"
#include "tools/tool_error.hpp"
#include "tools/tool_spec.hpp"
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

TEST_F(ToolsTest, EveryOutputSchemaAdmitsTheErrorShape) {
  start();
  const json::value error = ToolError{"x", "y", "z", {}}.to_json();
  const json::object listing = list_tools();  // named: a range-for over a temporary's member dangles
  for (const auto& t : listing.at("result").at("tools").as_array()) {
    const json::value* out = t.as_object().if_contains("outputSchema");
    if (!out) continue;
    EXPECT_TRUE(mcp::SchemaValidator(out->as_object()).is_valid(error)) << t.at("name").as_string();
    EXPECT_TRUE(out->at("properties").as_object().contains("error")) << t.at("name").as_string();
  }
}

TEST_F(ToolsTest, FailingTemplateFitsItsSchemaAndReadsCleanly) {
  start();
  CallResult r = call("ha_eval_template", R"({"template":"{{ states( }}"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "template_error");
  const std::string message(r.error().at("message").as_string());
  EXPECT_EQ(message.find("Error rendering template"), std::string::npos) << message;
  EXPECT_EQ(message.find('"'), std::string::npos) << message;
  EXPECT_EQ(message.find('}'), std::string::npos) << message;
  EXPECT_EQ(message.back(), '\'') << message;  // ...unexpected 'end of template'
  json::object listing = list_tools();
  for (const auto& t : listing.at("result").at("tools").as_array())
    if (t.at("name").as_string() == "ha_eval_template") {
      EXPECT_TRUE(mcp::SchemaValidator(t.at("outputSchema").as_object()).is_valid(json::value(r.structured))) << r.text;
    }
}

TEST(ToolSpec, AnOutputSchemaThatRefusesErrorsIsABuildTimeBug) {
  ToolSpec s;
  s.name = "t";
  s.description = "d";
  s.input_schema = R"({"type":"object"})";
  s.output_schema = R"({"type":"object","properties":{"result":{"type":"string"}},"required":["result"]})";
  EXPECT_THROW(build_tool(s, nullptr), std::logic_error);
  s.output_schema = R"({"type":"object","properties":{"result":{"type":"string"}}})";
  EXPECT_NO_THROW(build_tool(s, nullptr));
}

TEST(HaBodyMessage, KeepsHaWordsWithoutJson) {
  EXPECT_EQ(ha_body_message(R"({"message":"Error rendering template: TemplateSyntaxError: unexpected '}'"})"),
            "Error rendering template: TemplateSyntaxError: unexpected '}'");
  EXPECT_EQ(ha_body_message("  plain text\nsecond line  "), "plain text second line");
  EXPECT_EQ(ha_body_message(R"({"other":1})"), "");
  EXPECT_LE(ha_body_message(std::string(5000, 'x'), 100).size(), 130u);
}

}  // namespace
}  // namespace hamcp::tools::testing
