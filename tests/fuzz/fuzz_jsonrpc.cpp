// libFuzzer target: one JSON-RPC message (any bytes) delivered to an MCP Session.
//
// The server carries the conformance fixtures (tools with schemas, resources, a template,
// prompts, completion), so fuzzed tools/call, resources/read, prompts/get and completion/complete
// reach real handlers. The first input byte picks the session's state: fresh (before
// initialize) or initialized, so both dispatch paths are explored.
//
// Oracles besides the sanitizers (ASan, UBSan, libFuzzer's leak check):
//   - every deliver() closes its reply channel exactly once (the Channel contract);
//   - everything the session sends is a JSON-RPC 2.0 object, or an array of them (batch);
//   - the same Session still answers a ping afterwards (bad input never kills a session).
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "conformance/fixtures.hpp"
#include "mcp/channel.hpp"
#include "mcp/server.hpp"
#include "mcp/session.hpp"

namespace {

using namespace hamcp;
namespace json = mcp::json;

[[noreturn]] void fail(const char* what, const json::value& message) {
  std::fprintf(stderr, "fuzz_jsonrpc oracle failed: %s\nmessage: %s\n", what, json::serialize(message).c_str());
  std::abort();
}

void check_jsonrpc(const json::value& message) {
  if (message.is_array()) {
    for (const auto& m : message.as_array()) check_jsonrpc(m);
    return;
  }
  if (!message.is_object()) fail("sent something that is not an object", message);
  const auto& obj = message.as_object();
  const auto* version = obj.if_contains("jsonrpc");
  if (!version || !version->is_string() || version->as_string() != "2.0") fail("jsonrpc != \"2.0\"", message);
  if (!obj.contains("method") && !obj.contains("result") && !obj.contains("error"))
    fail("no method/result/error", message);
  if (obj.contains("result") && obj.contains("error")) fail("both result and error", message);
}

// Collects what the session sends; counts close() calls.
class RecordingChannel final : public mcp::Channel {
 public:
  void send(json::value message) override {
    check_jsonrpc(message);
    ++sent;
    last = std::move(message);
  }
  void close() override { ++closes; }
  int sent = 0;
  int closes = 0;
  json::value last;
};

struct Harness {
  boost::asio::io_context io;
  mcp::Server server{io.get_executor(), [] {
                       mcp::ServerOptions o;
                       o.name = "fuzz";
                       o.version = "0";
                       o.page_size = 5;
                       o.client_request_timeout = std::chrono::milliseconds(1);
                       return o;
                     }()};
  Harness() {
    conformance::register_conformance_fixtures(server.registry());
    conformance::register_e2e_tools(server.registry(), 7);
  }
  // Runs ready handlers a bounded number of times (timers of slow tools stay pending).
  void drain() {
    for (int i = 0; i < 64 && io.poll() > 0; ++i) {
    }
    io.restart();
  }
};

Harness& harness() {
  static Harness* h = new Harness();  // never destroyed: libFuzzer exits without unwinding
  return *h;
}

json::value parse_or_null(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return nullptr;
  return v;
}

const char* kInitialize =
    R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"fuzz","version":"1"}}})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Harness& h = harness();
  const bool initialized = (data[0] & 1) != 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  auto session = h.server.create_session("fuzz");
  auto standalone = std::make_shared<RecordingChannel>();
  session->set_standalone_channel(standalone);
  if (initialized) {
    auto init_reply = std::make_shared<RecordingChannel>();
    session->deliver(json::parse(kInitialize), init_reply);
    auto note = std::make_shared<RecordingChannel>();
    session->deliver(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), note);
    h.drain();
  }

  auto reply = std::make_shared<RecordingChannel>();
  json::value message = parse_or_null(text);
  if (message.is_null() && text != "null") {
    mcp::Session::reply_parse_error(*reply, "fuzz input is not JSON");
  } else {
    session->deliver(std::move(message), reply);
  }
  h.drain();

  if (initialized) {
    // The session must survive whatever came before (unless the input legitimately ended it).
    auto ping_reply = std::make_shared<RecordingChannel>();
    session->deliver(json::parse(R"({"jsonrpc":"2.0","id":"fuzz-ping","method":"ping"})"), ping_reply);
    h.drain();
    if (!session->is_shut_down() && (ping_reply->sent != 1 || ping_reply->closes != 1)) {
      fail("ping after the fuzz input got no answer", ping_reply->last);
    }
  }

  session->shutdown();
  h.drain();
  if (reply->closes != 1) {
    std::fprintf(stderr, "reply closed %d times\n", reply->closes);
    fail("reply channel not closed exactly once after shutdown", reply->last);
  }
  return 0;
}
