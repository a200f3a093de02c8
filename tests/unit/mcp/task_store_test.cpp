// TaskStore (task_store.hpp): a task's ids, owner scoping, ttl, cancellation,
// the per-owner bound and the wire shapes of both protocol eras.
#include "mcp/task_store.hpp"

#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;

// ---- the store ---------------------------------------------------------------------------

struct FakeClock {
  std::chrono::system_clock::time_point now = std::chrono::system_clock::time_point(std::chrono::hours(500000));
  TaskStore::Clock fn() {
    return [this] { return now; };
  }
};

TEST(TaskStore, IdsAreRandomAndScopedToTheirOwner) {
  TaskStore store;
  const std::string a = store.create("alice").id;
  const std::string b = store.create("alice").id;
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
  EXPECT_NE(store.find("alice", a), nullptr);
  EXPECT_EQ(store.find("bob", a), nullptr);  // another owner's task is unknown to bob
  EXPECT_EQ(store.find("alice", "0123"), nullptr);
  EXPECT_EQ(store.list("alice").size(), 2u);
  EXPECT_TRUE(store.list("bob").empty());
}

TEST(TaskStore, FinishedTasksExpireAfterTheirTtlWorkingOnesStay) {
  FakeClock clock;
  TaskStore store({}, clock.fn());
  const std::string done = store.create("o", milliseconds(5000)).id;
  const std::string running = store.create("o", milliseconds(5000)).id;
  EXPECT_TRUE(store.finish(done, json::object{{"content", json::array()}}, std::nullopt));
  clock.now += milliseconds(4999);
  EXPECT_NE(store.find("o", done), nullptr);  // never before its ttl
  clock.now += milliseconds(2);
  EXPECT_EQ(store.find("o", done), nullptr);
  EXPECT_NE(store.find("o", running), nullptr);  // still working: kept
  EXPECT_EQ(store.size(), 1u);
}

TEST(TaskStore, TtlIsClampedAndDefaulted) {
  TaskStore::Options options;
  options.default_ttl = milliseconds(60000);
  options.max_ttl = milliseconds(120000);
  TaskStore store(options);
  EXPECT_EQ(store.create("o").ttl, milliseconds(60000));
  EXPECT_EQ(store.create("o", milliseconds(999999999)).ttl, milliseconds(120000));
  EXPECT_EQ(store.create("o", milliseconds(1)).ttl, milliseconds(1000));
}

TEST(TaskStore, CancelStopsTheWorkOnceAndFinishAfterwardsChangesNothing) {
  TaskStore store;
  TaskRecord& task = store.create("o");
  int stopped = 0;
  task.stop = [&] { ++stopped; };
  EXPECT_TRUE(store.cancel(task));
  EXPECT_EQ(task.status, TaskStatus::cancelled);
  EXPECT_EQ(stopped, 1);
  EXPECT_FALSE(store.cancel(task));
  EXPECT_FALSE(store.finish(task.id, json::object(), std::nullopt));
  EXPECT_EQ(task.status, TaskStatus::cancelled);
  EXPECT_FALSE(task.result);
}

TEST(TaskStore, LiveTasksAreBoundedPerOwner) {
  TaskStore::Options options;
  options.max_per_owner = 2;
  TaskStore store(options);
  const std::string first = store.create("o").id;
  store.create("o");
  EXPECT_THROW(store.create("o"), McpError);
  store.create("other");  // another owner has its own bound
  store.finish(first, json::object(), std::nullopt);
  EXPECT_NO_THROW(store.create("o"));  // a finished task no longer counts
}

TEST(TaskStore, WireShapesOfBothEras) {
  TaskStore store;
  TaskRecord& task = store.create("o", milliseconds(5000));
  json::object v1 = task_json(task, store.options(), false, true);
  EXPECT_EQ(v1.at("status").as_string(), "working");
  EXPECT_EQ(v1.at("ttl").as_int64(), 5000);
  EXPECT_TRUE(v1.contains("pollInterval"));
  EXPECT_TRUE(v1.contains("createdAt"));
  EXPECT_TRUE(v1.contains("lastUpdatedAt"));
  store.finish(task.id, json::object{{"content", json::array{json::object{{"type", "text"}, {"text", "x"}}}}},
               std::nullopt);
  json::object v2 = task_json(task, store.options(), true, true);
  EXPECT_EQ(v2.at("ttlMs").as_int64(), 5000);
  EXPECT_FALSE(v2.contains("ttl"));
  EXPECT_FALSE(v2.contains("pollIntervalMs"));  // finished: nothing left to poll for
  EXPECT_EQ(v2.at("status").as_string(), "completed");
  EXPECT_TRUE(v2.at("result").as_object().contains("content"));
  EXPECT_FALSE(task_json(task, store.options(), true, false).contains("result"));
}
}  // namespace
}  // namespace hamcp::mcp::testing
