// Tasks and the life of their 2025-11-25 session (session_tasks.cpp, Server::end_session):
// a session that ends cancels and forgets its tasks, lifetimes hold under churn; and a
// task's work that asks the client something (elicitation) makes the task input_required,
// its request travelling on tasks/result with the related-task metadata.
#include "mcp/task_store.hpp"
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;
constexpr std::string_view kRelatedTask = "io.modelcontextprotocol/related-task";

const json::object& result_of(const json::object& response) { return response.at("result").as_object(); }

std::string task_call(std::string_view id, std::string_view tool, std::string_view args) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"tools/call","params":{"name":")" +
         std::string(tool) + R"(","arguments":)" + std::string(args) + R"(,"task":{"ttl":60000}}})";
}

std::string task_request(std::string_view id, std::string_view method, std::string_view task_id) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" + std::string(method) +
         R"(","params":{"taskId":")" + std::string(task_id) + R"("}})";
}

// slow: sleeps args.ms, counting cancellations; ask: asks the user a yes/no question.
void add_task_tools(Server& server, int* cancelled) {
  Tool slow = simple_tool("slow", [cancelled](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
    const milliseconds wait(args.at("ms").to_number<std::int64_t>());
    try {
      auto sleeping = sleep_for(wait);  // named before co_await (GCC 12)
      co_await std::move(sleeping);
    } catch (const boost::system::system_error&) {
      ++*cancelled;
      throw;
    }
    co_return ToolResult::text("slept");
  });
  slow.task_support = TaskSupport::optional;
  server.registry().add_tool(std::move(slow));
  Tool ask = simple_tool("ask", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
    json::object params = obj(R"({"message":"Go on?","requestedSchema":{"type":"object","properties":)"
                              R"({"ok":{"type":"boolean"}}}})");
    auto asking = ctx.request("elicitation/create", std::move(params), milliseconds(2000));
    json::value answer = co_await std::move(asking);
    const json::value* action = answer.is_object() ? answer.get_object().if_contains("action") : nullptr;
    co_return ToolResult::text(action && *action == "accept" ? "went on" : "stopped");
  });
  ask.task_support = TaskSupport::optional;
  server.registry().add_tool(std::move(ask));
}

// A 2025-11-25 session with `id`, initialized, its standalone stream recorded.
std::shared_ptr<Session> open_session(Harness& h, std::string id, std::shared_ptr<MemoryChannel> standalone,
                                      std::string_view capabilities = "{}") {
  auto session = h.server.create_session(std::move(id));
  session->set_standalone_channel(std::move(standalone));
  session->deliver(json::parse(R"({"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":)"
                               R"("2025-11-25","capabilities":)" +
                               std::string(capabilities) + R"(,"clientInfo":{"name":"c","version":"1"}}})"),
                   std::make_shared<MemoryChannel>());
  return session;
}

json::object answer_on(Harness& h, Session& session, const std::string& text) {
  auto channel = std::make_shared<MemoryChannel>();
  session.deliver(json::parse(text), channel);
  h.poll();
  auto responses = channel->responses();
  EXPECT_EQ(responses.size(), 1u) << text;
  return responses.empty() ? json::object() : responses.front();
}

std::string start_task(Harness& h, Session& session, std::string_view tool, std::string_view args) {
  json::object created = answer_on(h, session, task_call("1", tool, args));
  return std::string(result_of(created).at("task").as_object().at("taskId").as_string());
}

TEST(TasksSessionEnd, AnOwnerNamesItsSessionOnlyInThe2025Era) {
  EXPECT_EQ(session_of_owner(session_task_scope("abc") + "alice"), std::optional<std::string_view>("abc"));
  EXPECT_EQ(session_of_owner(session_task_scope("") + ""), std::optional<std::string_view>(""));  // stdio
  EXPECT_EQ(session_of_owner("2026|alice"), std::nullopt);
  TaskStore store;
  store.create(session_task_scope("abc") + "alice");
  store.create(session_task_scope("abcd") + "alice");  // a longer id is another session
  EXPECT_EQ(store.end_owned([](std::string_view owner) { return session_of_owner(owner) == "abc"; }), 1u);
  EXPECT_EQ(store.size(), 1u);
}

