// Concurrent requests, cancellation, progress, logging and server->client
// requests (sampling/elicitation) with response routing and timeouts.
#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;

struct SlowTool {
  bool started = false;
  bool finished = false;
  bool saw_cancelled_flag = false;
  bool aborted = false;
};

void add_slow_tool(Harness& h, SlowTool& state, milliseconds duration) {
  h.server.registry().add_tool(
      simple_tool("slow", [&state, duration](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        state.started = true;
        try {
          co_await sleep_for(duration);
        } catch (const boost::system::system_error& e) {
          state.aborted = e.code() == asio::error::operation_aborted;
          state.saw_cancelled_flag = ctx.cancelled();
          throw;
        }
        state.finished = true;
        co_return ToolResult::text("done");
      }));
}

TEST(Concurrency, PingIsAnsweredWhileAToolIsBlocked) {
  Harness h;
  SlowTool slow;
  add_slow_tool(h, slow, milliseconds(60000));
  h.initialize();
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}})");
  EXPECT_TRUE(slow.started);
  auto ping = h.send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
  ASSERT_EQ(ping->responses().size(), 1u);
  EXPECT_EQ(ping->responses()[0].at("id").as_int64(), 2);
  EXPECT_TRUE(call->sent.empty());
  EXPECT_EQ(call->closed, 0);
  EXPECT_EQ(h.session->in_flight(), 1u);
  h.session->shutdown();
  h.poll();
  EXPECT_TRUE(call->sent.empty());  // shutdown cancels without answering
  EXPECT_EQ(call->closed, 1);
}

TEST(Concurrency, TwoSlowCallsRunInParallel) {
  Harness h;
  SlowTool slow;
  // Long enough that emulation (qemu) and sanitizer overhead stay far below the
  // margin between parallel (~600 ms) and sequential (>= 1200 ms).
  add_slow_tool(h, slow, milliseconds(600));
  h.initialize();
  auto start = std::chrono::steady_clock::now();
  auto a = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}})");
  auto b = h.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}})");
  ASSERT_TRUE(h.run_until([&] { return a->closed == 1 && b->closed == 1; }));
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, milliseconds(1100));  // sequential would take >= 1200 ms
  EXPECT_EQ(text_of(a->responses().at(0)), "done");
  EXPECT_EQ(text_of(b->responses().at(0)), "done");
}

TEST(Cancellation, CancelledRequestIsAbortedAndNeverAnswered) {
  Harness h;
  SlowTool slow;
  add_slow_tool(h, slow, milliseconds(60000));
  h.initialize();
  auto call = h.send(R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"slow"}})");
  ASSERT_TRUE(slow.started);
  auto note =
      h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"user"}})");
  EXPECT_TRUE(note->sent.empty());
  h.run_for(milliseconds(50));
  EXPECT_TRUE(slow.aborted);             // the awaited timer was cancelled via the signal
  EXPECT_TRUE(slow.saw_cancelled_flag);  // and ctx.cancelled() was true
  EXPECT_FALSE(slow.finished);
  EXPECT_TRUE(call->sent.empty());
  EXPECT_EQ(call->closed, 1);
  EXPECT_EQ(h.session->in_flight(), 0u);
  EXPECT_TRUE(h.standalone->sent.empty());
}

TEST(Cancellation, UnknownIdsAreIgnoredAndIdsAreTyped) {
  Harness h;
  SlowTool slow;
  add_slow_tool(h, slow, milliseconds(100));
  h.initialize();
  auto call = h.send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}})");
  // "7" (a string) is a different id from 7; 99 does not exist.
  h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}})");
  h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}})");
  h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})");
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  EXPECT_EQ(text_of(call->responses().at(0)), "done");
}

TEST(Cancellation, DuplicateInFlightIdIsRefused) {
  Harness h;
  SlowTool slow;
  add_slow_tool(h, slow, milliseconds(60000));
  h.initialize();
  h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}})");
  auto dup = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}})");
  ASSERT_EQ(dup->responses().size(), 1u);
  EXPECT_EQ(error_code_of(dup->responses()[0]), error_code::invalid_request);
  h.session->shutdown();
  h.poll();
}

