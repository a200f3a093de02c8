// tools/list and tools/call: registration checks, pagination, aliases,
// annotations, argument validation, handler failures and output schemas.
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

ToolHandler echo_handler() {
  return [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
    std::string text(args.contains("text") ? args.at("text").as_string() : "");
    co_return ToolResult::text(text);
  };
}

std::string call(std::string_view name, std::string_view arguments, int id = 1) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" +
         std::string(name) + R"(","arguments":)" + std::string(arguments) + "}}";
}

json::object call_and_wait(Harness& h, std::string_view name, std::string_view arguments) {
  auto ch = h.send(call(name, arguments));
  h.run_until([&] { return ch->closed == 1; });
  auto responses = ch->responses();
  EXPECT_EQ(responses.size(), 1u);
  return responses.empty() ? json::object() : responses.front();
}

TEST(ToolRegistry, RejectsBadDefinitions) {
  Registry r;
  auto good = simple_tool("ok_tool", echo_handler());
  EXPECT_NO_THROW(r.add_tool(good));
  EXPECT_THROW(r.add_tool(good), std::invalid_argument);  // duplicate
  auto bad_name = simple_tool("has space", echo_handler());
  EXPECT_THROW(r.add_tool(bad_name), std::invalid_argument);
  auto too_long = simple_tool(std::string(129, 'a'), echo_handler());
  EXPECT_THROW(r.add_tool(too_long), std::invalid_argument);
  auto no_description = simple_tool("nodesc", echo_handler());
  no_description.description.clear();
  EXPECT_THROW(r.add_tool(no_description), std::invalid_argument);
  auto no_handler = simple_tool("nohandler", nullptr);
  EXPECT_THROW(r.add_tool(no_handler), std::invalid_argument);
  auto not_object = simple_tool("notobject", echo_handler(), R"({"type":"string"})");
  EXPECT_THROW(r.add_tool(not_object), std::invalid_argument);
  auto bad_schema =
      simple_tool("badschema", echo_handler(), R"({"type":"object","properties":{"a":{"type":"strin"}}})");
  try {
    r.add_tool(bad_schema);
    ADD_FAILURE() << "bad schema accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("badschema"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("strin"), std::string::npos) << e.what();
  }
  auto alias_clash = simple_tool("other", echo_handler());
  alias_clash.aliases = {"ok_tool"};
  EXPECT_THROW(r.add_tool(alias_clash), std::invalid_argument);
  auto bad_output = simple_tool("badoutput", echo_handler());
  bad_output.output_schema = obj(R"({"type":"object","required":"x"})");
  EXPECT_THROW(r.add_tool(bad_output), std::invalid_argument);
  EXPECT_EQ(r.tools().size(), 1u);
}

TEST(ToolsList, PaginatesWithOpaqueCursorAndRejectsBadCursor) {
  ServerOptions options = Harness::default_options();
  options.page_size = 2;
  Harness h(options);
  for (int i = 0; i < 5; ++i) h.server.registry().add_tool(simple_tool("tool_" + std::to_string(i), echo_handler()));
  h.initialize();
  std::vector<std::string> names;
  std::string cursor;
  int pages = 0;
  do {
    std::string params = cursor.empty() ? "{}" : R"({"cursor":")" + cursor + R"("})";
    auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":)" + params + "}");
    const auto& result = r.at("result").as_object();
    for (const auto& t : result.at("tools").as_array()) names.emplace_back(t.as_object().at("name").as_string());
    cursor = result.contains("nextCursor") ? std::string(result.at("nextCursor").as_string()) : "";
    ++pages;
  } while (!cursor.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"tool_0", "tool_1", "tool_2", "tool_3", "tool_4"}));

  for (std::string bad : {R"("nonsense")", R"("tools:99")", R"("tools:-1")", R"("prompts:2")", "17"}) {
    auto r = h.request(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":)" + bad + "}}");
    EXPECT_EQ(error_code_of(r), error_code::invalid_params) << bad;
  }
}

