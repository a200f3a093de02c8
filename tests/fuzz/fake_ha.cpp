#include "fake_ha.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <thread>

namespace hamcp::fuzz {

namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = asio::ip::tcp;

Script Script::parse(std::string_view input) {
  Script s;
  while (!input.empty()) {
    const auto end = input.find('\n');
    std::string_view line = input.substr(0, end);
    input = end == std::string_view::npos ? std::string_view{} : input.substr(end + 1);
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view word = line.substr(0, space), frame = line.substr(space + 1);
    if (word == "auth") s.auth.emplace_back(frame);
    else s.replies[std::string(word)].emplace_back(frame);
  }
  return s;
}

namespace {

void replace_all(std::string& text, std::string_view what, const std::string& with) {
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += with.size()) {
    text.replace(at, what.size(), with);
  }
}

}  // namespace

struct FakeHa::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::mutex mutex;
  Script script;
  std::atomic<std::uint64_t> answered{0};
  std::atomic<std::uint64_t> handshakes{0};
  std::string last_token;  // server thread only

  void serve_forever() {
    for (;;) {
      tcp::socket socket(io);
      boost::system::error_code ec;
      acceptor.accept(socket, ec);
      if (ec) continue;
      socket.set_option(tcp::no_delay(true), ec);
      try {
        serve(std::move(socket));
      } catch (const std::exception&) {
        // hamcp dropped the connection (it does so on a malformed frame): wait for the next.
      }
    }
  }

  std::string take_auth(std::size_t index, std::string fallback) {
    std::lock_guard lock(mutex);
    if (index < script.auth.size()) return script.auth[index];
    return fallback;
  }

  void serve(tcp::socket socket) {
    websocket::stream<tcp::socket> ws(std::move(socket));
    ws.read_message_max(1u << 20);
    ws.accept();
    ws.text(true);
    std::string hello = take_auth(0, R"({"type":"auth_required","ha_version":"2025.1.0"})");
    replace_all(hello, "$TOKEN", last_token);  // the token hamcp sent last time (an HA that knows it)
    ws.write(asio::buffer(hello));
    boost::beast::flat_buffer buffer;
    ws.read(buffer);
    std::string token;
    {
      boost::system::error_code ec;
      boost::json::value auth = boost::json::parse(boost::beast::buffers_to_string(buffer.data()), ec);
      if (const auto* o = auth.if_object(); o && o->contains("access_token") && o->at("access_token").is_string()) {
        token = std::string(o->at("access_token").as_string());
        last_token = token;
      }
    }
    buffer.consume(buffer.size());
    std::string reply = take_auth(1, R"({"type":"auth_ok","ha_version":"2025.1.0"})");
    replace_all(reply, "$TOKEN", token);
    ws.write(asio::buffer(reply));
    handshakes.fetch_add(1);
    {
      std::lock_guard lock(mutex);
      script.auth.clear();  // the scripted handshake is for one connection only
    }
    std::string sub_id = "0";
    for (;;) {
      ws.read(buffer);
      const std::string text = boost::beast::buffers_to_string(buffer.data());
      buffer.consume(buffer.size());
      answer(ws, text, sub_id, token);
    }
  }

  void answer(websocket::stream<tcp::socket>& ws, const std::string& text, std::string& sub_id,
              const std::string& token) {
    boost::system::error_code ec;
    boost::json::value command = boost::json::parse(text, ec);  // hamcp's own output: always JSON
    const auto* obj = command.if_object();
    if (!obj) return;
    const auto* type_value = obj->if_contains("type");
    const auto* id_value = obj->if_contains("id");
    if (!type_value || !type_value->is_string() || !id_value) return;
    const std::string type(type_value->as_string());
    const std::string id = boost::json::serialize(*id_value);
    if (type == "subscribe_entities") sub_id = id;
    std::deque<std::string> frames;
    {
      std::lock_guard lock(mutex);
      if (auto it = script.replies.find(type); it != script.replies.end()) {
        frames = std::move(it->second);
        script.replies.erase(it);
      }
    }
    for (auto& frame : frames) {
      replace_all(frame, "$ID", id);
      replace_all(frame, "$SUB", sub_id);
      replace_all(frame, "$TOKEN", token);
      ws.write(asio::buffer(frame));
    }
    if (type == "ping") {
      ws.write(asio::buffer(R"({"id":)" + id + R"(,"type":"pong"})"));
    } else {
      ws.write(asio::buffer(R"({"id":)" + id + R"(,"type":"result","success":true,"result":null})"));
      if (type == "subscribe_entities") {
        ws.write(asio::buffer(R"({"id":)" + id + R"(,"type":"event","event":{"a":{}}})"));
      }
    }
    answered.fetch_add(1);
  }
};

FakeHa::FakeHa() : impl_(std::make_shared<Impl>()) {
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  std::thread([impl = impl_] { impl->serve_forever(); }).detach();
}

void FakeHa::set_script(Script script) {
  std::lock_guard lock(impl_->mutex);
  impl_->script = std::move(script);
}

std::uint64_t FakeHa::commands_answered() const { return impl_->answered.load(); }
std::uint64_t FakeHa::handshakes() const { return impl_->handshakes.load(); }

}  // namespace hamcp::fuzz
