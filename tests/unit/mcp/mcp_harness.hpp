#pragma once
// In-memory test harness for the MCP core: a Channel that records what the
// server sends, and a Session driven on a single-threaded io_context.

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <memory>
#include <string>
#include <vector>

#include "mcp/errors.hpp"
#include "mcp/server.hpp"

namespace hamcp::mcp::testing {

struct MemoryChannel : Channel {
  std::vector<json::value> sent;
  int closed = 0;
  bool open = true;
  void send(json::value message) override { sent.push_back(std::move(message)); }
  void close() override { ++closed; }
  bool is_open() const override { return open; }

  // Messages that are responses (have "result" or "error").
  std::vector<json::object> responses() const {
    std::vector<json::object> out;
    for (const auto& m : sent)
      if (m.is_object() && (m.as_object().contains("result") || m.as_object().contains("error")))
        out.push_back(m.as_object());
    return out;
  }
  std::vector<json::object> with_method(std::string_view method) const {
    std::vector<json::object> out;
    for (const auto& m : sent)
      if (m.is_object()) {
        const json::value* mm = m.as_object().if_contains("method");
        if (mm && mm->is_string() && mm->get_string() == method) out.push_back(m.as_object());
      }
    return out;
  }
};

inline json::object obj(std::string_view text) { return json::parse(text).as_object(); }

class Harness {
 public:
  explicit Harness(ServerOptions options = default_options())
      : server(io.get_executor(), std::move(options)), session(server.create_session()) {
    session->set_standalone_channel(standalone);
  }

  static ServerOptions default_options() {
    ServerOptions o;
    o.version = "test";
    o.instructions = "test instructions";
    return o;
  }

  // Deliver raw JSON text on a fresh channel and run every ready handler.
  std::shared_ptr<MemoryChannel> send(std::string_view text) {
    auto channel = std::make_shared<MemoryChannel>();
    session->deliver(json::parse(text), channel);
    poll();
    return channel;
  }

  // The single response to a request sent as text (fails the test otherwise).
  json::object request(std::string_view text) {
    auto channel = send(text);
    auto responses = channel->responses();
    EXPECT_EQ(responses.size(), 1u) << text;
    EXPECT_EQ(channel->closed, 1);
    return responses.empty() ? json::object() : responses.front();
  }

  json::object initialize(std::string_view version = "2025-11-25", std::string_view capabilities = "{}") {
    std::string text = R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":")" +
                       std::string(version) + R"(","capabilities":)" + std::string(capabilities) +
                       R"(,"clientInfo":{"name":"test-client","version":"1"}}})";
    json::object response = request(text);
    send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    return response;
  }

  void poll() {
    io.restart();
    io.poll();
  }
  void run_for(std::chrono::milliseconds d) {
    io.restart();
    io.run_for(d);
  }
  // Run until `done()` or the time budget runs out.
  template <class Pred>
  bool run_until(Pred done, std::chrono::milliseconds budget = std::chrono::milliseconds(3000)) {
    auto deadline = std::chrono::steady_clock::now() + budget;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      io.restart();
      io.run_for(std::chrono::milliseconds(5));
    }
    return done();
  }

  boost::asio::io_context io{1};
  Server server;
  std::shared_ptr<MemoryChannel> standalone = std::make_shared<MemoryChannel>();
  std::shared_ptr<Session> session;
};

inline int error_code_of(const json::object& response) {
  const json::value* e = response.if_contains("error");
  if (!e) return 0;
  return static_cast<int>(e->as_object().at("code").as_int64());
}

inline std::string text_of(const json::object& response) {
  const auto& content = response.at("result").as_object().at("content").as_array();
  std::string out;
  for (const auto& block : content)
    if (block.as_object().at("type").as_string() == "text")
      out += std::string(block.as_object().at("text").as_string());
  return out;
}

inline bool is_error_result(const json::object& response) {
  const auto& result = response.at("result").as_object();
  const json::value* e = result.if_contains("isError");
  return e && e->as_bool();
}

// A tool that sleeps `ms` milliseconds (cancellable), for concurrency tests.
inline asio::awaitable<void> sleep_for(std::chrono::milliseconds d) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(d);
  co_await timer.async_wait(asio::use_awaitable);
}

inline Tool simple_tool(std::string name, ToolHandler handler, std::string_view schema = R"({"type":"object"})") {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool " + t.name;
  t.input_schema = obj(schema);
  t.handler = std::move(handler);
  return t;
}

}  // namespace hamcp::mcp::testing
