// Fixtures named by the MCP conformance suite's server scenarios. Each one returns what the
// scenario's description asks for (texts, mime types, delays, progress values), so a failing
// scenario points at hamcp's protocol core or transport, never at a sloppy fixture.
#include "conformance/fixtures.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "mcp/errors.hpp"

namespace hamcp::conformance {
namespace {

using namespace std::chrono_literals;
namespace json = mcp::json;
namespace asio = mcp::asio;
using mcp::RequestContext;
using mcp::ToolResult;

// A 16-sample 8 kHz mono 8-bit WAV (generated, a valid file).
constexpr const char* kTinyWav = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAoIBggKCAYICggGCAoIBg";

json::object parse_object(const char* text) { return json::parse(text).as_object(); }

json::object empty_input_schema() { return parse_object(R"({"type":"object","properties":{}})"); }

asio::awaitable<void> sleep_for(std::chrono::milliseconds duration) {
  auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor, duration);
  co_await timer.async_wait(asio::use_awaitable);
}

mcp::Tool simple_tool(std::string name, std::string description, mcp::ToolHandler handler,
                      json::object schema = empty_input_schema()) {
  mcp::Tool tool;
  tool.name = std::move(name);
  tool.description = std::move(description);
  tool.input_schema = std::move(schema);
  tool.handler = std::move(handler);
  return tool;
}

// ---- tools -------------------------------------------------------------------------------

asio::awaitable<ToolResult> simple_text(json::object, RequestContext&) {
  co_return ToolResult::text("This is a simple text response for testing.");
}

asio::awaitable<ToolResult> image_content(json::object, RequestContext&) {
  ToolResult result;
  result.content.emplace_back(mcp::content::image(kRedPixelPng, "image/png"));
  co_return result;
}

asio::awaitable<ToolResult> audio_content(json::object, RequestContext&) {
  ToolResult result;
  result.content.emplace_back(mcp::content::audio(kTinyWav, "audio/wav"));
  co_return result;
}

asio::awaitable<ToolResult> embedded_resource(json::object, RequestContext&) {
  ToolResult result;
  result.content.emplace_back(
      mcp::content::embedded_text("test://embedded-resource", "This is an embedded resource content.", "text/plain"));
  co_return result;
}

asio::awaitable<ToolResult> multiple_content_types(json::object, RequestContext&) {
  ToolResult result;
  result.content.emplace_back(mcp::content::text("Multiple content types test:"));
  result.content.emplace_back(mcp::content::image(kRedPixelPng, "image/png"));
  result.content.emplace_back(mcp::content::embedded_text("test://mixed-content-resource",
                                                          R"({"test":"data","value":123})", "application/json"));
  co_return result;
}

asio::awaitable<ToolResult> tool_with_logging(json::object, RequestContext& ctx) {
  ctx.log(mcp::LogLevel::info, json::string("Tool execution started"), "conformance-fixture");
  co_await sleep_for(50ms);
  ctx.log(mcp::LogLevel::info, json::string("Tool processing data"), "conformance-fixture");
  co_await sleep_for(50ms);
  ctx.log(mcp::LogLevel::info, json::string("Tool execution completed"), "conformance-fixture");
  co_return ToolResult::text("Tool with logging executed successfully");
}

asio::awaitable<ToolResult> error_handling(json::object, RequestContext&) {
  co_return ToolResult::error("This tool intentionally returns an error for testing");
}

asio::awaitable<ToolResult> tool_with_progress(json::object, RequestContext& ctx) {
  ctx.progress(0, 100);
  co_await sleep_for(50ms);
  ctx.progress(50, 100);
  co_await sleep_for(50ms);
  ctx.progress(100, 100);
  co_return ToolResult::text("Tool with progress executed successfully");
}

asio::awaitable<ToolResult> sampling(json::object arguments, RequestContext& ctx) {
  if (!ctx.session().client_supports("sampling")) {
    co_return ToolResult::error("test_sampling needs a client with the sampling capability");
  }
  json::object message;
  message["role"] = "user";
  message["content"] = mcp::content::text(arguments["prompt"].as_string());
  json::array messages;
  messages.emplace_back(std::move(message));
  json::object params;
  params["messages"] = std::move(messages);
  params["maxTokens"] = 100;
  std::string method = "sampling/createMessage";
  json::value reply = co_await ctx.request(std::move(method), std::move(params));
  std::string text = "(no text)";
  if (const auto* obj = reply.if_object()) {
    if (const auto* content = obj->if_contains("content"); content && content->is_object()) {
      if (const auto* t = content->as_object().if_contains("text"); t && t->is_string()) {
        text = std::string(t->as_string());
      }
    }
  }
  co_return ToolResult::text("LLM response: " + text);
}

asio::awaitable<ToolResult> elicit(RequestContext& ctx, std::string message, json::object schema) {
  if (!ctx.session().client_supports("elicitation")) {
    co_return ToolResult::error("this tool needs a client with the elicitation capability");
  }
  json::object params;
  params["message"] = std::move(message);
  params["requestedSchema"] = std::move(schema);
  std::string method = "elicitation/create";
  json::value reply = co_await ctx.request(std::move(method), std::move(params));
  const json::object& result = reply.as_object();
  std::string action = result.contains("action") ? std::string(result.at("action").as_string()) : "?";
  std::string content = result.contains("content") ? json::serialize(result.at("content")) : "{}";
  co_return ToolResult::text("Elicitation completed: action=" + action + ", content=" + content);
}

asio::awaitable<ToolResult> elicitation(json::object arguments, RequestContext& ctx) {
  json::object schema = parse_object(R"({
    "type": "object",
    "properties": {
      "username": {"type": "string", "description": "User's response"},
      "email": {"type": "string", "description": "User's email address"}
    },
    "required": ["username", "email"]
  })");
  std::string message(arguments["message"].as_string());
  ToolResult result = co_await elicit(ctx, std::move(message), std::move(schema));
  co_return result;
}