TEST(TasksSessionEnd, EndingASessionCancelsItsRunningTasksAnswersWaitersAndFreesEverything) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  auto standalone = std::make_shared<MemoryChannel>();
  auto session = open_session(h, "ending", standalone);
  const std::string running = start_task(h, *session, "slow", R"({"ms":60000})");
  start_task(h, *session, "slow", R"({"ms":60000})");
  const std::string done = start_task(h, *session, "slow", R"({"ms":1})");
  ASSERT_TRUE(h.run_until([&] { return h.server.tasks().live() == 2; }));
  auto waiting = std::make_shared<MemoryChannel>();
  session->deliver(json::parse(task_request("2", "tasks/result", running)), waiting);
  h.poll();
  ASSERT_TRUE(waiting->sent.empty());
  h.initialize();  // another client's task is not touched
  h.request(task_call("9", "slow", R"({"ms":60000})"));
  ASSERT_EQ(h.server.tasks().size(), 4u);

  std::weak_ptr<Session> gone = session;
  h.server.end_session(session);
  session.reset();
  EXPECT_EQ(h.server.tasks().size(), 1u);  // at once: the ended session's three entries are gone
  EXPECT_EQ(h.server.tasks().live(), 1u);
  ASSERT_EQ(waiting->responses().size(), 1u);  // the waiting tasks/result got its answer, and closed
  EXPECT_EQ(error_code_of(waiting->responses().front()), error_code::invalid_params);
  EXPECT_EQ(waiting->closed, 1);
  ASSERT_TRUE(h.run_until([&] { return cancelled == 2 && gone.expired(); }));       // handlers stopped, session freed
  EXPECT_TRUE(standalone->with_method("notifications/tasks/status").size() == 1u);  // only `done`'s completion
  (void)done;
}

TEST(TasksSessionEnd, ByIdItReachesTasksOfEveryObjectOfThatSessionAndAFinishedOneIsThenUnknown) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  auto first = open_session(h, "same-id", std::make_shared<MemoryChannel>());
  const std::string running = start_task(h, *first, "slow", R"({"ms":60000})");
  const std::string done = start_task(h, *first, "slow", R"({"ms":1})");
  std::weak_ptr<Session> evicted = first;
  first.reset();  // evicted from memory: its running task still holds it
  ASSERT_FALSE(evicted.expired());
  SessionInfo info;
  info.protocol_version = "2025-11-25";
  auto rebuilt = h.server.restore_session("same-id", info);  // the client's next request rebuilt it
  ASSERT_TRUE(h.run_until([&] {
    return result_of(answer_on(h, *rebuilt, task_request("2", "tasks/get", done))).at("status") == "completed";
  }));
  EXPECT_EQ(result_of(answer_on(h, *rebuilt, task_request("3", "tasks/get", running))).at("status"), "working");

  h.server.end_sessions({"same-id"});  // DELETE
  EXPECT_EQ(h.server.tasks().size(), 0u);
  EXPECT_TRUE(rebuilt->is_shut_down());
  ASSERT_TRUE(h.run_until([&] { return cancelled == 1 && evicted.expired(); }));
  // A client presenting the id again (a new object, as after a restart) finds nothing.
  auto again = h.server.restore_session("same-id", info);
  EXPECT_EQ(error_code_of(answer_on(h, *again, task_request("4", "tasks/get", done))), error_code::invalid_params);
  EXPECT_EQ(error_code_of(answer_on(h, *again, task_request("5", "tasks/result", running))),
            error_code::invalid_params);
  EXPECT_EQ(h.server.tasks().size(), 0u);
}

TEST(TasksSessionEnd, ChurnOfSessionsEndingAtEveryStageLeavesNoTaskAndNoSession) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  std::vector<std::weak_ptr<Session>> ended;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (int round = 0; round < 60 && std::chrono::steady_clock::now() < deadline; ++round) {
    auto session =
        open_session(h, "churn-" + std::to_string(round), std::make_shared<MemoryChannel>(), R"({"elicitation":{}})");
    for (int i = 0; i < 4; ++i) {
      const std::string id = start_task(h, *session, i == 3 ? "ask" : "slow", "{\"ms\":" + std::to_string(i * 3) + "}");
      if (i % 2 == 0) session->deliver(json::parse(task_request("7", "tasks/result", id)), nullptr);
    }
    h.run_for(milliseconds(round % 5));  // end before, while and after the work runs
    ended.push_back(session);
    if (round % 2 == 0)
      h.server.end_session(session);
    else
      h.server.end_sessions({"unrelated", session->id()});
  }
  EXPECT_EQ(h.server.tasks().size(), 0u);
  ASSERT_TRUE(
      h.run_until([&] { return std::all_of(ended.begin(), ended.end(), [](const auto& w) { return w.expired(); }); }));
  EXPECT_EQ(h.server.tasks().size(), 0u);
  EXPECT_EQ(h.server.session_count(), 1u);  // the harness's own
}

