// Fixtures the conformance suite's 2026-07-28 scenarios call (server-stateless,
// input-required-result-*): multi round-trip tools and a prompt that answer with
// an InputRequiredResult first and with their result once the client retries
// with inputResponses (and requestState), a tool needing the sampling
// capability, and tools that change the tool/prompt lists for listen streams.
// Shapes and texts follow the scenario descriptions.
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <map>
#include <string>

#include "conformance/fixtures.hpp"
#include "mcp/errors.hpp"
#include "mcp/server.hpp"

namespace hamcp::conformance {
namespace {

namespace json = mcp::json;
namespace asio = mcp::asio;
using mcp::InputRequired;
using mcp::RequestContext;
using mcp::ToolResult;

json::object parse_object(const char* text) { return json::parse(text).as_object(); }

json::object empty_schema() { return parse_object(R"({"type":"object","properties":{}})"); }

mcp::Tool tool(std::string name, std::string description, mcp::ToolHandler handler) {
  mcp::Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = empty_schema();
  t.handler = std::move(handler);
  return t;
}

json::object ask(const char* method, const char* params_json) {
  json::object request;
  request.emplace("method", method);
  request.emplace("params", parse_object(params_json));
  return request;
}

json::object elicit_string(const char* message, const char* field) {
  std::string params = std::string(R"({"message":")") + message +
                       R"(","requestedSchema":{"type":"object","properties":{")" + field +
                       R"(":{"type":"string"}},"required":[")" + field + R"("]}})";
  return ask("elicitation/create", params.c_str());
}

json::object confirm_request() {
  return ask("elicitation/create", R"({"message":"Please confirm","requestedSchema":{"type":"object",
      "properties":{"ok":{"type":"boolean"}},"required":["ok"]}})");
}

json::object sample(const char* text, int max_tokens) {
  json::object params;
  params.emplace("messages",
                 json::parse(std::string(R"([{"role":"user","content":{"type":"text","text":")") + text + R"("}}])"));
  params.emplace("maxTokens", max_tokens);
  json::object request;
  request.emplace("method", "sampling/createMessage");
  request.emplace("params", std::move(params));
  return request;
}

json::object roots_request() { return ask("roots/list", "{}"); }

json::object one(std::string_view key, json::object request) {
  json::object out;
  out.emplace(key, std::move(request));
  return out;
}

const json::value* answer(const RequestContext& ctx, std::string_view key) {
  const json::object* responses = ctx.input_responses();
  return responses ? responses->if_contains(key) : nullptr;
}

// The string at content.<field> of an elicitation answer, "unknown" otherwise.
std::string answer_text(const json::value* response, std::string_view field) {
  if (!response || !response->is_object()) return "unknown";
  const json::value* content = response->as_object().if_contains("content");
  if (!content || !content->is_object()) return "unknown";
  const json::value* value = content->as_object().if_contains(field);
  return value && value->is_string() ? std::string(value->as_string()) : "unknown";
}

std::string random_nonce() {
  std::array<unsigned char, 12> bytes{};
  RAND_bytes(bytes.data(), static_cast<int>(bytes.size()));
  std::string out;
  for (unsigned char b : bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back(kHex[b >> 4U]);
    out.push_back(kHex[b & 15U]);
  }
  return out;
}

std::string state_of(std::string_view kind, json::object extra = {}) {
  extra.emplace("kind", kind);
  extra.emplace("nonce", random_nonce());
  return json::serialize(extra);
}

json::object parse_state(std::string_view text) {
  boost::system::error_code ec;
  json::value parsed = json::parse(text, ec);
  return (!ec && parsed.is_object()) ? parsed.as_object() : json::object();
}

// requestState whose integrity is checked: {"data": json, "hmac": hex HMAC-SHA256}.
const std::string& state_secret() {
  static const std::string secret = random_nonce() + random_nonce();
  return secret;
}

std::string hmac_hex(const std::string& data) {
  std::array<unsigned char, 32> mac{};
  unsigned int size = 0;
  const std::string& key = state_secret();
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), mac.data(), &size);
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back(kHex[mac[i] >> 4U]);
    out.push_back(kHex[mac[i] & 15U]);
  }
  return out;
}

std::string signed_state(std::string_view kind) {
  json::object envelope;
  std::string data = state_of(kind);
  envelope.emplace("hmac", hmac_hex(data));
  envelope.emplace("data", std::move(data));
  return json::serialize(envelope);
}

std::optional<json::object> verified_state(std::string_view text) {
  json::object envelope = parse_state(text);
  const json::value* data = envelope.if_contains("data");
  const json::value* mac = envelope.if_contains("hmac");
  if (!data || !data->is_string() || !mac || !mac->is_string()) return std::nullopt;
  if (hmac_hex(std::string(data->as_string())) != mac->as_string()) return std::nullopt;
  return parse_state(data->as_string());
}

// ---- multi round-trip tools ------------------------------------------------------------------