asio::awaitable<ToolResult> elicitation_defaults(json::object, RequestContext& ctx) {
  json::object schema = parse_object(R"({
    "type": "object",
    "properties": {
      "name": {"type": "string", "description": "User name", "default": "John Doe"},
      "age": {"type": "integer", "description": "User age", "default": 30},
      "score": {"type": "number", "description": "User score", "default": 95.5},
      "status": {"type": "string", "description": "User status",
                 "enum": ["active", "inactive", "pending"], "default": "active"},
      "verified": {"type": "boolean", "description": "Verification status", "default": true}
    },
    "required": []
  })");
  std::string message = "Test client default value handling - please accept with defaults";
  ToolResult result = co_await elicit(ctx, std::move(message), std::move(schema));
  co_return result;
}

asio::awaitable<ToolResult> elicitation_enums(json::object, RequestContext& ctx) {
  json::object schema = parse_object(R"({
    "type": "object",
    "properties": {
      "untitledSingle": {"type": "string", "description": "Untitled single-select",
                         "enum": ["option1", "option2", "option3"]},
      "titledSingle": {"type": "string", "description": "Titled single-select",
                       "oneOf": [{"const": "value1", "title": "First Option"},
                                 {"const": "value2", "title": "Second Option"},
                                 {"const": "value3", "title": "Third Option"}]},
      "legacyEnum": {"type": "string", "description": "Legacy titled enum",
                     "enum": ["opt1", "opt2", "opt3"],
                     "enumNames": ["Option One", "Option Two", "Option Three"]},
      "untitledMulti": {"type": "array", "description": "Untitled multi-select",
                        "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
      "titledMulti": {"type": "array", "description": "Titled multi-select",
                      "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                          {"const": "value2", "title": "Second Choice"},
                                          {"const": "value3", "title": "Third Choice"}]}}
    },
    "required": []
  })");
  std::string message = "Test enum schema variants (SEP-1330)";
  ToolResult result = co_await elicit(ctx, std::move(message), std::move(schema));
  co_return result;
}

asio::awaitable<ToolResult> json_schema_tool(json::object arguments, RequestContext&) {
  co_return ToolResult::text("json_schema_2020_12_tool received: " + json::serialize(arguments));
}

// The suite's pending server-sse-polling scenario calls this and expects the result either on
// the POST stream or, after the server closed that stream, on a GET with Last-Event-ID.
// SSE polling (SEP-1699): the server ends this call's stream with `retry`
// mid-call; the answer comes on the client's GET with Last-Event-ID.
asio::awaitable<ToolResult> reconnection(json::object, RequestContext& ctx) {
  ctx.release_connection();
  co_await sleep_for(300ms);
  co_return ToolResult::text("Reconnection test completed successfully");
}

// ---- e2e extras ------------------------------------------------------------------------------

asio::awaitable<ToolResult> slow_echo(json::object arguments, RequestContext& ctx) {
  std::int64_t ms = arguments.contains("ms") ? arguments["ms"].to_number<std::int64_t>() : 200;
  std::int64_t steps = arguments.contains("steps") ? arguments["steps"].to_number<std::int64_t>() : 1;
  if (steps < 1) steps = 1;
  // Progress for a slice is sent when the slice starts, so the last notification leaves a slice
  // before the result (clients drop progress that arrives together with the response).
  for (std::int64_t i = 1; i <= steps; ++i) {
    ctx.progress(static_cast<double>(i), static_cast<double>(steps), "slow_echo step");
    co_await sleep_for(std::chrono::milliseconds(ms / steps));
    if (ctx.cancelled()) co_return ToolResult::error("cancelled");
  }
  std::string text = "echo: " + std::string(arguments["text"].as_string());
  co_return ToolResult::text(text);
}

