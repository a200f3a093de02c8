// A tools/call run as a task through a Session (session_tasks.cpp), in the
// 2025-11-25 era (params.task, tasks/get|result|list|cancel,
// notifications/tasks/status) and in the 2026-07-28 era (the
// io.modelcontextprotocol/tasks extension, SEP-2663).
#include "mcp/task_store.hpp"
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;

// ---- through a Session ---------------------------------------------------------------------

// slow: sleeps args.ms (cancellable); broken: a protocol error; sync: never a task; only_task: required.
Harness& with_task_tools(Harness& h, int* cancelled = nullptr) {
  Tool slow = simple_tool("slow", [cancelled](json::object args, RequestContext& ctx) -> asio::awaitable<ToolResult> {
    const json::value* ms = args.if_contains("ms");
    const auto wait = milliseconds(ms ? ms->to_number<std::int64_t>() : 0);
    try {
      co_await sleep_for(wait);
    } catch (const boost::system::system_error&) {
      if (cancelled) ++*cancelled;
      throw;
    }
    if (args.contains("fail")) co_return ToolResult::error("it did not work");
    co_return ToolResult::text("slept");
  });
  slow.task_support = TaskSupport::optional;
  h.server.registry().add_tool(std::move(slow));
  Tool broken = simple_tool("broken", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    throw McpError(error_code::internal_error, "broken inside");
    co_return ToolResult::text("never");
  });
  broken.task_support = TaskSupport::optional;
  h.server.registry().add_tool(std::move(broken));
  h.server.registry().add_tool(simple_tool(
      "sync", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> { co_return ToolResult::text("now"); }));
  Tool only = simple_tool("only_task", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    co_return ToolResult::text("done");
  });
  only.task_support = TaskSupport::required;
  h.server.registry().add_tool(std::move(only));
  return h;
}

const json::object& result_of(const json::object& response) { return response.at("result").as_object(); }

std::string call(std::string_view id, std::string_view tool, std::string_view args, std::string_view extra = "") {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"tools/call","params":{"name":")" +
         std::string(tool) + R"(","arguments":)" + std::string(args) + std::string(extra) + "}}";
}

std::string task_request(std::string_view id, std::string_view method, std::string_view task_id) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" + std::string(method) +
         R"(","params":{"taskId":")" + std::string(task_id) + R"("}})";
}

