// The per-request fast path of the server skeleton (issue 9, item 6): a
// connection's strand stays inside any_io_executor's small buffer, an answer
// the socket takes at once is sent without a completion handler (its head
// rendered as Beast's serializer would; the rest asynchronously, under the
// write timeout), under load it leaves with the rest of its batch, and a body
// that came with its header is parsed from the buffer (one that arrives later
// is still read).
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

#include "http_fixture.hpp"
#include "mcp/http/session_host.hpp"
#include "net/beast_server.hpp"
#include "net/http_connection.hpp"
#include "raw_socket.hpp"

namespace hamcp::test {
namespace {

using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

TEST(FastPath, ConnectionStrandWrapsTheIoContextsOwnExecutor) {
  asio::io_context io(1);
  // A strand over any_io_executor does not fit any_io_executor's small buffer:
  // every copy of the connection's executor would allocate.
  const auto strand = hamcp::net::connection_executor(io.get_executor(), false);
  EXPECT_NE(strand.target<asio::strand<asio::io_context::executor_type>>(), nullptr);
  // Any other executor still gets a strand of its own.
  const asio::any_io_executor other = asio::make_strand(io.get_executor());
  EXPECT_NE(hamcp::net::connection_executor(other, false).target<asio::strand<asio::any_io_executor>>(), nullptr);
}

TEST(FastPath, OneThreadConnectionsRunOnTheExecutorItself) {
  // One thread runs the io_context (hamcp's runtime): no strand, no strand hop per handler.
  asio::io_context io(1);
  const auto ex = hamcp::net::connection_executor(io.get_executor(), true);
  ASSERT_NE(ex.target<asio::io_context::executor_type>(), nullptr);
  EXPECT_EQ(*ex.target<asio::io_context::executor_type>(), io.get_executor());
}

// A connected pair on loopback: `server` as the skeleton's stream, `client` raw.
struct SocketPair {
  asio::io_context io{1};
  beast::tcp_stream server{io};
  tcp::socket client{io};
  SocketPair() {
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    client.connect(acceptor.local_endpoint());
    server.socket() = acceptor.accept();
  }
};

bhttp::response<bhttp::string_body> answer(std::size_t body_bytes) {
  bhttp::response<bhttp::string_body> res{bhttp::status::ok, 11};
  res.set(bhttp::field::content_type, "application/json");
  res.body() = std::string(body_bytes, 'x');
  res.prepare_payload();
  return res;
}

// The bytes of `res` as Beast's serializer writes them.
std::string serialized(const bhttp::response<bhttp::string_body>& res) {
  std::ostringstream out;
  out << res;
  return out.str();
}

TEST(FastPath, TheRenderedHeadIsWhatBeastsSerializerWrites) {
  auto ok = answer(10);
  ok.set(bhttp::field::cache_control, "no-store");
  ok.insert("Mcp-Session-Id", "abc");
  bhttp::response<bhttp::string_body> odd{bhttp::status::not_found, 10};  // HTTP/1.0
  odd.reason("Gone Fishing");
  odd.body() = "{}";
  odd.prepare_payload();
  bhttp::response<bhttp::string_body> unknown{static_cast<bhttp::status>(299), 11};  // no reason known
  unknown.prepare_payload();
  for (const auto* res : {&ok, &odd, &unknown}) {
    std::string head;
    hamcp::net::render_response_head(res->base(), head);
    EXPECT_EQ(head + res->body(), serialized(*res));
  }
}

TEST(FastPath, SmallAnswerIsSentAtOnce) {
  SocketPair pair;
  auto res = answer(900);
  std::string head;
  hamcp::net::render_response_head(res.base(), head);
  const std::array<asio::const_buffer, 2> parts{asio::buffer(head), asio::buffer(res.body())};
  boost::system::error_code ec;
  const auto sent = hamcp::net::send_at_once(pair.server, parts, ec);
  EXPECT_FALSE(ec) << ec.message();
  ASSERT_EQ(sent, head.size() + 900u) << "no completion handler needed";
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> got;
  bhttp::read(pair.client, buffer, got);
  EXPECT_EQ(got.body().size(), 900u);
}

TEST(FastPath, LargeAnswerToASlowReaderContinuesAsynchronously) {
  SocketPair pair;
  auto res = answer(32u << 20);  // far above any socket buffer
  std::string head;
  hamcp::net::render_response_head(res.base(), head);
  const std::array<asio::const_buffer, 2> parts{asio::buffer(head), asio::buffer(res.body())};
  boost::system::error_code ec;
  const auto sent = hamcp::net::send_at_once(pair.server, parts, ec);
  EXPECT_FALSE(ec) << "a full send buffer is not an error: " << ec.message();
  ASSERT_TRUE(sent.has_value());
  EXPECT_LT(*sent, head.size() + res.body().size()) << "the peer has not read yet";
  // The rest goes out asynchronously while the client reads.
  beast::buffers_suffix<std::array<asio::const_buffer, 2>> rest(parts);
  rest.consume(*sent);
  boost::system::error_code async_ec = asio::error::would_block;
  asio::async_write(pair.server, rest, [&](boost::system::error_code e, std::size_t) { async_ec = e; });
  std::size_t body_bytes = 0;
  std::thread reader([&] {
    beast::flat_buffer buffer;
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(64u << 20);
    boost::system::error_code rec;
    bhttp::read(pair.client, buffer, parser, rec);
    body_bytes = parser.get().body().size();
  });
  pair.io.run_for(20s);
  reader.join();
  EXPECT_FALSE(async_ec) << async_ec.message();
  EXPECT_EQ(body_bytes, 32u << 20) << "the bytes sent at once and the rest make the whole answer";
}

// Answers every request with "ok". Before answering, it queues `probe` on
// its executor, as a request that arrived in the same batch would be.
class ProbeConnection final : public hamcp::net::HttpConnection<beast::tcp_stream> {
 public:
  ProbeConnection(std::shared_ptr<hamcp::net::ServerState> state, std::string client, tcp::socket socket,
                  std::function<void()> probe)
      : HttpConnection(std::move(state), std::move(client), std::move(socket)), probe_(std::move(probe)) {}