asio::awaitable<ToolResult> log_burst(json::object arguments, RequestContext& ctx) {
  std::int64_t count = arguments.contains("count") ? arguments["count"].to_number<std::int64_t>() : 3;
  for (std::int64_t i = 0; i < count; ++i) {
    json::object data;
    data["n"] = i;
    ctx.log(mcp::LogLevel::info, std::move(data), "log_burst");
  }
  co_return ToolResult::text("logged " + std::to_string(count));
}

// SEP-2243: its `region` argument is mirrored into an Mcp-Param-Region header,
// which the HTTP transport checks against the body before the call runs.
asio::awaitable<ToolResult> custom_header(json::object args, RequestContext&) {
  const json::value* region = args.if_contains("region");
  std::string text = "region: ";
  if (region && region->is_string()) text += std::string(region->get_string());
  co_return ToolResult::text(std::move(text));
}

asio::awaitable<ToolResult> page_tool(json::object, RequestContext& ctx) {
  co_return ToolResult::text("page tool called");
}

}  // namespace

void register_conformance_fixtures(mcp::Registry& registry) {
  registry.add_tool(simple_tool("test_simple_text", "Returns a simple text response", simple_text));
  registry.add_tool(simple_tool("test_image_content", "Returns a 1x1 PNG image", image_content));
  registry.add_tool(simple_tool("test_audio_content", "Returns a tiny WAV audio clip", audio_content));
  registry.add_tool(simple_tool("test_embedded_resource", "Returns an embedded text resource", embedded_resource));
  registry.add_tool(
      simple_tool("test_multiple_content_types", "Returns text, image and resource content", multiple_content_types));
  registry.add_tool(
      simple_tool("test_tool_with_logging", "Sends three log notifications ~50 ms apart", tool_with_logging));
  registry.add_tool(simple_tool("test_error_handling", "Always returns an isError result", error_handling));
  registry.add_tool(simple_tool("test_tool_with_progress", "Reports progress 0, 50, 100 of 100", tool_with_progress));
  registry.add_tool(simple_tool("test_sampling", "Asks the client to sample an LLM (sampling/createMessage)", sampling,
                                parse_object(R"({"type":"object","properties":{"prompt":{"type":"string",
        "description":"The prompt to send to the LLM"}},"required":["prompt"]})")));
  registry.add_tool(simple_tool("test_elicitation", "Asks the user for a username and email (elicitation/create)",
                                elicitation, parse_object(R"({"type":"object","properties":{"message":{"type":"string",
        "description":"The message to show the user"}},"required":["message"]})")));
  registry.add_tool(simple_tool("test_elicitation_sep1034_defaults",
                                "Elicitation with default values for every primitive type (SEP-1034)",
                                elicitation_defaults));
  registry.add_tool(simple_tool("test_elicitation_sep1330_enums",
                                "Elicitation with the five enum schema variants (SEP-1330)", elicitation_enums));
  registry.add_tool(simple_tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", json_schema_tool,
                                parse_object(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"$anchor": "address", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "allOf": [{"anyOf": [{"required": ["name"]}, {"required": ["address"]}]}],
    "if": {"required": ["address"]},
    "then": {"properties": {"address": {"required": ["city"]}}},
    "else": {"properties": {"name": {"minLength": 1}}},
    "additionalProperties": false
  })")));
  registry.add_tool(simple_tool("test_reconnection",
                                "Closes its SSE stream mid-call (SSE polling); the answer follows on reconnection",
                                reconnection));
  registry.add_tool(simple_tool("test_custom_header",
                                "Echoes its region, which the client mirrors into Mcp-Param-Region (SEP-2243)",
                                custom_header, parse_object(R"({"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region","description":"Any region name"}},
        "required":["region"]})")));

  register_conformance_resources_and_prompts(registry);
}

void register_e2e_tools(mcp::Registry& registry, std::size_t extra_tools) {
  registry.add_tool(simple_tool("slow_echo", "Echoes text after a delay, reporting progress; cancellable", slow_echo,
                                parse_object(R"({"type":"object","properties":{
        "text":{"type":"string","description":"Text to echo"},
        "ms":{"type":"integer","minimum":0,"maximum":60000,"description":"Total delay in milliseconds"},
        "steps":{"type":"integer","minimum":1,"maximum":1000,"description":"Progress notifications to send"}},
        "required":["text"]})")));
  registry.add_tool(
      simple_tool("log_burst", "Sends count info log notifications", log_burst,
                  parse_object(R"({"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":1000,
        "description":"How many log notifications"}}})")));
  for (std::size_t i = 0; i < extra_tools; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "page_tool_%03zu", i);
    registry.add_tool(simple_tool(name, "A trivial tool that makes tools/list span several pages", page_tool));
  }
}

}  // namespace hamcp::conformance