TEST(Tasks2025, AdvertisedInCapabilitiesAndToolsList) {
  Harness h;
  with_task_tools(h);
  auto init = h.initialize();
  const auto& caps = result_of(init).at("capabilities").as_object();
  EXPECT_TRUE(caps.at("tasks").as_object().at("requests").as_object().at("tools").as_object().contains("call"));
  auto list = h.request(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  for (const auto& t : result_of(list).at("tools").as_array()) {
    const auto& tool = t.as_object();
    const std::string name(tool.at("name").as_string());
    if (name == "sync")
      EXPECT_FALSE(tool.contains("execution"));
    else
      EXPECT_EQ(tool.at("execution").as_object().at("taskSupport").as_string(),
                name == "only_task" ? "required" : "optional");
  }
}

TEST(Tasks2025, CallAsTaskThenGetResultListAndStatusNotification) {
  Harness h;
  with_task_tools(h);
  h.initialize();
  auto created = h.request(call("1", "slow", R"({"ms":50})", R"(,"task":{"ttl":60000})"));
  ASSERT_TRUE(created.contains("result")) << json::serialize(created);
  const auto& task = result_of(created).at("task").as_object();
  const std::string id(task.at("taskId").as_string());
  EXPECT_EQ(task.at("status").as_string(), "working");
  EXPECT_EQ(task.at("ttl").as_int64(), 60000);

  auto got = h.request(task_request("2", "tasks/get", id));
  EXPECT_EQ(result_of(got).at("status").as_string(), "working") << json::serialize(got);
  // tasks/result waits for the end, then answers what the call would have.
  auto waiting = h.send(task_request("3", "tasks/result", id));
  EXPECT_TRUE(waiting->responses().empty());
  ASSERT_TRUE(h.run_until([&] { return !waiting->responses().empty(); }));
  auto result = waiting->responses().front();
  EXPECT_EQ(text_of(result), "slept");
  EXPECT_EQ(
      result_of(result).at("_meta").as_object().at("io.modelcontextprotocol/related-task").as_object().at("taskId"),
      json::value(id));
  auto status = h.standalone->with_method("notifications/tasks/status");
  ASSERT_EQ(status.size(), 1u);
  EXPECT_EQ(status[0].at("params").as_object().at("status").as_string(), "completed");
  auto listed = h.request(R"({"jsonrpc":"2.0","id":4,"method":"tasks/list","params":{}})");
  ASSERT_EQ(result_of(listed).at("tasks").as_array().size(), 1u);
  EXPECT_EQ(result_of(h.request(task_request("5", "tasks/get", id))).at("status").as_string(), "completed");
}

TEST(Tasks2025, CancelStopsTheHandlerAndTerminalCancelIsRefused) {
  Harness h;
  int cancelled = 0;
  with_task_tools(h, &cancelled);
  h.initialize();
  auto created = h.request(call("1", "slow", R"({"ms":60000})", R"(,"task":{})"));
  const std::string id(result_of(created).at("task").as_object().at("taskId").as_string());
  auto cancel = h.request(task_request("2", "tasks/cancel", id));
  EXPECT_EQ(result_of(cancel).at("status").as_string(), "cancelled");
  ASSERT_TRUE(h.run_until([&] { return cancelled == 1; }));
  EXPECT_EQ(error_code_of(h.request(task_request("3", "tasks/cancel", id))), error_code::invalid_params);
  EXPECT_EQ(result_of(h.request(task_request("4", "tasks/get", id))).at("status").as_string(), "cancelled");
}

TEST(Tasks2025, UnknownAndOtherSessionsTaskIdsAreInvalidParams) {
  Harness h;
  with_task_tools(h);
  h.initialize();
  auto created = h.request(call("1", "slow", R"({"ms":1})", R"(,"task":{})"));
  const std::string id(result_of(created).at("task").as_object().at("taskId").as_string());
  EXPECT_EQ(error_code_of(h.request(task_request("2", "tasks/get", "nope"))), error_code::invalid_params);
  auto other = h.server.create_session("other-session");
  auto channel = std::make_shared<MemoryChannel>();
  other->deliver(json::parse(R"({"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":)"
                             R"("2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})"),
                 channel);
  auto probe = std::make_shared<MemoryChannel>();
  other->deliver(json::parse(task_request("3", "tasks/get", id)), probe);
  h.poll();
  ASSERT_EQ(probe->responses().size(), 1u);
  EXPECT_EQ(error_code_of(probe->responses().front()), error_code::invalid_params);
}

TEST(Tasks2025, TaskSupportIsEnforcedAndOlderVersionsIgnoreTheHint) {
  Harness h;
  with_task_tools(h);
  h.initialize();
  EXPECT_EQ(error_code_of(h.request(call("1", "sync", "{}", R"(,"task":{})"))), error_code::method_not_found);
  EXPECT_EQ(error_code_of(h.request(call("2", "only_task", "{}"))), error_code::method_not_found);
  Harness old;
  with_task_tools(old);
  old.initialize("2025-06-18");
  auto plain = old.request(call("3", "slow", R"({"ms":0})", R"(,"task":{})"));
  EXPECT_FALSE(result_of(plain).contains("task"));
  EXPECT_TRUE(result_of(plain).contains("content"));
}

// 2025-11-25: a tool result with isError true fails the task (its status and
// notification say failed), and tasks/result still answers that very result.
TEST(Tasks2025, AToolErrorFailsTheTaskAndTasksResultAnswersItsResult) {
  Harness h;
  with_task_tools(h);
  h.initialize();
  auto created = h.request(call("1", "slow", R"({"ms":1,"fail":true})", R"(,"task":{})"));
  const std::string id(result_of(created).at("task").as_object().at("taskId").as_string());
  json::object got;
  ASSERT_TRUE(h.run_until([&] {
    got = result_of(h.request(task_request("2", "tasks/get", id)));
    return got.at("status").as_string() != "working";
  }));
  EXPECT_EQ(got.at("status").as_string(), "failed");
  EXPECT_TRUE(got.contains("statusMessage"));
  auto status = h.standalone->with_method("notifications/tasks/status");
  ASSERT_EQ(status.size(), 1u);
  EXPECT_EQ(status[0].at("params").as_object().at("status").as_string(), "failed");
  auto result = h.request(task_request("3", "tasks/result", id));
  ASSERT_TRUE(result.contains("result")) << json::serialize(result);
  EXPECT_TRUE(result_of(result).at("isError").as_bool());
  EXPECT_EQ(text_of(result), "it did not work");
}

