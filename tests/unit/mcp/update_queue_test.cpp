// resources/updated back-pressure: a burst of changes of one uri is one
// notification, and a client that does not read (congested channel) makes the
// session hold at most max_pending_updates uris, never a growing backlog.
#include "mcp/update_queue.hpp"

#include <gtest/gtest.h>

#include "unit/mcp/mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

// A standalone channel whose client can stall.
struct StallingChannel : MemoryChannel {
  bool stalled = false;
  bool congested() const override { return stalled; }
};

ServerOptions small_options(std::size_t max_pending, std::size_t max_subscriptions = 10000) {
  ServerOptions o = Harness::default_options();
  o.max_pending_updates = max_pending;
  o.max_subscriptions = max_subscriptions;
  o.congested_retry = std::chrono::milliseconds(1);
  return o;
}

class UpdatesTest : public ::testing::Test {
 protected:
  void start(ServerOptions options) {
    h = std::make_unique<Harness>(std::move(options));
    Resource r;
    r.uri = "test://a";
    r.name = "a";
    r.reader = [](std::string uri, RequestContext&) -> asio::awaitable<json::array> {
      json::array contents;
      contents.emplace_back(text_contents(uri, "a"));
      co_return contents;
    };
    h->server.registry().add_resource(std::move(r));
    h->session->set_standalone_channel(channel);
    h->initialize();
  }
  json::object subscribe(const std::string& uri) {
    return h->request(R"({"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":")" + uri + R"("}})");
  }
  std::size_t updates_for(const std::string& uri) const {
    std::size_t n = 0;
    for (const auto& m : channel->with_method("notifications/resources/updated"))
      if (m.at("params").at("uri").as_string() == uri) ++n;
    return n;
  }
  std::size_t updates() const { return channel->with_method("notifications/resources/updated").size(); }

  std::shared_ptr<StallingChannel> channel = std::make_shared<StallingChannel>();
  std::unique_ptr<Harness> h;
};

TEST(UpdateQueue, CoalescesPerUriAndDropsBeyondTheBound) {
  UpdateQueue q(2);
  EXPECT_EQ(q.mark("a"), UpdateQueue::Mark::queued);
  EXPECT_EQ(q.mark("a"), UpdateQueue::Mark::coalesced);
  EXPECT_EQ(q.mark("b"), UpdateQueue::Mark::queued);
  EXPECT_EQ(q.mark("c"), UpdateQueue::Mark::dropped);
  EXPECT_EQ(q.size(), 2u);
  q.forget("a");
  EXPECT_EQ(q.take(10), std::vector<std::string>{"b"});
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.coalesced(), 1u);
  EXPECT_EQ(q.dropped(), 1u);
}

TEST(UpdateQueue, CongestedRetriesBackOffButStayBounded) {
  using std::chrono::milliseconds;
  const ServerOptions defaults;
  EXPECT_EQ(congested_delay(defaults.congested_retry, defaults.congested_retry_max, 0), milliseconds(20));
  EXPECT_EQ(congested_delay(defaults.congested_retry, defaults.congested_retry_max, 1), milliseconds(40));
  // However long a client was congested, once it reads again its updates wait
  // at most the cap (it used to be 20 ms doubled six times: 1.28 s).
  for (unsigned retries : {3U, 6U, 10U, 40U, 1000U})
    EXPECT_EQ(congested_delay(defaults.congested_retry, defaults.congested_retry_max, retries), milliseconds(100));
  EXPECT_LE(defaults.congested_retry_max, milliseconds(100));
  EXPECT_EQ(congested_delay(milliseconds(0), milliseconds(0), 5), milliseconds(1));  // never a busy loop
}

TEST_F(UpdatesTest, ABurstOfOneUriIsOneNotification) {
  start(small_options(100));
  subscribe("test://a");
  for (int i = 0; i < 100; ++i) h->server.notify_resource_updated("test://a");
  h->poll();
  EXPECT_EQ(updates_for("test://a"), 1u);
  EXPECT_EQ(h->session->pending_updates().coalesced(), 99u);
  // A later change is a new notification.
  h->server.notify_resource_updated("test://a");
  h->poll();
  EXPECT_EQ(updates_for("test://a"), 2u);
}

TEST_F(UpdatesTest, UnsubscribedUrisAreNotNotified) {
  start(small_options(100));
  subscribe("test://a");
  h->server.notify_resource_updated("test://other");
  h->request(R"({"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"test://a"}})");
  h->server.notify_resource_updated("test://a");
  h->poll();
  EXPECT_EQ(updates(), 0u);
}

TEST_F(UpdatesTest, AStalledClientHoldsAtMostTheBoundThenCatchesUp) {
  start(small_options(10));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(error_code_of(subscribe("test://e" + std::to_string(i))), 0);
  // The pending bound caps the subscriptions too, so it can never overflow.
  EXPECT_EQ(error_code_of(subscribe("test://e10")), -32602);
  channel->stalled = true;
  for (int burst = 0; burst < 100; ++burst)
    for (int i = 0; i < 11; ++i) h->server.notify_resource_updated("test://e" + std::to_string(i));
  h->run_for(std::chrono::milliseconds(20));
  EXPECT_EQ(updates(), 0u);  // nothing piles up in the channel while the client does not read
  EXPECT_EQ(h->session->pending_updates().size(), 10u);
  EXPECT_EQ(h->session->pending_updates().coalesced(), 10u * 99u);
  EXPECT_EQ(h->session->pending_updates().dropped(), 0u);
  channel->stalled = false;
  ASSERT_TRUE(h->run_until([&] { return updates() == 10; }));
  h->run_for(std::chrono::milliseconds(5));
  EXPECT_EQ(updates(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(updates_for("test://e" + std::to_string(i)), 1u);
  EXPECT_TRUE(h->session->pending_updates().empty());
}

TEST_F(UpdatesTest, SubscriptionsPerSessionAreBounded) {
  start(small_options(10, 3));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(error_code_of(subscribe("test://s" + std::to_string(i))), 0);
  EXPECT_EQ(error_code_of(subscribe("test://s1")), 0);  // already watched: fine
  const json::object refused = subscribe("test://s3");
  EXPECT_EQ(error_code_of(refused), -32602);
  EXPECT_NE(json::serialize(refused).find("limit"), std::string::npos);
}

}  // namespace
}  // namespace hamcp::mcp::testing