asio::awaitable<ToolResult> mrtr_elicitation(json::object, RequestContext& ctx) {
  if (const json::value* name = answer(ctx, "user_name"))
    co_return ToolResult::text("Hello, " + answer_text(name, "name") + "!");
  throw InputRequired(one("user_name", elicit_string("What is your name?", "name")));
}

asio::awaitable<ToolResult> mrtr_sampling(json::object, RequestContext& ctx) {
  if (const json::value* sampled = answer(ctx, "sample_request")) {
    std::string text = "no response";
    if (sampled->is_object())
      if (const json::value* content = sampled->as_object().if_contains("content"); content && content->is_object())
        if (const json::value* t = content->as_object().if_contains("text"); t && t->is_string())
          text = std::string(t->as_string());
    co_return ToolResult::text("Sampling result: " + text);
  }
  throw InputRequired(one("sample_request", sample("What is the capital of France?", 100)));
}

std::size_t roots_count(const json::value* response) {
  if (!response || !response->is_object()) return 0;
  const json::value* roots = response->as_object().if_contains("roots");
  return roots && roots->is_array() ? roots->as_array().size() : 0;
}

asio::awaitable<ToolResult> mrtr_list_roots(json::object, RequestContext& ctx) {
  if (const json::value* roots = answer(ctx, "roots_request"))
    co_return ToolResult::text("Found " + std::to_string(roots_count(roots)) + " root(s)");
  throw InputRequired(one("roots_request", roots_request()));
}

asio::awaitable<ToolResult> mrtr_request_state(json::object, RequestContext& ctx) {
  const json::value* confirmed = answer(ctx, "confirm");
  if (confirmed && !ctx.request_state().empty()) {
    json::object state = parse_state(ctx.request_state());
    const json::value* kind = state.if_contains("kind");
    const json::value* content = confirmed->is_object() ? confirmed->as_object().if_contains("content") : nullptr;
    const json::value* ok = content && content->is_object() ? content->as_object().if_contains("ok") : nullptr;
    if (kind && kind->is_string() && kind->as_string() == "request-state" && ok && ok->is_bool() && ok->as_bool())
      co_return ToolResult::text("state-ok: requestState validated");
  }
  throw InputRequired(one("confirm", confirm_request()), state_of("request-state"));
}

asio::awaitable<ToolResult> mrtr_multiple_inputs(json::object, RequestContext& ctx) {
  const json::value* name = answer(ctx, "user_name");
  const json::value* greeting = answer(ctx, "greeting");
  const json::value* roots = answer(ctx, "client_roots");
  if (name && greeting && roots && !ctx.request_state().empty()) {
    json::object state = parse_state(ctx.request_state());
    const json::value* kind = state.if_contains("kind");
    if (kind && kind->is_string() && kind->as_string() == "multiple-inputs") {
      std::string greeting_text = "Hello there!";
      if (greeting->is_object())
        if (const json::value* c = greeting->as_object().if_contains("content"); c && c->is_object())
          if (const json::value* t = c->as_object().if_contains("text"); t && t->is_string())
            greeting_text = std::string(t->as_string());
      co_return ToolResult::text("Name: " + answer_text(name, "name") + "; Greeting: " + greeting_text +
                                 "; Roots: " + std::to_string(roots_count(roots)));
    }
  }
  json::object requests;
  requests.emplace("user_name", elicit_string("What is your name?", "name"));
  requests.emplace("greeting", sample("Generate a greeting", 50));
  requests.emplace("client_roots", roots_request());
  throw InputRequired(std::move(requests), state_of("multiple-inputs"));
}

asio::awaitable<ToolResult> mrtr_multi_round(json::object, RequestContext& ctx) {
  json::object state = parse_state(ctx.request_state());
  const json::value* round = state.if_contains("round");
  const std::int64_t at = round && round->is_int64() ? round->as_int64() : 0;
  if (at == 1 && answer(ctx, "step1")) {
    json::object next;
    next.emplace("round", 2);
    next.emplace("name", answer_text(answer(ctx, "step1"), "name"));
    throw InputRequired(one("step2", elicit_string("Step 2: What is your favorite color?", "color")),
                        state_of("multi-round", std::move(next)));
  }
  if (at == 2 && answer(ctx, "step2")) {
    const json::value* name = state.if_contains("name");
    std::string who = name && name->is_string() ? std::string(name->as_string()) : "friend";
    co_return ToolResult::text("Multi-round complete for " + who + " who likes " +
                               answer_text(answer(ctx, "step2"), "color"));
  }
  json::object first;
  first.emplace("round", 1);
  throw InputRequired(one("step1", elicit_string("Step 1: What is your name?", "name")),
                      state_of("multi-round", std::move(first)));
}

asio::awaitable<ToolResult> mrtr_tampered_state(json::object, RequestContext& ctx) {
  if (!ctx.request_state().empty()) {
    auto verified = verified_state(ctx.request_state());
    if (!verified) throw mcp::McpError(mcp::error_code::invalid_params, "requestState integrity check failed");
    const json::value* kind = verified->if_contains("kind");
    if (kind && kind->is_string() && kind->as_string() == "tamper-test" && answer(ctx, "confirm"))
      co_return ToolResult::text("integrity-ok: state verified");
  }
  throw InputRequired(one("confirm", confirm_request()), signed_state("tamper-test"));
}

