// resources/*, prompts/*, completion/complete and their notifications.
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

void add_resources(Registry& r) {
  Resource text;
  text.uri = "test://static-text";
  text.name = "static text";
  text.mime_type = "text/plain";
  text.reader = [](std::string uri, RequestContext&) -> asio::awaitable<json::array> {
    json::array contents;
    contents.emplace_back(text_contents(uri, "hello"));
    co_return contents;
  };
  r.add_resource(text);
  Resource blob = text;
  blob.uri = "test://static-binary";
  blob.name = "binary";
  blob.mime_type = "image/png";
  blob.reader = [](std::string uri, RequestContext&) -> asio::awaitable<json::array> {
    json::array contents;
    contents.emplace_back(blob_contents(uri, "iVBORw0KGgo=", "image/png"));
    co_return contents;
  };
  r.add_resource(blob);
  ResourceTemplate tmpl;
  tmpl.uri_template = "test://template/{id}/data";
  tmpl.name = "templated";
  tmpl.reader = [](std::string uri, std::map<std::string, std::string> vars,
                   RequestContext&) -> asio::awaitable<json::array> {
    if (vars.at("id") == "missing") throw McpError(error_code::resource_not_found, "no such id");
    json::array contents;
    contents.emplace_back(text_contents(uri, "id=" + vars.at("id")));
    co_return contents;
  };
  r.add_resource_template(tmpl);
}

TEST(Resources, ListReadAndTemplates) {
  Harness h;
  add_resources(h.server.registry());
  auto init = h.initialize();
  const auto& caps = init.at("result").as_object().at("capabilities").as_object();
  EXPECT_TRUE(caps.at("resources").as_object().at("subscribe").as_bool());

  auto list = h.request(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
  const auto& resources = list.at("result").as_object().at("resources").as_array();
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(resources[0].as_object().at("uri").as_string(), "test://static-text");
  EXPECT_EQ(resources[0].as_object().at("mimeType").as_string(), "text/plain");

  auto templates = h.request(R"({"jsonrpc":"2.0","id":2,"method":"resources/templates/list"})");
  const auto& tl = templates.at("result").as_object().at("resourceTemplates").as_array();
  ASSERT_EQ(tl.size(), 1u);
  EXPECT_EQ(tl[0].as_object().at("uriTemplate").as_string(), "test://template/{id}/data");

  auto read = [&](std::string uri) {
    auto ch = h.send(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":")" + uri + R"("}})");
    h.run_until([&] { return ch->closed == 1; });
    return ch->responses().at(0);
  };
  auto r = read("test://static-text");
  EXPECT_EQ(r.at("result").as_object().at("contents").as_array()[0].as_object().at("text").as_string(), "hello");
  r = read("test://static-binary");
  EXPECT_EQ(r.at("result").as_object().at("contents").as_array()[0].as_object().at("blob").as_string(), "iVBORw0KGgo=");
  r = read("test://template/42/data");
  EXPECT_EQ(r.at("result").as_object().at("contents").as_array()[0].as_object().at("text").as_string(), "id=42");
  r = read("test://template/a%20b/data");
  EXPECT_EQ(r.at("result").as_object().at("contents").as_array()[0].as_object().at("text").as_string(), "id=a b");
  r = read("test://nothing");
  EXPECT_EQ(error_code_of(r), error_code::resource_not_found);
  EXPECT_EQ(r.at("error").as_object().at("data").as_object().at("uri").as_string(), "test://nothing");
  r = read("test://template/x/y/data");  // {id} does not span '/'
  EXPECT_EQ(error_code_of(r), error_code::resource_not_found);
  r = read("test://template/missing/data");
  EXPECT_EQ(error_code_of(r), error_code::resource_not_found);

  auto bad = h.request(R"({"jsonrpc":"2.0","id":4,"method":"resources/read","params":{}})");
  EXPECT_EQ(error_code_of(bad), error_code::invalid_params);
}

TEST(Resources, SubscribeUnsubscribeAndUpdatedNotifications) {
  Harness h;
  add_resources(h.server.registry());
  h.initialize();
  h.server.notify_resource_updated("test://static-text");
  EXPECT_TRUE(h.standalone->sent.empty());
  auto r =
      h.request(R"({"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"test://static-text"}})");
  EXPECT_TRUE(r.at("result").as_object().empty());
  h.server.notify_resource_updated("test://static-text");
  h.server.notify_resource_updated("test://other");
  h.poll();  // updates are coalesced and sent on a later turn of the executor
  auto updates = h.standalone->with_method("notifications/resources/updated");
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_EQ(updates[0].at("params").as_object().at("uri").as_string(), "test://static-text");
  h.request(R"({"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"test://static-text"}})");
  h.server.notify_resource_updated("test://static-text");
  h.poll();
  EXPECT_EQ(h.standalone->with_method("notifications/resources/updated").size(), 1u);
  h.server.notify_resources_changed();
  EXPECT_EQ(h.standalone->with_method("notifications/resources/list_changed").size(), 1u);
}