TEST(ToolsList, ListsSchemaAnnotationsAndHidesAliases) {
  Harness h;
  auto t = simple_tool(
      "ha_get_state",
      [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
        co_return ToolResult::structured(std::move(args));
      },
      R"({"type":"object","properties":{"text":{"type":"string"}}})");
  t.title = "Get state";
  t.aliases = {"get_state", "old_get_state"};
  t.annotations.read_only_hint = true;
  t.annotations.destructive_hint = false;
  t.output_schema = obj(R"({"type":"object"})");
  h.server.registry().add_tool(t);
  h.initialize();
  auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  const auto& tools = r.at("result").as_object().at("tools").as_array();
  ASSERT_EQ(tools.size(), 1u);
  const auto& listed = tools[0].as_object();
  EXPECT_EQ(listed.at("name").as_string(), "ha_get_state");
  EXPECT_EQ(listed.at("title").as_string(), "Get state");
  EXPECT_EQ(listed.at("description").as_string(), "test tool ha_get_state");
  EXPECT_EQ(listed.at("inputSchema").as_object().at("type").as_string(), "object");
  EXPECT_TRUE(listed.contains("outputSchema"));
  const auto& ann = listed.at("annotations").as_object();
  EXPECT_TRUE(ann.at("readOnlyHint").as_bool());
  EXPECT_FALSE(ann.at("destructiveHint").as_bool());
  EXPECT_FALSE(ann.contains("idempotentHint"));
  EXPECT_FALSE(ann.contains("title"));  // the top-level title is the one 2025-06-18+ clients read

  // the alias is callable
  auto called = call_and_wait(h, "get_state", R"({"text":"via alias"})");
  EXPECT_FALSE(is_error_result(called));
  EXPECT_EQ(text_of(called), R"({"text":"via alias"})");
}

// 2024-11-05 and 2025-03-26 clients know no top-level title: they get it in annotations.title.
TEST(ToolsList, TitleInAnnotationsOnlyForClientsBefore20250618) {
  for (const std::string_view version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    Harness h;
    auto t = simple_tool("titled", echo_handler());
    t.title = "A title";
    h.server.registry().add_tool(t);
    auto untitled = simple_tool("untitled", echo_handler());
    untitled.annotations.read_only_hint = true;
    h.server.registry().add_tool(untitled);
    h.initialize(version);
    auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    const auto& tools = r.at("result").as_object().at("tools").as_array();
    ASSERT_EQ(tools.size(), 2u) << version;
    const json::object& titled = tools[0].as_object();
    EXPECT_EQ(titled.at("title").as_string(), "A title") << version;
    const bool old_client = version < "2025-06-18";
    EXPECT_EQ(titled.contains("annotations"), old_client) << version;
    if (old_client) {
      EXPECT_EQ(titled.at("annotations").at("title").as_string(), "A title") << version;
    }
    const json::object& other = tools[1].as_object().at("annotations").as_object();
    EXPECT_FALSE(other.contains("title")) << version;
    EXPECT_TRUE(other.at("readOnlyHint").as_bool()) << version;
  }
}

TEST(ToolsCall, UnknownToolIsInvalidParams) {
  Harness h;
  h.server.registry().add_tool(simple_tool("echo", echo_handler()));
  h.initialize();
  auto r = h.request(call("nope", "{}"));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  EXPECT_NE(std::string(r.at("error").as_object().at("message").as_string()).find("nope"), std::string::npos);
  r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  r = h.request(call("ecoh", "{}"));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  EXPECT_NE(std::string(r.at("error").as_object().at("message").as_string()).find("did you mean echo?"),
            std::string::npos)
      << r;
}