 private:
  asio::awaitable<void> on_request(Request&) override {
    asio::post(conn_executor(), probe_);
    bhttp::response<bhttp::string_body> res{bhttp::status::ok, 11};
    res.body() = "ok";
    co_await write_response(res);
  }
  std::function<void()> probe_;
};

// One GET on one connection of a one-thread server. `after_a_batch_of`: the
// requests of the batch the server saw before. Returns the bytes of the answer
// the client could read when the handler queued before the answer ran.
std::size_t answer_bytes_before_queued_handler(unsigned after_a_batch_of) {
  asio::io_context io(1);
  tcp::socket client(io);
  std::optional<std::size_t> bytes_at_probe;
  hamcp::net::ServerOptions options;
  options.one_thread = true;
  hamcp::net::BeastServer server(
      io.get_executor(), options,
      [&](tcp::socket socket, std::string peer, std::shared_ptr<hamcp::net::ServerState> state) {
        for (unsigned i = 0; i < after_a_batch_of; ++i) state->answers.begin_request();
        state->answers.end_batch();
        return std::make_shared<ProbeConnection>(std::move(state), std::move(peer), std::move(socket),
                                                 [&] { bytes_at_probe = client.available(); });
      });
  const std::uint16_t port = server.start();
  client.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(client, asio::buffer(std::string_view("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")));
  for (int i = 0; i < 500 && (!bytes_at_probe || client.available() == 0); ++i) io.run_one_for(10ms);
  EXPECT_TRUE(bytes_at_probe.has_value()) << "the request was handled";
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> got;
  bhttp::read(client, buffer, got);
  EXPECT_EQ(got.body(), "ok");
  server.stop(0ms);
  io.run_for(200ms);
  return bytes_at_probe.value_or(0);
}

// Under load (a batch of three requests or more) an answer leaves after the
// handlers already queued on the loop, with the rest of its batch: a client
// with many connections is woken once per batch, not once per answer.
TEST(FastPath, UnderLoadAnAnswerWaitsForTheRestOfItsBatch) {
  EXPECT_EQ(answer_bytes_before_queued_handler(hamcp::net::AnswerBatching::kHoldFrom), 0u);
}

// Otherwise it is sent at once: held, it would only wait for another client's
// request while its own client idles.
TEST(FastPath, WithoutLoadAnAnswerIsSentAtOnce) {
  EXPECT_GT(answer_bytes_before_queued_handler(hamcp::net::AnswerBatching::kHoldFrom - 1), 0u);
}

TEST(AnswerBatching, AnswersAreHeldFromTheThirdRequestOfABatchAndInTheBatchAfter) {
  hamcp::net::AnswerBatching batching;
  EXPECT_TRUE(batching.begin_request()) << "the first request of a batch ends it later";
  EXPECT_FALSE(batching.begin_request());
  EXPECT_FALSE(batching.hold_answers()) << "two requests: sent at once";
  batching.begin_request();
  EXPECT_TRUE(batching.hold_answers()) << "a third: held";
  batching.end_batch();
  EXPECT_TRUE(batching.begin_request());
  EXPECT_TRUE(batching.hold_answers()) << "the batch after a busy one holds from its first answer";
  batching.end_batch();
  EXPECT_FALSE(batching.hold_answers()) << "after a batch of one: sent at once";
}

// A Channel that records what the session answered.
struct RecordingChannel final : mcp::Channel {
  std::vector<std::string> sent;
  bool closed = false;
  void send(json::value message) override { sent.push_back(json::serialize(message)); }
  void close() override { closed = true; }
};

// On the thread that runs the server's executor (the one io thread), a POST's
// message reaches its session at once: a ping is answered before deliver()
// returns, with no trip through the queue.
TEST(FastPath, DeliverOnTheServersThreadRunsTheSessionAtOnce) {
  asio::io_context io(1);
  mcp::Server server(io.get_executor(), mcp::ServerOptions{});
  mcp::http::HttpServerOptions options;
  auto host = std::make_shared<mcp::http::SessionHost>(server, io.get_executor(), options);
  auto hs = std::make_shared<mcp::http::HttpSession>("k", "2025-11-25", mcp::http::ReplayLimits{});
  auto channel = std::make_shared<RecordingChannel>();
  bool answered_inline = false;
  asio::post(io, [&] {
    hs->session = server.create_session("k");
    host->deliver(hs, json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), channel);
    answered_inline = channel->closed && channel->sent.size() == 1;
  });
  io.run_for(5s);
  EXPECT_TRUE(answered_inline);
  ASSERT_EQ(channel->sent.size(), 1u) << "answered once, either way";
  EXPECT_NE(channel->sent[0].find(R"("result":{})"), std::string::npos) << channel->sent[0];
  server.shutdown();
}

// A body that is not in the buffer with its header is still read: split after
// the header, in the middle of the body, and a chunked body in pieces.
TEST(FastPath, BodiesArrivingInPiecesAreStillRead) {
  TempDir dir;
  TestHttpServer server(dir.path());
  const std::string sid = open_session(server.port());
  const std::string body = call_body(7, "echo", R"({"text":"pieces"})");
  std::string head =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " +
      sid + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
  {
    RawSocket s(server.port());
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s.send(head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, 10)));
    std::this_thread::sleep_for(100ms);  // the header and part of the body are read
    ASSERT_TRUE(s.send(body.substr(10)));
    const std::string reply = s.read_until("pieces", 5000ms);
    EXPECT_NE(reply.find("HTTP/1.1 200"), std::string::npos) << reply.substr(0, 200);
    EXPECT_NE(reply.find("pieces"), std::string::npos) << reply.substr(0, 400);
  }
  {
    RawSocket s(server.port());
    ASSERT_TRUE(s.ok());
    const auto chunk = [](std::string_view part) {
      char size[16];
      std::snprintf(size, sizeof size, "%zx\r\n", part.size());
      return std::string(size) + std::string(part) + "\r\n";
    };
    ASSERT_TRUE(s.send(head + "Transfer-Encoding: chunked\r\n\r\n" + chunk(std::string_view(body).substr(0, 12))));
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(s.send(chunk(std::string_view(body).substr(12)) + "0\r\n\r\n"));
    const std::string reply = s.read_until("pieces", 5000ms);
    EXPECT_NE(reply.find("HTTP/1.1 200"), std::string::npos) << reply.substr(0, 200);
    EXPECT_NE(reply.find("pieces"), std::string::npos) << reply.substr(0, 400);
  }
}

}  // namespace
}  // namespace hamcp::test