asio::awaitable<ToolResult> mrtr_capabilities(json::object, RequestContext& ctx) {
  if (const json::object* responses = ctx.input_responses(); responses && !responses->empty()) {
    std::string keys;
    for (const auto& [key, value] : *responses) keys += (keys.empty() ? "" : ",") + std::string(key);
    co_return ToolResult::text("capabilities-ok: received " + keys);
  }
  json::object requests;
  if (ctx.session().client_supports("elicitation"))
    requests.emplace("elicit_input", elicit_string("Elicitation input", "value"));
  if (ctx.session().client_supports("sampling")) requests.emplace("sample_input", sample("Sample request", 50));
  if (requests.empty()) co_return ToolResult::text("No supported capabilities declared");
  throw InputRequired(std::move(requests), signed_state("capabilities-test"));
}

// ---- stateless diagnostics -------------------------------------------------------------------

asio::awaitable<ToolResult> missing_capability(json::object, RequestContext& ctx) {
  if (!ctx.session().client_supports("sampling"))
    throw mcp::McpError(mcp::error_code::missing_client_capability,
                        "MissingRequiredClientCapabilityError: this tool needs the sampling capability",
                        json::parse(R"({"requiredCapabilities":{"sampling":{}}})"));
  co_return ToolResult::text("Success");
}

asio::awaitable<ToolResult> streaming_elicitation(json::object, RequestContext& ctx) {
  ctx.progress(50, 100);
  co_return ToolResult::text("Streaming complete");
}

asio::awaitable<ToolResult> logging_tool(json::object, RequestContext& ctx) {
  ctx.log(mcp::LogLevel::info, "Diagnostic trace logging activated", "test_logging_tool");
  co_return ToolResult::text("Logging evaluated");
}

asio::awaitable<json::object> mrtr_prompt(std::map<std::string, std::string>, RequestContext& ctx) {
  if (const json::value* context = answer(ctx, "user_context")) {
    json::object result;
    result.emplace(
        "messages",
        json::parse(std::string(R"([{"role":"user","content":{"type":"text","text":)") +
                    json::serialize(json::value("Prompt with context: " + answer_text(context, "context"))) + "}}]"));
    co_return result;
  }
  throw InputRequired(one("user_context", elicit_string("What context should the prompt use?", "context")));
}

// The server whose listen streams the trigger tools notify (one fixture server per process).
mcp::Server* g_server = nullptr;

asio::awaitable<ToolResult> trigger_tools(json::object, RequestContext&) {
  if (g_server) g_server->notify_tools_changed();
  co_return ToolResult::text("tools list changed");
}

asio::awaitable<ToolResult> trigger_prompts(json::object, RequestContext&) {
  if (g_server) g_server->notify_prompts_changed();
  co_return ToolResult::text("prompts list changed");
}

}  // namespace

void register_modern_fixtures(mcp::Server& server) {
  mcp::Registry& registry = server.registry();
  registry.add_tool(tool("test_missing_capability", "Test tool requiring sampling", missing_capability));
  registry.add_tool(tool("test_input_required_result_elicitation",
                         "MRTR: returns InputRequiredResult with elicitation request", mrtr_elicitation));
  registry.add_tool(tool("test_input_required_result_sampling",
                         "MRTR: returns InputRequiredResult with sampling request", mrtr_sampling));
  registry.add_tool(tool("test_input_required_result_list_roots",
                         "MRTR: returns InputRequiredResult with roots/list request", mrtr_list_roots));
  registry.add_tool(tool("test_input_required_result_request_state",
                         "MRTR: returns InputRequiredResult with requestState", mrtr_request_state));
  registry.add_tool(tool("test_input_required_result_multiple_inputs",
                         "MRTR: returns InputRequiredResult with multiple input requests", mrtr_multiple_inputs));
  registry.add_tool(tool("test_input_required_result_multi_round", "MRTR: multi-round InputRequiredResult workflow",
                         mrtr_multi_round));
  registry.add_tool(tool("test_input_required_result_tampered_state", "MRTR: HMAC-signed requestState integrity test",
                         mrtr_tampered_state));
  registry.add_tool(tool("test_input_required_result_capabilities",
                         "MRTR: respects client capabilities in inputRequests", mrtr_capabilities));
  registry.add_tool(tool("test_streaming_elicitation", "Diagnostic tool validating response progress streams",
                         streaming_elicitation));
  registry.add_tool(tool("test_logging_tool", "Diagnostic logging validator tool", logging_tool));
  g_server = &server;
  registry.add_tool(tool("test_trigger_tool_change", "Announces a tools list change to listen streams", trigger_tools));
  registry.add_tool(
      tool("test_trigger_prompt_change", "Announces a prompts list change to listen streams", trigger_prompts));
  registry.add_prompt(mcp::Prompt{
      "test_input_required_result_prompt", "", "MRTR: a prompt that asks the user for context first", {}, mrtr_prompt});
}

}  // namespace hamcp::conformance