// A 4 MB unknown name used to be compared by edit distance against every tool
// (3.2 s of one I/O thread) and echoed back whole. Names longer than any tool
// name can be get a short error at once.
TEST(ToolsCall, HugeUnknownToolNameGetsAShortErrorWithoutSuggestions) {
  Harness h;
  h.server.registry().add_tool(simple_tool("echo", echo_handler()));
  h.initialize();
  const std::string huge(std::size_t{4} * 1024 * 1024, 'e');
  auto r = h.request(call(huge, "{}"));
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  const std::string message(r.at("error").as_object().at("message").as_string());
  EXPECT_LT(message.size(), 400u) << "the name must not be echoed whole";
  EXPECT_NE(message.find("at most 128 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("4194304 bytes"), std::string::npos) << message;
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
}

TEST(ToolsCall, LongUnknownToolNameStillGetsASuggestionAndAShortEcho) {
  Harness h;
  const std::string name(120, 'a');
  h.server.registry().add_tool(simple_tool(name, echo_handler()));
  h.initialize();
  std::string typo = name;
  typo[60] = 'b';
  auto r = h.request(call(typo, "{}"));
  const std::string message(r.at("error").as_object().at("message").as_string());
  EXPECT_NE(message.find("did you mean " + name + "?"), std::string::npos) << message;
  EXPECT_NE(message.find("(120 bytes)"), std::string::npos) << "echo cut to 64 bytes: " << message;
}

TEST(ToolsCall, HugeUnknownPromptAndResourceAreNotEchoedWhole) {
  Harness h;
  Prompt prompt;
  prompt.name = "known_prompt";
  prompt.getter = [](std::map<std::string, std::string>, RequestContext&) -> asio::awaitable<json::object> {
    co_return json::object();
  };
  h.server.registry().add_prompt(prompt);
  Resource resource;
  resource.uri = "test://known";
  resource.name = "known";
  resource.reader = [](std::string, RequestContext&) -> asio::awaitable<json::array> { co_return json::array(); };
  h.server.registry().add_resource(resource);
  h.initialize();
  const std::string huge(std::size_t{1024} * 1024, 'p');
  auto r = h.request(R"({"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":")" + huge + R"("}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params) << json::serialize(r).substr(0, 200);
  EXPECT_LT(json::serialize(r).size(), 400u);
  r = h.request(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x:)" + huge + R"("}})");
  EXPECT_EQ(error_code_of(r), error_code::resource_not_found) << json::serialize(r).substr(0, 200);
  EXPECT_LT(json::serialize(r).size(), 2600u) << "message cut to 64 bytes, data.uri to 2048";
}

TEST(ToolsCall, ValidationFailureIsAnIsErrorResultNamingTheField) {
  Harness h;
  bool ran = false;
  h.server.registry().add_tool(simple_tool(
      "search",
      [&ran](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
        ran = true;
        co_return ToolResult::text("ran");
      },
      R"({"type":"object","properties":{"query":{"type":"string","minLength":1},
          "limit":{"type":"integer","minimum":1,"maximum":100}},
          "required":["query"],"additionalProperties":false})"));
  h.initialize();

  auto r = call_and_wait(h, "search", R"({"query":"kitchen","limit":-3})");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("arguments.limit: expected integer >= 1, got -3"), std::string::npos) << text_of(r);

  r = call_and_wait(h, "search", R"({"limit":5})");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("arguments.query: missing required property (expected string)"), std::string::npos)
      << text_of(r);

  r = call_and_wait(h, "search", R"({"query":"x","colour":"red"})");
  EXPECT_NE(text_of(r).find("arguments.colour: unexpected property; allowed: query, limit"), std::string::npos)
      << text_of(r);

  r = call_and_wait(h, "search", R"({"query":"x","limit":2.5})");
  EXPECT_NE(text_of(r).find("arguments.limit: expected integer, got 2.5"), std::string::npos) << text_of(r);

  r = call_and_wait(h, "search", R"([1,2])");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("expected object"), std::string::npos) << text_of(r);
  EXPECT_FALSE(ran);

  r = call_and_wait(h, "search", R"({"query":"x","limit":1.0})");  // 1.0 is an integer in JSON Schema
  EXPECT_FALSE(is_error_result(r));
  EXPECT_TRUE(ran);
}

TEST(ToolsCall, MissingArgumentsMeansEmptyObject) {
  Harness h;
  h.server.registry().add_tool(simple_tool("echo", echo_handler()));
  h.initialize();
  auto ch = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})");
  h.run_until([&] { return ch->closed == 1; });
  ASSERT_EQ(ch->responses().size(), 1u);
  EXPECT_FALSE(is_error_result(ch->responses()[0]));
}