TEST(Progress, SentOnlyWithTokenStrictlyIncreasingAndBeforeTheResponse) {
  Harness h;
  h.server.registry().add_tool(
      simple_tool("work", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        ctx.progress(0, 100, "start");
        co_await sleep_for(milliseconds(1));
        ctx.progress(50, 100);
        ctx.progress(50, 100);  // not increasing: dropped
        ctx.progress(30, 100);  // decreasing: dropped
        ctx.progress(100, 100, "done");
        co_return ToolResult::text("ok");
      }));
  h.initialize();
  auto ch = h.send(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","_meta":{"progressToken":"progress-test-1"}}})");
  ASSERT_TRUE(h.run_until([&] { return ch->closed == 1; }));
  ASSERT_EQ(ch->sent.size(), 4u);
  std::vector<double> values;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& n = ch->sent[i].as_object();
    ASSERT_EQ(n.at("method").as_string(), "notifications/progress");
    const auto& p = n.at("params").as_object();
    EXPECT_EQ(p.at("progressToken").as_string(), "progress-test-1");
    EXPECT_EQ(p.at("total").to_number<double>(), 100);
    values.push_back(p.at("progress").to_number<double>());
  }
  EXPECT_EQ(values, (std::vector<double>{0, 50, 100}));
  EXPECT_EQ(ch->sent[0].as_object().at("params").as_object().at("message").as_string(), "start");
  EXPECT_TRUE(ch->sent[3].as_object().contains("result"));

  // Without a token: no progress notifications at all.
  auto quiet = h.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"work"}})");
  ASSERT_TRUE(h.run_until([&] { return quiet->closed == 1; }));
  EXPECT_EQ(quiet->sent.size(), 1u);
  EXPECT_TRUE(quiet->with_method("notifications/progress").empty());
}

TEST(Progress, IntegerTokensAreEchoed) {
  Harness h;
  h.server.registry().add_tool(
      simple_tool("work", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        ctx.progress(1);
        co_return ToolResult::text("ok");
      }));
  h.initialize();
  auto ch =
      h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","_meta":{"progressToken":42}}})");
  ASSERT_TRUE(h.run_until([&] { return ch->closed == 1; }));
  auto notes = ch->with_method("notifications/progress");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].at("params").as_object().at("progressToken").as_int64(), 42);
  EXPECT_FALSE(notes[0].at("params").as_object().contains("total"));
}

void add_logging_tool(Harness& h) {
  h.server.registry().add_tool(
      simple_tool("logs", [](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        ctx.log(LogLevel::debug, "d");
        ctx.log(LogLevel::info, "i", "hamcp.test");
        ctx.log(LogLevel::warning, "w");
        ctx.log(LogLevel::emergency, "e");
        co_return ToolResult::text("ok");
      }));
}

std::vector<std::string> logged(const MemoryChannel& ch) {
  std::vector<std::string> out;
  for (const auto& n : ch.with_method("notifications/message"))
    out.emplace_back(n.at("params").as_object().at("level").as_string());
  return out;
}

TEST(Logging, SetLevelFiltersMessages) {
  Harness h;
  add_logging_tool(h);
  h.initialize();
  auto call = [&] {
    auto ch = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"logs"}})");
    h.run_until([&] { return ch->closed == 1; });
    return logged(*ch);
  };
  // default threshold: info
  EXPECT_EQ(call(), (std::vector<std::string>{"info", "warning", "emergency"}));
  auto r = h.request(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}})");
  EXPECT_TRUE(r.at("result").as_object().empty());
  EXPECT_EQ(call(), (std::vector<std::string>{"debug", "info", "warning", "emergency"}));
  h.request(R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}})");
  EXPECT_EQ(call(), (std::vector<std::string>{"emergency"}));
  EXPECT_EQ(h.session->log_level(), LogLevel::error);
}

TEST(Logging, MessageCarriesLoggerAndData) {
  Harness h;
  add_logging_tool(h);
  h.initialize();
  auto ch = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"logs"}})");
  h.run_until([&] { return ch->closed == 1; });
  auto notes = ch->with_method("notifications/message");
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes[0].at("params").as_object().at("logger").as_string(), "hamcp.test");
  EXPECT_EQ(notes[0].at("params").as_object().at("data").as_string(), "i");
}