// ---- 2026-07-28: the tasks extension ------------------------------------------------------

constexpr std::string_view kPlainMeta =
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
constexpr std::string_view kTasksMeta =
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":)"
    R"({"extensions":{"io.modelcontextprotocol/tasks":{}}}})";

std::string modern(std::string_view id, std::string_view method, std::string_view params, std::string_view meta) {
  std::string p = "{" + std::string(params);
  if (!params.empty()) p += ",";
  p += std::string(meta) + "}";
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" + std::string(method) + R"(","params":)" + p +
         "}";
}

std::string modern_task(std::string_view id, std::string_view method, std::string_view task_id,
                        std::string_view meta = kTasksMeta) {
  return modern(id, method, R"("taskId":")" + std::string(task_id) + "\"", meta);
}

TEST(Tasks2026, DiscoverAdvertisesTheExtensionNotTheV1Slot) {
  Harness h;
  with_task_tools(h);
  auto r = h.request(modern("1", "server/discover", "", kPlainMeta));
  const auto& caps = result_of(r).at("capabilities").as_object();
  EXPECT_FALSE(caps.contains("tasks"));
  EXPECT_TRUE(caps.at("extensions").as_object().contains("io.modelcontextprotocol/tasks"));
}

TEST(Tasks2026, WithoutTheExtensionCallsStaySyncAndTaskMethodsNeedIt) {
  Harness h;
  with_task_tools(h);
  auto sync = h.request(modern("1", "tools/call", R"("name":"slow","arguments":{"ms":0})", kPlainMeta));
  EXPECT_EQ(result_of(sync).at("resultType").as_string(), "complete");
  EXPECT_TRUE(result_of(sync).contains("content"));
  EXPECT_EQ(error_code_of(h.request(modern_task("2", "tasks/get", "x", kPlainMeta))),
            error_code::missing_client_capability);
  auto required = h.request(modern("3", "tools/call", R"("name":"only_task","arguments":{})", kPlainMeta));
  EXPECT_EQ(error_code_of(required), error_code::missing_client_capability);
  EXPECT_TRUE(required.at("error")
                  .as_object()
                  .at("data")
                  .as_object()
                  .at("requiredCapabilities")
                  .as_object()
                  .at("extensions")
                  .as_object()
                  .contains("io.modelcontextprotocol/tasks"));
  EXPECT_EQ(error_code_of(h.request(modern_task("4", "tasks/result", "x"))), error_code::method_not_found);
  EXPECT_EQ(error_code_of(h.request(modern("5", "tasks/list", "", kTasksMeta))), error_code::method_not_found);
}

TEST(Tasks2026, FlatCreateResultThenDetailedGet) {
  Harness h;
  with_task_tools(h);
  auto created = h.request(modern("1", "tools/call", R"("name":"slow","arguments":{"ms":30})", kTasksMeta));
  const auto& c = result_of(created);
  EXPECT_EQ(c.at("resultType").as_string(), "task");
  EXPECT_FALSE(c.contains("task"));
  EXPECT_TRUE(c.contains("ttlMs"));
  EXPECT_TRUE(c.contains("pollIntervalMs"));
  EXPECT_FALSE(c.contains("ttl"));
  const std::string id(c.at("taskId").as_string());
  EXPECT_EQ(result_of(h.request(modern_task("2", "tasks/get", id))).at("status").as_string(), "working");
  json::object done;
  ASSERT_TRUE(h.run_until([&] {
    done = result_of(h.request(modern_task("3", "tasks/get", id)));
    return done.at("status").as_string() == "completed";
  }));
  EXPECT_EQ(done.at("resultType").as_string(), "complete");
  EXPECT_EQ(done.at("result").as_object().at("content").as_array().size(), 1u);
  EXPECT_EQ(error_code_of(h.request(modern_task("4", "tasks/get", "not-a-task"))), error_code::invalid_params);
}