TEST(ToolsCall, HandlerExceptionBecomesIsErrorResultAndServerKeepsServing) {
  Harness h;
  h.server.registry().add_tool(simple_tool("boom", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    throw std::runtime_error("light.kitchen is unavailable");
    co_return ToolResult::text("unreachable");
  }));
  h.server.registry().add_tool(
      simple_tool("rpc_error", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
        throw McpError(error_code::invalid_params, "deliberate");
        co_return ToolResult::text("unreachable");
      }));
  h.initialize();
  auto r = call_and_wait(h, "boom", "{}");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("light.kitchen is unavailable"), std::string::npos);
  EXPECT_NE(text_of(r).find("boom"), std::string::npos);
  r = call_and_wait(h, "rpc_error", "{}");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  auto ping = h.request(R"({"jsonrpc":"2.0","id":5,"method":"ping"})");
  EXPECT_TRUE(ping.contains("result"));
}

TEST(ToolsCall, StructuredContentIsCheckedAgainstOutputSchema) {
  Harness h;
  auto t = simple_tool(
      "count",
      [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
        json::object out;
        if (args.at("good").as_bool())
          out["count"] = 3;
        else
          out["count"] = "three";
        co_return ToolResult::structured(std::move(out));
      },
      R"({"type":"object","properties":{"good":{"type":"boolean"}},"required":["good"]})");
  t.output_schema = obj(R"({"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]})");
  h.server.registry().add_tool(t);
  auto missing = simple_tool("nostruct", echo_handler());
  missing.output_schema = obj(R"({"type":"object"})");
  h.server.registry().add_tool(missing);
  h.initialize();

  auto r = call_and_wait(h, "count", R"({"good":true})");
  EXPECT_FALSE(is_error_result(r));
  EXPECT_EQ(r.at("result").as_object().at("structuredContent").as_object().at("count").as_int64(), 3);
  EXPECT_EQ(text_of(r), R"({"count":3})");  // the text mirror for older clients

  r = call_and_wait(h, "count", R"({"good":false})");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("structuredContent.count: expected integer, got string \"three\""), std::string::npos)
      << text_of(r);

  r = call_and_wait(h, "nostruct", "{}");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_NE(text_of(r).find("no structuredContent"), std::string::npos);
}

TEST(ToolsCall, ErrorResultsAreNotValidatedAgainstOutputSchema) {
  Harness h;
  auto t = simple_tool("fails", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    co_return ToolResult::error("entity_id: no such entity; use search");
  });
  t.output_schema = obj(R"({"type":"object","required":["x"]})");
  h.server.registry().add_tool(t);
  h.initialize();
  auto r = call_and_wait(h, "fails", "{}");
  EXPECT_TRUE(is_error_result(r));
  EXPECT_EQ(text_of(r), "entity_id: no such entity; use search");
}

TEST(ToolsCall, ContentHelpersBuildSpecShapes) {
  auto img = content::image("AAAA", "image/png");
  EXPECT_EQ(img.at("type").as_string(), "image");
  EXPECT_EQ(img.at("mimeType").as_string(), "image/png");
  auto res = content::embedded_text("test://x", "hello");
  EXPECT_EQ(res.at("resource").as_object().at("text").as_string(), "hello");
  auto link = content::resource_link("ha://entity/light.x", "light.x");
  EXPECT_EQ(link.at("type").as_string(), "resource_link");
  auto err = ToolResult::error("bad").to_json();
  EXPECT_TRUE(err.at("isError").as_bool());
  auto ok = ToolResult::text("fine").to_json();
  EXPECT_FALSE(ok.contains("isError"));
}

TEST(ToolsChanged, NotifiesInitializedSessionsOnStandaloneChannel) {
  Harness h;
  h.server.registry().add_tool(simple_tool("echo", echo_handler()));
  h.server.notify_tools_changed();
  EXPECT_TRUE(h.standalone->sent.empty());  // not initialized yet
  h.initialize();
  h.server.notify_tools_changed();
  EXPECT_EQ(h.standalone->with_method("notifications/tools/list_changed").size(), 1u);
}

}  // namespace
}  // namespace hamcp::mcp::testing
