// A call that never suspends is answered inside Session::deliver when the
// transport delivers from the server's executor (as HTTP does): the answer is
// on the channel before deliver returns, so the transport needs no wake-up
// (session_calls.cpp). Calls that suspend, batches and cancellation keep their
// answers as before.
#include <boost/asio/post.hpp>

#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;

void add_instant_tool(Harness& h) {
  h.server.registry().add_tool(simple_tool("instant", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    co_return ToolResult::text("now");
  }));
}

void add_sleepy_tool(Harness& h) {
  h.server.registry().add_tool(simple_tool("sleepy", [](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    co_await sleep_for(milliseconds(20));
    co_return ToolResult::text("later");
  }));
}

// Delivers `text` from a handler on the server's executor and returns what the
// channel held when deliver returned (before any other handler ran).
struct Delivery {
  std::shared_ptr<MemoryChannel> channel = std::make_shared<MemoryChannel>();
  std::size_t sent_on_return = 0;
  int closed_on_return = 0;
};

Delivery deliver_on_executor(Harness& h, std::string_view text) {
  Delivery d;
  asio::post(h.io, [&h, &d, message = json::parse(text)]() mutable {
    h.session->deliver(std::move(message), d.channel);
    d.sent_on_return = d.channel->sent.size();
    d.closed_on_return = d.channel->closed;
  });
  h.poll();
  return d;
}

TEST(InlineAnswer, ACallThatNeverSuspendsIsAnsweredBeforeDeliverReturns) {
  Harness h;
  add_instant_tool(h);
  h.initialize();
  h.poll();  // the turn of the initialize exchange is over
  auto d = deliver_on_executor(h, R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"instant"}})");
  EXPECT_EQ(d.sent_on_return, 1u);
  EXPECT_EQ(d.closed_on_return, 1);
  ASSERT_EQ(d.channel->responses().size(), 1u);
  EXPECT_EQ(d.channel->responses()[0].at("id").as_int64(), 7);
  EXPECT_EQ(text_of(d.channel->responses()[0]), "now");
  EXPECT_EQ(d.channel->closed, 1);  // closed once, not again by co_spawn's completion
  EXPECT_EQ(h.session->in_flight(), 0u);
}

TEST(InlineAnswer, ACallThatSuspendsIsAnsweredLaterOnce) {
  Harness h;
  add_sleepy_tool(h);
  h.initialize();
  auto d = deliver_on_executor(h, R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"sleepy"}})");
  EXPECT_EQ(d.sent_on_return, 0u);
  EXPECT_EQ(d.closed_on_return, 0);
  EXPECT_EQ(h.session->in_flight(), 1u);
  ASSERT_TRUE(h.run_until([&] { return d.channel->closed == 1; }));
  h.run_for(milliseconds(10));
  ASSERT_EQ(d.channel->responses().size(), 1u);
  EXPECT_EQ(text_of(d.channel->responses()[0]), "later");
  EXPECT_EQ(d.channel->closed, 1);
  EXPECT_EQ(h.session->in_flight(), 0u);
}

TEST(InlineAnswer, ABatchWhoseFirstCallAnswersAtOnceIsAnsweredWhole) {
  Harness h;
  add_instant_tool(h);
  add_sleepy_tool(h);
  h.initialize();
  h.poll();
  auto d = deliver_on_executor(h, R"([
    {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"instant"}},
    {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleepy"}},
    {"jsonrpc":"2.0","id":3,"method":"ping"},
    {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"instant"}}
  ])");
  EXPECT_EQ(d.sent_on_return, 0u);  // the sleepy call is still running
  ASSERT_TRUE(h.run_until([&] { return d.channel->closed == 1; }));
  h.run_for(milliseconds(10));
  ASSERT_EQ(d.channel->sent.size(), 1u);
  ASSERT_TRUE(d.channel->sent[0].is_array());
  std::map<std::int64_t, json::object> by_id;
  for (const auto& r : d.channel->sent[0].as_array()) by_id[r.as_object().at("id").as_int64()] = r.as_object();
  ASSERT_EQ(by_id.size(), 4u);
  EXPECT_EQ(text_of(by_id[1]), "now");
  EXPECT_EQ(text_of(by_id[2]), "later");
  EXPECT_TRUE(by_id[3].contains("result"));
  EXPECT_EQ(text_of(by_id[4]), "now");
  EXPECT_EQ(d.channel->closed, 1);
}

TEST(InlineAnswer, ABatchOfCallsThatNeverSuspendIsAnsweredOnce) {
  Harness h;
  add_instant_tool(h);
  h.initialize();
  h.poll();
  auto d = deliver_on_executor(h, R"([
    {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"instant"}},
    {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"instant"}}
  ])");
  ASSERT_TRUE(h.run_until([&] { return d.channel->closed == 1; }));
  h.run_for(milliseconds(10));
  ASSERT_EQ(d.channel->sent.size(), 1u);
  ASSERT_TRUE(d.channel->sent[0].is_array());
  EXPECT_EQ(d.channel->sent[0].as_array().size(), 2u);
  EXPECT_EQ(d.channel->closed, 1);
  EXPECT_EQ(h.session->in_flight(), 0u);
}

}  // namespace
}  // namespace hamcp::mcp::testing
