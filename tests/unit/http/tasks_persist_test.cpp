// Tasks kept across a restart (TaskStore::persist_to, task_persistence.cpp):
// a new store on the same file (the next process) knows every unexpired task
// of the last one, a live one failed with "outcome unknown", a result over its
// cap failed saying so; bounded, written atomically, private; and through the
// HTTP server, a task running when the server stopped is reported failed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "http_fixture.hpp"
#include "mcp/task_store.hpp"

namespace hamcp::test {
namespace {

using mcp::TaskStatus;
using std::chrono::milliseconds;

json::object text_result(std::size_t size) {
  return json::parse(R"({"content":[{"type":"text","text":")" + std::string(size, 'x') + R"("}]})").as_object();
}

TEST(TasksPersist, ANewStoreOnTheFileKnowsTheLastOnesTasksLiveOnesFailed) {
  TempDir dir;
  const auto file = dir.path() / "tasks.json";
  auto now = std::chrono::system_clock::now();
  auto clock = [&now] { return now; };
  mcp::TaskStoreOptions options;
  options.max_kept_result_bytes = 4096;
  std::string done, running, tool_error, huge, other, expired;
  {
    mcp::TaskStore store(options, clock);
    ASSERT_TRUE(store.persist_to(file));
    expired = store.create("alice", milliseconds(1000)).id;
    store.finish(expired, text_result(10), std::nullopt);
    now += std::chrono::seconds(5);  // past its ttl: not kept
    done = store.create("alice").id;
    store.finish(done, text_result(100), std::nullopt);
    running = store.create("alice").id;
    tool_error = store.create("alice").id;
    store.finish(tool_error, text_result(10), std::nullopt, true);
    huge = store.create("alice").id;
    store.finish(huge, text_result(5000), std::nullopt);
    other = store.create("bob").id;
  }  // gone without a word, as after kill -9
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  now += std::chrono::seconds(1);
  mcp::TaskStore next(options, clock);
  ASSERT_TRUE(next.persist_to(file));
  EXPECT_EQ(next.size(), 5u);
  EXPECT_EQ(next.live(), 0u);
  EXPECT_EQ(next.find("alice", expired), nullptr);
  const mcp::TaskRecord* kept = next.find("alice", done);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->status, TaskStatus::completed);
  EXPECT_EQ(*kept->result, text_result(100));
  const mcp::TaskRecord* ran = next.find("alice", running);
  ASSERT_NE(ran, nullptr);
  EXPECT_EQ(ran->status, TaskStatus::failed);
  EXPECT_EQ(ran->status_message, mcp::kRestartedWhileRunning);
  EXPECT_EQ(ran->error->at("message").as_string(), mcp::kRestartedWhileRunning);
  const mcp::TaskRecord* failed = next.find("alice", tool_error);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->status, TaskStatus::failed);  // the tool's error, its result still there
  EXPECT_TRUE(failed->result.has_value());
  const mcp::TaskRecord* big = next.find("alice", huge);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->status, TaskStatus::failed);
  EXPECT_FALSE(big->result.has_value());
  EXPECT_EQ(next.find("alice", other), nullptr);  // still bob's
  EXPECT_NE(next.find("bob", other), nullptr);
  const auto entries = std::distance(std::filesystem::directory_iterator(dir.path()), {});
  EXPECT_EQ(entries, 1);  // tasks.json, no temp file left
}

TEST(TasksPersist, ResultsAreBoundedInAllAndAFileNotOursIsIgnored) {
  TempDir dir;
  const auto file = dir.path() / "tasks.json";
  mcp::TaskStoreOptions options;
  options.max_kept_result_bytes = 4096;
  options.max_kept_bytes = 10000;
  {
    mcp::TaskStore store(options);
    ASSERT_TRUE(store.persist_to(file));
    for (int i = 0; i < 6; ++i) store.finish(store.create("alice").id, text_result(3000), std::nullopt);
  }
  EXPECT_LT(std::filesystem::file_size(file), 10000u + 6 * 512);
  mcp::TaskStore next(options);
  ASSERT_TRUE(next.persist_to(file));
  std::size_t with_result = 0;
  for (const mcp::TaskRecord* t : next.list("alice")) with_result += t->result ? 1 : 0;
  EXPECT_EQ(with_result, 3u);  // 3 x ~3 KB fit in 10,000 bytes, the other 3 failed "not kept"
  EXPECT_EQ(next.size(), 6u);

  std::ofstream(file) << "{not json";
  mcp::TaskStore garbled(options);
  EXPECT_TRUE(garbled.persist_to(file));  // starts empty, and rewrites the file
  EXPECT_EQ(garbled.size(), 0u);
}

TEST(TasksPersist, ATaskRunningWhenTheHttpServerStoppedIsFailedAfterTheRestart) {
  TempDir dir;
  auto slow = [](mcp::Server& s) {
    mcp::Tool tool;
    tool.name = "slow_task";
    tool.description = "Sleeps a minute";
    tool.input_schema = json::parse(R"({"type":"object"})").as_object();
    tool.task_support = mcp::TaskSupport::optional;
    tool.handler = [](json::object, mcp::RequestContext&) -> mcp::asio::awaitable<mcp::ToolResult> {
      auto sleeping = sleep_for(milliseconds(60000));  // named before co_await (GCC 12)
      co_await std::move(sleeping);
      co_return mcp::ToolResult::text("slept");
    };
    s.registry().add_tool(std::move(tool));
  };
  std::string sid, id;
  {
    TestHttpServer server(dir.path(), {}, slow);
    sid = open_session(server.port());
    auto r = http_request(server.port(), "POST", "/mcp", post_headers(sid),
                          R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow_task",)"
                          R"("arguments":{},"task":{"ttl":60000}}})");
    ASSERT_EQ(r.status, 200u) << r.body;
    id = std::string(parse_object(r.body).at("result").at("task").at("taskId").as_string());
  }
  TestHttpServer again(dir.path(), {}, slow);
  auto got = http_request(again.port(), "POST", "/mcp", post_headers(sid),
                          R"({"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{"taskId":")" + id + R"("}})");
  ASSERT_EQ(got.status, 200u) << got.body;
  const auto task = parse_object(got.body).at("result").as_object();
  EXPECT_EQ(task.at("status").as_string(), "failed");
  EXPECT_EQ(task.at("statusMessage").as_string(), mcp::kRestartedWhileRunning);
}

}  // namespace
}  // namespace hamcp::test
