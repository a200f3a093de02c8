// 2025-11-25 tasks over Streamable HTTP and the end of their session: DELETE or
// an expired id cancels the session's running tasks and frees their entries
// (nobody can poll them again); an ordinary request's end does not.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "http_fixture.hpp"
#include "mcp/errors.hpp"
#include "mcp/task_store.hpp"

namespace hamcp::test {
namespace {

using std::chrono::milliseconds;

// slow_task: sleeps 60 s unless cancelled (counted).
void register_slow_task(mcp::Server& server, std::shared_ptr<std::atomic<int>> cancelled) {
  mcp::Tool tool;
  tool.name = "slow_task";
  tool.description = "Sleeps a minute";
  tool.input_schema = json::parse(R"({"type":"object"})").as_object();
  tool.task_support = mcp::TaskSupport::optional;
  tool.handler = [cancelled](json::object, mcp::RequestContext&) -> mcp::asio::awaitable<mcp::ToolResult> {
    try {
      auto sleeping = sleep_for(milliseconds(60000));  // named before co_await (GCC 12)
      co_await std::move(sleeping);
    } catch (const boost::system::system_error&) {
      ++*cancelled;
      throw;
    }
    co_return mcp::ToolResult::text("slept");
  };
  server.registry().add_tool(std::move(tool));
}

// The store's {entries, live tasks}, read on the server's thread.
std::pair<std::size_t, std::size_t> task_counts(TestHttpServer& server) {
  std::promise<std::pair<std::size_t, std::size_t>> counted;
  server.on_server([&](mcp::Server& s) { counted.set_value({s.tasks().size(), s.tasks().live()}); });
  return counted.get_future().get();
}

bool wait_for(const std::function<bool()>& done, milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(milliseconds(20));
  return done();
}

std::string start_task(std::uint16_t port, const std::string& sid) {
  auto r = http_request(port, "POST", "/mcp", post_headers(sid),
                        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow_task",)"
                        R"("arguments":{},"task":{"ttl":60000}}})");
  EXPECT_EQ(r.status, 200u) << r.body;
  auto body = parse_object(r.body);
  if (!body.contains("result")) return {};
  return std::string(body.at("result").at("task").at("taskId").as_string());
}

TEST(TasksHttp, DeleteCancelsTheSessionsTasksAndFreesThem) {
  TempDir dir;
  auto cancelled = std::make_shared<std::atomic<int>>(0);
  TestHttpServer server(dir.path(), {}, [&](mcp::Server& s) { register_slow_task(s, cancelled); });
  const std::string sid = open_session(server.port());
  const std::string other = open_session(server.port());
  ASSERT_FALSE(start_task(server.port(), sid).empty());
  ASSERT_FALSE(start_task(server.port(), sid).empty());
  ASSERT_FALSE(start_task(server.port(), other).empty());
  EXPECT_EQ(task_counts(server), std::make_pair(std::size_t{3}, std::size_t{3}));  // requests ended, tasks run on

  EXPECT_EQ(http_request(server.port(), "DELETE", "/mcp", {{"Mcp-Session-Id", sid}}).status, 200u);
  ASSERT_TRUE(wait_for([&] { return task_counts(server).first == 1; }, milliseconds(3000)));
  EXPECT_TRUE(wait_for([&] { return cancelled->load() == 2; }, milliseconds(3000)));
  EXPECT_EQ(task_counts(server).second, 1u);  // the other session's task still runs
}

TEST(TasksHttp, AnExpiredIdEndsItsTasks) {
  TempDir dir;
  auto cancelled = std::make_shared<std::atomic<int>>(0);
  TestHttpServer server(
      dir.path(),
      [](mcp::http::HttpServerOptions& o) {
        o.sessions.idle_expiry = std::chrono::seconds(1);
        o.sweep_interval = std::chrono::seconds(1);
      },
      [&](mcp::Server& s) { register_slow_task(s, cancelled); });
  const std::string sid = open_session(server.port());
  ASSERT_FALSE(start_task(server.port(), sid).empty());
  EXPECT_EQ(task_counts(server).second, 1u);
  // Unused for longer than the expiry: the sweep finds the id expired.
  ASSERT_TRUE(wait_for([&] { return task_counts(server).first == 0; }, milliseconds(6000)));
  EXPECT_TRUE(wait_for([&] { return cancelled->load() == 1; }, milliseconds(3000)));
  EXPECT_EQ(http_request(server.port(), "POST", "/mcp", post_headers(sid), list_body(3)).status, 404u);
}

// An owner ending in kEachTaskItsOwnOwner: each task is reachable by its own id
// only, never listed, and all of them share the per-owner bound.
TEST(TasksHttp, EachTaskItsOwnOwnerIsReachedByIdOnlyAndBounded) {
  mcp::TaskStoreOptions options;
  options.max_per_owner = 2;
  mcp::TaskStore store(options);
  const std::string shared = "2025||" + std::string(mcp::kEachTaskItsOwnOwner);
  const std::string a = store.create(shared).id;
  const std::string b = store.create(shared).id;
  EXPECT_NE(store.find(shared, a), nullptr);
  EXPECT_NE(store.find(shared, b), nullptr);
  EXPECT_EQ(store.find("2025||", a), nullptr);
  EXPECT_TRUE(store.list(shared).empty());
  EXPECT_THROW(store.create(shared), mcp::McpError);
}

// Stateless HTTP with one bearer token: two callers cannot be told apart, so
// neither may list the other's tasks; a task is reached by its unguessable id only.
TEST(TasksHttp, StatelessCallersSharingATokenDoNotSeeEachOthersTasks) {
  TempDir dir;
  auto cancelled = std::make_shared<std::atomic<int>>(0);
  TestHttpServer server(
      dir.path(),
      [](mcp::http::HttpServerOptions& o) {
        o.stateless = true;
        o.auth_token = "shared-secret-token";
      },
      [&](mcp::Server& s) { register_slow_task(s, cancelled); });
  HeaderList headers = post_headers({});
  headers.emplace_back("Authorization", "Bearer shared-secret-token");
  auto post = [&](const std::string& body) { return http_request(server.port(), "POST", "/mcp", headers, body); };
  auto created = post(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_task",)"
                      R"("arguments":{},"task":{"ttl":60000}}})");
  ASSERT_EQ(created.status, 200u) << created.body;
  const std::string id(parse_object(created.body).at("result").at("task").at("taskId").as_string());
  auto listed = post(R"({"jsonrpc":"2.0","id":2,"method":"tasks/list","params":{}})");
  ASSERT_EQ(listed.status, 200u) << listed.body;
  EXPECT_TRUE(parse_object(listed.body).at("result").at("tasks").as_array().empty()) << listed.body;
  auto got = post(R"({"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":")" + id + R"("}})");
  EXPECT_EQ(parse_object(got.body).at("result").at("status").as_string(), "working") << got.body;
  auto guessed = post(R"({"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"0123"}})");
  EXPECT_EQ(parse_object(guessed.body).at("error").at("code").as_int64(), -32602);
  auto cancel = post(R"({"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":")" + id + R"("}})");
  EXPECT_EQ(parse_object(cancel.body).at("result").at("status").as_string(), "cancelled") << cancel.body;
  EXPECT_TRUE(wait_for([&] { return cancelled->load() == 1; }, milliseconds(3000)));
}

}  // namespace
}  // namespace hamcp::test
