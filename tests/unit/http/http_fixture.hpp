#pragma once
// A real hamcp HTTP server on 127.0.0.1, port 0, for the transport tests: an
// mcp::Server with a few test tools, an HttpServer on its own io thread, and a
// private data dir (so restarts and several instances can share it).

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "http_client.hpp"
#include "mcp/http/http_server.hpp"
#include "mcp/server.hpp"

namespace hamcp::test {

namespace mcp = hamcp::mcp;
namespace json = boost::json;

// A fresh directory under /tmp, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("hamcp-http-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
    // Private whatever the umask: hamcp refuses a group/world-writable data dir.
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline mcp::asio::awaitable<void> sleep_for(std::chrono::milliseconds ms) {
  mcp::asio::steady_timer t(co_await mcp::asio::this_coro::executor, ms);
  co_await t.async_wait(mcp::asio::use_awaitable);
}

// A tool with just a name, description, input schema and handler.
inline mcp::Tool fixture_tool(std::string name, std::string description, json::object input_schema,
                              mcp::ToolHandler handler) {
  mcp::Tool tool;
  tool.name = std::move(name);
  tool.description = std::move(description);
  tool.input_schema = std::move(input_schema);
  tool.handler = std::move(handler);
  return tool;
}

inline void register_test_tools(mcp::Server& server) {
  auto& reg = server.registry();
  json::object text_schema = json::parse(R"({"type":"object","properties":{"text":{"type":"string"}}})").as_object();
  reg.add_tool(fixture_tool("echo", "Returns its text", text_schema,
                            [](json::object args, mcp::RequestContext&) -> mcp::asio::awaitable<mcp::ToolResult> {
                              std::string text;
                              if (auto* t = args.if_contains("text"); t && t->is_string())
                                text = std::string(t->as_string());
                              co_return mcp::ToolResult::text(text);
                            }));
  // What the session knows about its client: proves a rebuilt session kept it.
  reg.add_tool(fixture_tool("whoami", "Describes the session", json::parse(R"({"type":"object"})").as_object(),
                            [](json::object, mcp::RequestContext& ctx) -> mcp::asio::awaitable<mcp::ToolResult> {
                              json::object o;
                              o["protocolVersion"] = ctx.session().protocol_version;
                              o["capabilities"] = ctx.session().client_capabilities;
                              o["clientInfo"] = ctx.session().client_info;
                              o["readOnly"] = ctx.session().read_only;
                              co_return mcp::ToolResult::structured(std::move(o));
                            }));
  json::object wait_schema =
      json::parse(R"({"type":"object","properties":{"ms":{"type":"integer"},"notes":{"type":"integer"}}})").as_object();
  // Sends `notes` log notifications (warning passes the default level) `ms`
  // apart, then answers "done": a request whose answer must be SSE.
  reg.add_tool(fixture_tool("wait", "Waits, optionally logging on the way", wait_schema,
                            [](json::object args, mcp::RequestContext& ctx) -> mcp::asio::awaitable<mcp::ToolResult> {
                              std::int64_t ms = 0, notes = 0;
                              if (auto* v = args.if_contains("ms"); v && v->is_int64()) ms = v->as_int64();
                              if (auto* v = args.if_contains("notes"); v && v->is_int64()) notes = v->as_int64();
                              for (std::int64_t i = 0; i < notes; ++i) {
                                ctx.log(mcp::LogLevel::warning, json::value("note " + std::to_string(i)));
                                co_await sleep_for(std::chrono::milliseconds(ms));
                              }
                              if (notes == 0) co_await sleep_for(std::chrono::milliseconds(ms));
                              co_return mcp::ToolResult::text("done");
                            }));
}

class TestHttpServer {
 public:
  using Customize = std::function<void(mcp::http::HttpServerOptions&)>;

  // `setup`: more registrations on the mcp::Server before it serves (resources...).
  explicit TestHttpServer(const std::filesystem::path& data_dir, const Customize& customize = {},
                          const std::function<void(mcp::Server&)>& setup = {}) {
    if (std::getenv("HTTP_TEST_DEBUG")) spdlog::set_level(spdlog::level::debug);
    mcp::ServerOptions so;
    so.version = "test";
    server_ = std::make_unique<mcp::Server>(io_->get_executor(), so);
    register_test_tools(*server_);
    if (setup) setup(*server_);
    mcp::http::HttpServerOptions options;
    options.listener.host = "127.0.0.1";
    options.listener.port = 0;
    options.listener.one_thread = true;  // as hamcp runs it: one thread runs io_ (below)
    options.data_dir = data_dir;
    if (customize) customize(options);
    http_ = std::make_unique<mcp::http::HttpServer>(*server_, io_->get_executor(), options);
    port_ = http_->start();
    thread_ = std::thread([this] { io_->run(); });
  }

  ~TestHttpServer() { stop(); }

  void stop() {
    if (!thread_.joinable()) return;
    http_->stop(std::chrono::milliseconds(0));
    io_->stop();
    thread_.join();
    server_->shutdown();
    http_.reset();
    io_.reset();  // destroys pending coroutine frames while the Server still exists
    server_.reset();
  }

  std::uint16_t port() const { return port_; }
  // Runs `f` on the server's thread (the only place mcp::Server may be used).
  void on_server(std::function<void(mcp::Server&)> f) {
    mcp::asio::post(io_->get_executor(), [this, f = std::move(f)] { f(*server_); });
  }
  mcp::http::HttpServer& http() { return *http_; }

 private:
  std::unique_ptr<mcp::asio::io_context> io_ = std::make_unique<mcp::asio::io_context>(1);
  std::unique_ptr<mcp::Server> server_;
  std::unique_ptr<mcp::http::HttpServer> http_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

// ---- request helpers ------------------------------------------------------------

inline HeaderList post_headers(const std::string& session_id = {}, const std::string& version = "2025-11-25") {
  HeaderList h{{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  if (!session_id.empty()) h.emplace_back("Mcp-Session-Id", session_id);
  if (!version.empty()) h.emplace_back("MCP-Protocol-Version", version);
  return h;
}

inline std::string init_body(const std::string& version = "2025-11-25", const std::string& capabilities = "{}") {
  return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" + version +
         R"(","capabilities":)" + capabilities + R"(,"clientInfo":{"name":"http-test","version":"1.0"}}})";
}

inline std::string call_body(int id, const std::string& tool, const std::string& args) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" + tool +
         R"(","arguments":)" + args + "}}";
}

inline std::string list_body(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/list"})";
}

inline const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

// initialize + notifications/initialized; returns the session id ("" on failure).
inline std::string open_session(std::uint16_t port, const std::string& capabilities = "{}",
                                const std::string& path = "/mcp") {
  auto r = http_request(port, "POST", path, post_headers({}, {}), init_body("2025-11-25", capabilities));
  EXPECT_EQ(r.status, 200u) << r.body;
  const std::string sid = r.header("mcp-session-id");
  EXPECT_FALSE(sid.empty());
  auto n = http_request(port, "POST", path, post_headers(sid), kInitialized);
  EXPECT_EQ(n.status, 202u) << n.body;
  return sid;
}

inline json::object parse_object(const std::string& text) {
  boost::system::error_code ec;
  auto v = json::parse(text, ec);
  if (ec || !v.is_object()) {
    ADD_FAILURE() << "not a JSON object: " << text;
    return {};
  }
  return v.as_object();
}

}  // namespace hamcp::test