TEST(Tasks2026, ToolErrorsCompleteProtocolErrorsFail) {
  Harness h;
  with_task_tools(h);
  auto tool_error =
      h.request(modern("1", "tools/call", R"("name":"slow","arguments":{"ms":1,"fail":true})", kTasksMeta));
  auto protocol = h.request(modern("2", "tools/call", R"("name":"broken","arguments":{})", kTasksMeta));
  const std::string a(result_of(tool_error).at("taskId").as_string());
  const std::string b(result_of(protocol).at("taskId").as_string());
  h.run_for(milliseconds(30));
  auto first = result_of(h.request(modern_task("3", "tasks/get", a)));
  EXPECT_EQ(first.at("status").as_string(), "completed");
  EXPECT_TRUE(first.at("result").as_object().at("isError").as_bool());
  auto second = result_of(h.request(modern_task("4", "tasks/get", b)));
  EXPECT_EQ(second.at("status").as_string(), "failed");
  EXPECT_EQ(second.at("error").as_object().at("code").as_int64(), error_code::internal_error);
  EXPECT_FALSE(second.contains("result"));
}

TEST(Tasks2026, CancelIsAnEmptyAckAlsoWhenFinished) {
  Harness h;
  int cancelled = 0;
  with_task_tools(h, &cancelled);
  auto created = h.request(modern("1", "tools/call", R"("name":"slow","arguments":{"ms":60000})", kTasksMeta));
  const std::string id(result_of(created).at("taskId").as_string());
  auto ack = result_of(h.request(modern_task("2", "tasks/cancel", id)));
  EXPECT_EQ(ack.at("resultType").as_string(), "complete");
  EXPECT_FALSE(ack.contains("taskId"));
  EXPECT_FALSE(ack.contains("status"));
  ASSERT_TRUE(h.run_until([&] { return cancelled == 1; }));
  EXPECT_EQ(result_of(h.request(modern_task("3", "tasks/get", id))).at("status").as_string(), "cancelled");
  EXPECT_EQ(result_of(h.request(modern_task("4", "tasks/cancel", id))).at("resultType").as_string(), "complete");
}

TEST(Tasks2026, ACallMayContinueAsATaskWhenTheClientTakesOne) {
  Harness h;
  with_task_tools(h);
  Tool later = simple_tool("later", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
    const bool as_task = ctx.continue_as_task();  // e.g. once the user's answers are in
    const milliseconds wait(as_task ? 20 : 0);
    auto sleeping = sleep_for(wait);  // named before co_await (GCC 12)
    co_await std::move(sleeping);
    co_return ToolResult::text(as_task ? "finished in a task" : "finished in the call");
  });
  later.task_support = TaskSupport::optional;
  later.task_for = [](const json::object&) { return false; };  // not a task up front: the tool decides
  h.server.registry().add_tool(std::move(later));

  auto plain = h.send(modern("1", "tools/call", R"("name":"later","arguments":{})", kPlainMeta));
  ASSERT_TRUE(h.run_until([&] { return !plain->responses().empty(); }));
  EXPECT_EQ(text_of(plain->responses().front()), "finished in the call");

  auto channel = h.send(modern("2", "tools/call", R"("name":"later","arguments":{})", kTasksMeta));
  ASSERT_EQ(channel->responses().size(), 1u);
  EXPECT_EQ(channel->closed, 1);
  const json::object created = result_of(channel->responses().front());
  EXPECT_EQ(created.at("resultType").as_string(), "task");
  const std::string id(created.at("taskId").as_string());
  json::object done;
  ASSERT_TRUE(h.run_until([&] {
    done = result_of(h.request(modern_task("3", "tasks/get", id)));
    return done.at("status").as_string() != "working";
  }));
  EXPECT_EQ(done.at("status").as_string(), "completed") << json::serialize(done);
  EXPECT_EQ(done.at("result").as_object().at("content").as_array()[0].as_object().at("text").as_string(),
            "finished in a task");
  EXPECT_EQ(channel->responses().size(), 1u);  // nothing more on the call's own channel
  EXPECT_EQ(channel->closed, 1);
}

}  // namespace
}  // namespace hamcp::mcp::testing