TEST(Resources, BadTemplatesAreRejectedAtRegistration) {
  Registry r;
  ResourceTemplate t;
  t.name = "t";
  t.reader = [](std::string, std::map<std::string, std::string>, RequestContext&) -> asio::awaitable<json::array> {
    co_return json::array();
  };
  for (std::string bad : {"x://{a", "x://a}", "x://{a}{b}", "x://{?q}", "x://plain"}) {
    t.uri_template = bad;
    EXPECT_THROW(r.add_resource_template(t), std::invalid_argument) << bad;
  }
  t.uri_template = "x://{+path}";
  EXPECT_NO_THROW(r.add_resource_template(t));
  std::map<std::string, std::string> vars;
  EXPECT_TRUE(r.resource_templates()[0]->match("x://a/b/c", vars));
  EXPECT_EQ(vars.at("path"), "a/b/c");
}

void add_prompts(Registry& r) {
  Prompt simple;
  simple.name = "test_simple_prompt";
  simple.description = "simple";
  simple.getter = [](std::map<std::string, std::string>, RequestContext&) -> asio::awaitable<json::object> {
    co_return obj(R"({"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]})");
  };
  r.add_prompt(simple);
  Prompt with_args;
  with_args.name = "test_prompt_with_arguments";
  with_args.arguments = {{"arg1", "", "first", true}, {"arg2", "", "second", false}};
  with_args.getter = [](std::map<std::string, std::string> args, RequestContext&) -> asio::awaitable<json::object> {
    json::object result;
    json::array messages;
    json::object message;
    message["role"] = "user";
    message["content"] = content::text("arg1=" + args.at("arg1"));
    messages.emplace_back(std::move(message));
    result["messages"] = std::move(messages);
    co_return result;
  };
  r.add_prompt(with_args);
}

