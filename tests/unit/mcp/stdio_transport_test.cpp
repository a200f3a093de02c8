// The stdio transport over real pipes: framing, malformed and oversize lines,
// concurrency, EOF handling and stop().
#include "mcp/stdio_transport.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "mcp_harness.hpp"

namespace hamcp::mcp::testing {
namespace {

using std::chrono::milliseconds;

// Runs a StdioTransport on pipes: the test plays the client.
class StdioRig {
 public:
  explicit StdioRig(StdioOptions options = {}) {
    EXPECT_EQ(::pipe(to_server_), 0);
    EXPECT_EQ(::pipe(from_server_), 0);
    options.input_fd = to_server_[0];
    options.output_fd = from_server_[1];
    ServerOptions server_options;
    server_options.version = "test";
    server = std::make_unique<Server>(io.get_executor(), server_options);
    options_ = options;
  }
  ~StdioRig() {
    for (int fd : {to_server_[0], to_server_[1], from_server_[0], from_server_[1]})
      if (fd >= 0) ::close(fd);
  }

  void start() {
    transport = std::make_unique<StdioTransport>(*server, options_);
    // The transport holds its own dups; drop ours so EOF propagates.
    ::close(to_server_[0]);
    to_server_[0] = -1;
    ::close(from_server_[1]);
    from_server_[1] = -1;
    asio::co_spawn(io, transport->run(), [this](std::exception_ptr e) {
      finished = true;
      error = e;
    });
  }

  void write(std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(to_server_[1], bytes.data() + done, bytes.size() - done);
      ASSERT_GT(n, 0);
      done += static_cast<std::size_t>(n);
    }
  }
  void close_input() {
    ::close(to_server_[1]);
    to_server_[1] = -1;
  }

  bool run_until_finished(milliseconds budget = milliseconds(5000)) {
    auto deadline = std::chrono::steady_clock::now() + budget;
    while (!finished && std::chrono::steady_clock::now() < deadline) {
      io.restart();
      io.run_for(milliseconds(5));
    }
    return finished;
  }

  // Everything the server wrote, one parsed message per line.
  std::vector<json::value> output() {
    std::string all;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(from_server_[0], buf, sizeof buf)) > 0) all.append(buf, static_cast<std::size_t>(n));
    std::vector<json::value> out;
    std::size_t start = 0;
    while (start < all.size()) {
      std::size_t nl = all.find('\n', start);
      EXPECT_NE(nl, std::string::npos) << "output must be newline-terminated";
      if (nl == std::string::npos) break;
      out.push_back(json::parse(std::string_view(all).substr(start, nl - start)));  // throws if not JSON
      start = nl + 1;
    }
    return out;
  }

  asio::io_context io{1};
  std::unique_ptr<Server> server;
  std::unique_ptr<StdioTransport> transport;
  bool finished = false;
  std::exception_ptr error;

 private:
  int to_server_[2] = {-1, -1};
  int from_server_[2] = {-1, -1};
  StdioOptions options_;
};

constexpr const char* kInit =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
    "\n"
    R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
    "\n";

void add_tools(Server& server) {
  server.registry().add_tool(simple_tool("echo", [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
    co_return ToolResult::text(args.contains("text") ? args.at("text").as_string() : "");
  }));
  server.registry().add_tool(simple_tool(
      "sleep",
      [](json::object args, RequestContext&) -> asio::awaitable<ToolResult> {
        co_await sleep_for(milliseconds(args.at("ms").as_int64()));
        co_return ToolResult::text("slept");
      },
      R"({"type":"object","properties":{"ms":{"type":"integer"}},"required":["ms"]})"));
}

json::value by_id(const std::vector<json::value>& out, std::int64_t id) {
  for (const auto& m : out)
    if (m.is_object() && m.as_object().contains("id") && m.as_object().at("id").is_int64() &&
        m.as_object().at("id").as_int64() == id)
      return m;
  return nullptr;
}

TEST(StdioTransport, ServesNewlineDelimitedJsonAndSurvivesBadLines) {
  StdioOptions options;
  options.max_line_bytes = 1024;
  StdioRig rig(options);
  add_tools(*rig.server);
  rig.start();
  rig.write(kInit);
  rig.write("this is not json\n");
  rig.write("\n   \r\n");  // blank lines are ignored
  rig.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
            "\r\n");
  rig.write(std::string(5000, 'x') + "\n");  // oversize: skipped with an error
  rig.write(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})"
            "\n");
  rig.write(R"({"jsonrpc":"2.0","id":3,"method":"ping"})");  // last line without newline
  rig.close_input();
  ASSERT_TRUE(rig.run_until_finished());
  EXPECT_FALSE(rig.error);
  auto out = rig.output();
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(by_id(out, 0).as_object().at("result").as_object().at("protocolVersion").as_string(), "2025-11-25");
  int parse_errors = 0, too_large = 0;
  for (const auto& m : out) {
    const json::object& o = m.as_object();
    if (!o.contains("error")) continue;
    EXPECT_TRUE(o.at("id").is_null());
    auto code = o.at("error").as_object().at("code").as_int64();
    if (code == error_code::parse_error) ++parse_errors;
    if (code == error_code::invalid_request) ++too_large;
  }
  EXPECT_EQ(parse_errors, 1);
  EXPECT_EQ(too_large, 1);
  EXPECT_EQ(by_id(out, 1).as_object().at("result").as_object().at("tools").as_array().size(), 2u);
  EXPECT_EQ(text_of(by_id(out, 2).as_object()), "hi");
  EXPECT_TRUE(by_id(out, 3).as_object().contains("result"));
}