TEST(Logging, InvalidLevelIsInvalidParams) {
  Harness h;
  h.initialize();
  for (std::string params : {R"({"level":"verbose"})", R"({"level":3})", "{}"}) {
    auto r = h.request(R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":)" + params + "}");
    EXPECT_EQ(error_code_of(r), error_code::invalid_params) << params;
  }
  EXPECT_EQ(h.session->log_level(), LogLevel::info);
  // session-level logs go to the standalone channel, filtered too
  h.session->log(LogLevel::debug, "hidden");
  h.session->log(LogLevel::error, "shown");
  EXPECT_EQ(logged(*h.standalone), (std::vector<std::string>{"error"}));
}

TEST(LogLevels, ParseAndPrintAllRfc5424Levels) {
  for (auto name : {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}) {
    auto level = parse_log_level(name);
    ASSERT_TRUE(level) << name;
    EXPECT_EQ(to_string(*level), name);
  }
  EXPECT_FALSE(parse_log_level("warn"));
  EXPECT_LT(LogLevel::debug, LogLevel::emergency);
}

// ---- server -> client requests ---------------------------------------------------

void add_asking_tool(Harness& h, milliseconds timeout) {
  h.server.registry().add_tool(
      simple_tool("ask", [timeout](json::object, RequestContext& ctx) -> asio::awaitable<ToolResult> {
        json::object params;
        params["message"] = "Your name?";
        params["requestedSchema"] = obj(R"({"type":"object","properties":{"username":{"type":"string"}}})");
        try {
          json::value answer = co_await ctx.request("elicitation/create", std::move(params), timeout);
          co_return ToolResult::text(json::serialize(answer));
        } catch (const McpError& e) {
          co_return ToolResult::error(std::to_string(e.code()) + " " + e.what());
        }
      }));
}

TEST(ClientRequests, ResponseIsRoutedBackToTheWaitingHandler) {
  Harness h;
  add_asking_tool(h, milliseconds(5000));
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
  auto asks = call->with_method("elicitation/create");
  ASSERT_EQ(asks.size(), 1u);  // sent on the request's own channel
  json::value ask_id = asks[0].at("id");
  EXPECT_EQ(asks[0].at("params").as_object().at("message").as_string(), "Your name?");
  // a response to an unknown id is ignored
  h.send(R"({"jsonrpc":"2.0","id":12345,"result":{"action":"decline"}})");
  auto answer = h.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(ask_id) +
                       R"(,"result":{"action":"accept","content":{"username":"ada"}}})");
  EXPECT_TRUE(answer->sent.empty());
  EXPECT_EQ(answer->closed, 1);
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  auto responses = call->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_FALSE(is_error_result(responses[0]));
  EXPECT_NE(text_of(responses[0]).find("\"username\":\"ada\""), std::string::npos);
}

TEST(ClientRequests, ClientErrorIsThrownAsMcpError) {
  Harness h;
  add_asking_tool(h, milliseconds(5000));
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
  auto asks = call->with_method("elicitation/create");
  ASSERT_EQ(asks.size(), 1u);
  h.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(asks[0].at("id")) +
         R"(,"error":{"code":-32600,"message":"user refused"}})");
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  EXPECT_EQ(text_of(call->responses().at(0)), "-32600 user refused");
}

TEST(ClientRequests, TimeoutFailsTheRequestAndTellsTheClient) {
  Harness h;
  add_asking_tool(h, milliseconds(30));
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  auto responses = call->responses();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_TRUE(is_error_result(responses[0]));
  EXPECT_NE(text_of(responses[0]).find(std::to_string(error_code::request_timeout)), std::string::npos);
  EXPECT_EQ(call->with_method("notifications/cancelled").size(), 1u);
}

TEST(ClientRequests, RefusedWhenTheClientLacksTheCapability) {
  Harness h;
  add_asking_tool(h, milliseconds(5000));
  h.initialize();  // no elicitation capability
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  EXPECT_TRUE(call->with_method("elicitation/create").empty());
  EXPECT_NE(text_of(call->responses().at(0)).find("elicitation"), std::string::npos);
}

TEST(ClientRequests, CancellingTheCallerCancelsTheWait) {
  Harness h;
  add_asking_tool(h, milliseconds(60000));
  h.initialize("2025-11-25", R"({"elicitation":{}})");
  auto call = h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
  h.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
  ASSERT_TRUE(h.run_until([&] { return call->closed == 1; }));
  EXPECT_TRUE(call->responses().empty());
  EXPECT_EQ(h.session->in_flight(), 0u);
}

}  // namespace
}  // namespace hamcp::mcp::testing