// ---- 2025-11-25: a task's work asks the client ------------------------------------------

// A client that takes elicitation, and the id of its task that asks it something.
std::string start_asking(Harness& h) {
  static int cancelled = 0;  // the ask tool never counts
  add_task_tools(h.server, &cancelled);
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  return start_task(h, *h.session, "ask", "{}");
}

TEST(TasksInput2025, AQuestionMakesTheTaskInputRequiredAndGoesOutOnTasksResult) {
  Harness h;
  const std::string id = start_asking(h);
  ASSERT_TRUE(h.run_until(
      [&] { return result_of(h.request(task_request("2", "tasks/get", id))).at("status") == "input_required"; }));
  EXPECT_TRUE(h.standalone->with_method("elicitation/create").empty());  // not on the session's stream

  auto result = h.send(task_request("3", "tasks/result", id));
  auto asked = result->with_method("elicitation/create");
  ASSERT_EQ(asked.size(), 1u);
  const json::object& params = asked[0].at("params").as_object();
  EXPECT_EQ(params.at("_meta").as_object().at(kRelatedTask).as_object().at("taskId"), json::value(id));
  EXPECT_EQ(params.at("message"), "Go on?");
  h.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(asked[0].at("id")) +
         R"(,"result":{"action":"accept","content":{"ok":true}}})");
  ASSERT_TRUE(h.run_until([&] { return !result->responses().empty(); }));
  const json::object response = result->responses().front();
  EXPECT_EQ(text_of(response), "went on");
  EXPECT_EQ(result_of(response).at("_meta").as_object().at(kRelatedTask).as_object().at("taskId"), json::value(id));
  EXPECT_EQ(result->closed, 1);
  std::vector<std::string> statuses;
  for (const auto& n : h.standalone->with_method("notifications/tasks/status"))
    statuses.emplace_back(n.at("params").as_object().at("status").as_string());
  EXPECT_EQ(statuses, (std::vector<std::string>{"input_required", "working", "completed"}));
}

TEST(TasksInput2025, AWaitingTasksResultCarriesTheQuestionAtOnce) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  auto created = h.send(task_call("1", "ask", "{}"));  // the question is asked within this turn
  const std::string id(result_of(created->responses().front()).at("task").as_object().at("taskId").as_string());
  auto result = h.send(task_request("2", "tasks/result", id));
  ASSERT_TRUE(h.run_until([&] { return !result->with_method("elicitation/create").empty(); }));
  const json::value question_id = result->with_method("elicitation/create")[0].at("id");
  h.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(question_id) + R"(,"result":{"action":"decline"}})");
  ASSERT_TRUE(h.run_until([&] { return !result->responses().empty(); }));
  EXPECT_EQ(text_of(result->responses().front()), "stopped");
}

TEST(TasksInput2025, CancellingATaskThatWaitsForAnAnswerStopsItAndAnswersItsTasksResult) {
  Harness h;
  const std::string id = start_asking(h);
  auto result = h.send(task_request("2", "tasks/result", id));
  ASSERT_EQ(result->with_method("elicitation/create").size(), 1u);
  EXPECT_EQ(result_of(h.request(task_request("3", "tasks/cancel", id))).at("status"), "cancelled");
  ASSERT_EQ(result->responses().size(), 1u);  // the waiting tasks/result: the task was cancelled
  EXPECT_EQ(error_code_of(result->responses().front()), error_code::invalid_params);
  h.run_for(milliseconds(20));  // the handler unwinds; a late answer changes nothing
  h.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(result->with_method("elicitation/create")[0].at("id")) +
         R"(,"result":{"action":"accept"}})");
  EXPECT_EQ(result_of(h.request(task_request("4", "tasks/get", id))).at("status"), "cancelled");
  EXPECT_EQ(h.server.tasks().live(), 0u);
}