TEST(StdioTransport, PingOvertakesASlowCallAndEofWaitsForIt) {
  StdioRig rig;
  add_tools(*rig.server);
  rig.start();
  rig.write(kInit);
  rig.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":150}}})"
            "\n");
  rig.write(R"({"jsonrpc":"2.0","id":2,"method":"ping"})"
            "\n");
  rig.close_input();
  ASSERT_TRUE(rig.run_until_finished());
  auto out = rig.output();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].as_object().at("id").as_int64(), 2);  // ping answered first
  EXPECT_EQ(out[2].as_object().at("id").as_int64(), 1);  // the slow call finished inside the EOF grace
  EXPECT_EQ(text_of(out[2].as_object()), "slept");
}

TEST(StdioTransport, EofCancelsWorkThatOutlivesTheGrace) {
  StdioOptions options;
  options.eof_grace = milliseconds(50);
  StdioRig rig(options);
  add_tools(*rig.server);
  rig.start();
  rig.write(kInit);
  rig.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":60000}}})"
            "\n");
  rig.close_input();
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(rig.run_until_finished());
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(2000));
  auto out = rig.output();
  ASSERT_EQ(out.size(), 1u);  // only initialize: the cancelled call is never answered
}

TEST(StdioTransport, EofEndsTheSessionsTasksToo) {
  StdioOptions options;
  options.eof_grace = milliseconds(50);
  StdioRig rig(options);
  int stopped = 0;
  Tool slow = simple_tool("slow_task", [&stopped](json::object, RequestContext&) -> asio::awaitable<ToolResult> {
    try {
      auto sleeping = sleep_for(milliseconds(60000));  // named before co_await (GCC 12)
      co_await std::move(sleeping);
    } catch (const boost::system::system_error&) {
      ++stopped;
      throw;
    }
    co_return ToolResult::text("slept");
  });
  slow.task_support = TaskSupport::optional;
  rig.server->registry().add_tool(std::move(slow));
  rig.start();
  rig.write(kInit);
  rig.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_task","arguments":{},)"
            R"("task":{}}})"
            "\n");
  rig.close_input();
  ASSERT_TRUE(rig.run_until_finished());
  // Nobody can poll the task any more: it is cancelled and forgotten, its handler stopped.
  EXPECT_EQ(rig.server->tasks().size(), 0u);
  rig.io.restart();
  rig.io.run_for(milliseconds(20));
  EXPECT_EQ(stopped, 1);
  auto out = rig.output();
  ASSERT_EQ(out.size(), 2u);  // initialize, the CreateTaskResult
  EXPECT_TRUE(by_id(out, 1).as_object().at("result").as_object().contains("task"));
}

TEST(StdioTransport, StopCancelsInFlightWorkAndReturns) {
  StdioRig rig;
  add_tools(*rig.server);
  rig.start();
  rig.write(kInit);
  rig.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":60000}}})"
            "\n");
  asio::steady_timer later(rig.io);
  later.expires_after(milliseconds(50));
  later.async_wait([&](const boost::system::error_code&) { rig.transport->stop(); });
  ASSERT_TRUE(rig.run_until_finished());
  EXPECT_TRUE(rig.transport->session()->is_shut_down());
  rig.close_input();
  auto out = rig.output();
  ASSERT_EQ(out.size(), 1u);
}

TEST(StdioTransport, ManyConcurrentRequestsAllAnswered) {
  StdioRig rig;
  add_tools(*rig.server);
  rig.start();
  rig.write(kInit);
  std::string lines;
  for (int i = 1; i <= 200; ++i)
    lines += R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
             R"(,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":20}}})"
             "\n";
  rig.write(lines);
  rig.close_input();
  ASSERT_TRUE(rig.run_until_finished());
  auto out = rig.output();
  ASSERT_EQ(out.size(), 201u);
  for (int i = 1; i <= 200; ++i) EXPECT_FALSE(by_id(out, i).is_null()) << i;
}

}  // namespace
}  // namespace hamcp::mcp::testing