TEST(Prompts, ListAndGetWithArgumentChecks) {
  Harness h;
  add_prompts(h.server.registry());
  auto caps = h.initialize().at("result").as_object().at("capabilities").as_object();
  EXPECT_TRUE(caps.contains("prompts"));
  EXPECT_FALSE(caps.contains("tools"));
  auto list = h.request(R"({"jsonrpc":"2.0","id":1,"method":"prompts/list"})");
  const auto& prompts = list.at("result").as_object().at("prompts").as_array();
  ASSERT_EQ(prompts.size(), 2u);
  const auto& args = prompts[1].as_object().at("arguments").as_array();
  EXPECT_EQ(args[0].as_object().at("name").as_string(), "arg1");
  EXPECT_TRUE(args[0].as_object().at("required").as_bool());

  auto get = [&](std::string params) {
    auto ch = h.send(R"({"jsonrpc":"2.0","id":2,"method":"prompts/get","params":)" + params + "}");
    h.run_until([&] { return ch->closed == 1; });
    return ch->responses().at(0);
  };
  auto r = get(R"({"name":"test_prompt_with_arguments","arguments":{"arg1":"x"}})");
  EXPECT_EQ(r.at("result")
                .as_object()
                .at("messages")
                .as_array()[0]
                .as_object()
                .at("content")
                .as_object()
                .at("text")
                .as_string(),
            "arg1=x");
  r = get(R"({"name":"test_prompt_with_arguments","arguments":{"arg2":"x"}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  EXPECT_NE(std::string(r.at("error").as_object().at("message").as_string()).find("arg1"), std::string::npos);
  r = get(R"({"name":"test_prompt_with_arguments","arguments":{"arg1":5}})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  r = get(R"({"name":"nope"})");
  EXPECT_EQ(error_code_of(r), error_code::invalid_params);
  r = get(R"({"name":"test_simple_prompt"})");
  EXPECT_TRUE(r.contains("result"));
}

TEST(Completion, DeclaredOnlyWhenRegisteredAndCapsValues) {
  Harness h;
  add_prompts(h.server.registry());
  h.initialize();
  auto r = h.request(
      R"({"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"a"}}})");
  EXPECT_EQ(error_code_of(r), error_code::method_not_found);

  Harness h2;
  add_prompts(h2.server.registry());
  CompletionRequest seen;
  h2.server.registry().set_completion([&seen](CompletionRequest req, RequestContext&) -> asio::awaitable<Completion> {
    seen = req;
    Completion c;
    for (int i = 0; i < 150; ++i) c.values.push_back(req.argument_value + std::to_string(i));
    c.total = 150;
    co_return c;
  });
  auto caps = h2.initialize().at("result").as_object().at("capabilities").as_object();
  EXPECT_TRUE(caps.contains("completions"));
  auto ch = h2.send(
      R"({"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"a"},"context":{"arguments":{"arg2":"z"}}}})");
  h2.run_until([&] { return ch->closed == 1; });
  auto responses = ch->responses();
  const auto& completion = responses.at(0).at("result").as_object().at("completion").as_object();
  EXPECT_EQ(completion.at("values").as_array().size(), 100u);
  EXPECT_TRUE(completion.at("hasMore").as_bool());
  EXPECT_EQ(completion.at("total").to_number<std::int64_t>(), 150);
  EXPECT_EQ(seen.argument_name, "arg1");
  EXPECT_EQ(seen.context_arguments.at("arg2"), "z");
  auto bad = h2.send(R"({"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{}}})");
  h2.run_until([&] { return bad->closed == 1; });
  EXPECT_EQ(error_code_of(bad->responses().at(0)), error_code::invalid_params);
}

// Prompts and resources are completed by their own owners: a per-ref-type handler answers its
// type, the catch-all the rest, and a type nobody completes gets an empty list (not an error).
TEST(Completion, RoutedByRefType) {
  Harness h;
  add_prompts(h.server.registry());
  auto answer = [](std::string tag) {
    return [tag](CompletionRequest, RequestContext&) -> asio::awaitable<Completion> {
      Completion c;
      c.values.push_back(tag);
      co_return c;
    };
  };
  h.server.registry().set_completion_for("ref/resource", answer("resource"));
  h.initialize();
  auto ask = [&h](int id, const std::string& ref) {
    auto ch = h.send(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                     R"(,"method":"completion/complete","params":{"ref":)" + ref +
                     R"(,"argument":{"name":"a","value":""}}})");
    h.run_until([&] { return ch->closed == 1; });
    return ch->responses().at(0).at("result").as_object().at("completion").as_object().at("values").as_array();
  };
  EXPECT_EQ(ask(1, R"({"type":"ref/resource","uri":"x://{a}"})").at(0).as_string(), "resource");
  EXPECT_TRUE(ask(2, R"({"type":"ref/prompt","name":"p"})").empty());
  h.server.registry().set_completion(answer("any"));
  EXPECT_EQ(ask(3, R"({"type":"ref/prompt","name":"p"})").at(0).as_string(), "any");
  EXPECT_EQ(ask(4, R"({"type":"ref/resource","uri":"x://{a}"})").at(0).as_string(), "resource");
}

}  // namespace
}  // namespace hamcp::mcp::testing