TEST(TasksInput2025, WithoutElicitationTheTaskNeverWaitsAndAnUnansweredQuestionIsWithdrawn) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  h.initialize();  // no elicitation capability: the tool's request fails at once
  const std::string refused = start_task(h, *h.session, "ask", "{}");
  json::object got;
  ASSERT_TRUE(h.run_until([&] {
    got = result_of(h.request(task_request("2", "tasks/get", refused)));
    return got.at("status") != "working";
  }));
  EXPECT_EQ(got.at("status"), "failed");
  for (const auto& n : h.standalone->with_method("notifications/tasks/status"))
    EXPECT_NE(n.at("params").as_object().at("status"), "input_required");

  Harness late;
  add_task_tools(late.server, &cancelled);
  late.initialize("2025-11-25", R"({"elicitation":{}})");
  const std::string id = start_task(late, *late.session, "ask", "{}");
  ASSERT_TRUE(late.run_until(
      [&] {  // nobody called tasks/result: the question times out (2 s) unsent
        return result_of(late.request(task_request("2", "tasks/get", id))).at("status") == "failed";
      },
      milliseconds(5000)));
  auto result = late.send(task_request("3", "tasks/result", id));
  EXPECT_TRUE(result->with_method("elicitation/create").empty());
  EXPECT_TRUE(result->with_method("notifications/cancelled").empty());
  EXPECT_EQ(error_code_of(result->responses().front()), error_code::request_timeout);
}

// The session's in-memory object was evicted while its task waited for an
// answer: the client's next request rebuilt it, tasks/result there carries the
// question, and the answer posted to the rebuilt object reaches the task (not
// a question of the rebuilt object's own, whose ids are kept apart).
TEST(TasksInput2025, AQuestionSurvivesTheEvictionOfItsSessionsObject) {
  Harness h;
  int cancelled = 0;
  add_task_tools(h.server, &cancelled);
  constexpr std::string_view kElicitation = R"({"elicitation":{}})";
  auto first = open_session(h, "evicted", std::make_shared<MemoryChannel>(), kElicitation);
  const std::string older = start_task(h, *first, "ask", "{}");
  ASSERT_TRUE(h.run_until([&] {
    return result_of(answer_on(h, *first, task_request("2", "tasks/get", older))).at("status") == "input_required";
  }));
  first.reset();  // evicted: only its task holds it now
  SessionInfo info;
  info.protocol_version = "2025-11-25";
  info.client_capabilities = obj(kElicitation);
  auto rebuilt = h.server.restore_session("evicted", info);
  rebuilt->set_standalone_channel(std::make_shared<MemoryChannel>());
  const std::string newer = start_task(h, *rebuilt, "ask", "{}");
  auto older_result = std::make_shared<MemoryChannel>();
  auto newer_result = std::make_shared<MemoryChannel>();
  rebuilt->deliver(json::parse(task_request("3", "tasks/result", older)), older_result);
  rebuilt->deliver(json::parse(task_request("4", "tasks/result", newer)), newer_result);
  ASSERT_TRUE(h.run_until([&] {
    return older_result->with_method("elicitation/create").size() == 1 &&
           newer_result->with_method("elicitation/create").size() == 1;
  }));
  const json::value older_question = older_result->with_method("elicitation/create")[0].at("id");
  const json::value newer_question = newer_result->with_method("elicitation/create")[0].at("id");
  EXPECT_NE(older_question, newer_question);
  rebuilt->deliver(json::parse(R"({"jsonrpc":"2.0","id":)" + json::serialize(older_question) +
                               R"(,"result":{"action":"accept","content":{"ok":true}}})"),
                   std::make_shared<MemoryChannel>());
  rebuilt->deliver(
      json::parse(R"({"jsonrpc":"2.0","id":)" + json::serialize(newer_question) + R"(,"result":{"action":"decline"}})"),
      std::make_shared<MemoryChannel>());
  ASSERT_TRUE(h.run_until([&] { return !older_result->responses().empty() && !newer_result->responses().empty(); }));
  EXPECT_EQ(text_of(older_result->responses().front()), "went on");
  EXPECT_EQ(text_of(newer_result->responses().front()), "stopped");
}

}  // namespace
}  // namespace hamcp::mcp::testing
