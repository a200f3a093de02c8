#include "fake_ha.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <map>
#include <utility>

#include "ha/detail/any_stream.hpp"
#include "support/memory_pipe.hpp"

namespace hamcp::fuzz {

namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;
using Ws = websocket::stream<ha::detail::AnyStream>;

Script Script::parse(std::string_view input) {
  Script s;
  while (!input.empty()) {
    const auto end = input.find('\n');
    std::string_view line = input.substr(0, end);
    input = end == std::string_view::npos ? std::string_view{} : input.substr(end + 1);
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view word = line.substr(0, space), frame = line.substr(space + 1);
    if (word == "auth")
      s.auth.emplace_back(frame);
    else
      s.replies[std::string(word)].emplace_back(frame);
  }
  return s;
}

namespace {

void replace_all(std::string& text, std::string_view what, const std::string& with) {
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += with.size()) {
    text.replace(at, what.size(), with);
  }
}

// The event that makes hamcp's mirror refetch what a command fetches (HA sends it when a registry,
// the services or the config change); empty for commands nothing announces.
std::string refetch_event_for(std::string_view command_type) {
  constexpr std::string_view prefix = "config/", suffix = "_registry/list";
  if (command_type.starts_with(prefix) && command_type.ends_with(suffix) &&
      command_type.size() > prefix.size() + suffix.size()) {
    const auto kind = command_type.substr(prefix.size(), command_type.size() - prefix.size() - suffix.size());
    return std::string(kind) + "_registry_updated";
  }
  if (command_type == "get_config") return "core_config_updated";
  if (command_type == "get_services") return "service_registered";
  return {};
}

// This connection's subscriptions, as FakeHa answered them.
struct Subscriptions {
  std::string entities = "0";                 // subscribe_entities' id
  std::map<std::string, std::string> events;  // subscribe_events: event type -> id
};

}  // namespace

struct FakeHa::Impl : std::enable_shared_from_this<FakeHa::Impl> {
  explicit Impl(asio::any_io_executor ex) : executor(std::move(ex)) {}
  asio::any_io_executor executor;
  Script script;
  std::uint64_t answered = 0;
  std::uint64_t connections = 0;
  std::uint64_t announced = 0;  // by the last push
  std::string last_token;

  // The client's end of a new connection; this end is served on `executor`.
  std::unique_ptr<ha::ByteStream> connect() {
    test::MemoryPipe pipe = test::make_memory_pipe(executor);
    asio::co_spawn(executor, serve(std::move(pipe.server)), asio::detached);
    return std::move(pipe.client);
  }

  asio::awaitable<void> serve(std::unique_ptr<ha::ByteStream> end) {
    auto self = shared_from_this();
    try {
      Ws ws(ha::detail::AnyStream(std::move(end)));
      ws.read_message_max(1u << 20);
      co_await ws.async_accept(asio::use_awaitable);
      ++connections;
      ws.text(true);
      // The scripted handshake is for this connection only.
      const std::vector<std::string> auth = std::exchange(script.auth, {});
      std::string hello = auth.size() > 0 ? auth[0] : R"({"type":"auth_required","ha_version":"2025.1.0"})";
      replace_all(hello, "$TOKEN", last_token);  // the token hamcp sent last time (an HA that knows it)
      co_await ws.async_write(asio::buffer(hello), asio::use_awaitable);
      boost::beast::flat_buffer buffer;
      co_await ws.async_read(buffer, asio::use_awaitable);
      std::string token = token_of(boost::beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      std::string reply = auth.size() > 1 ? auth[1] : R"({"type":"auth_ok","ha_version":"2025.1.0"})";
      replace_all(reply, "$TOKEN", token);
      co_await ws.async_write(asio::buffer(reply), asio::use_awaitable);
      Subscriptions subs;
      for (;;) {
        co_await ws.async_read(buffer, asio::use_awaitable);
        const std::string text = boost::beast::buffers_to_string(buffer.data());
        buffer.consume(buffer.size());
        co_await answer(ws, text, subs, token);
      }
    } catch (const std::exception&) {
      // hamcp dropped the connection (it does so on a malformed frame): the next one is served anew.
    }
  }

  std::string token_of(const std::string& auth_message) {
    boost::system::error_code ec;
    boost::json::value message = boost::json::parse(auth_message, ec);
    const auto* o = message.if_object();
    if (!o || !o->contains("access_token") || !o->at("access_token").is_string()) return {};
    last_token = std::string(o->at("access_token").as_string());
    return last_token;
  }

  // The frames hamcp gets for a command: the script's (all on the first command of that type), or
  // for kPushCommand the script's subscribe_entities frames and the events announcing what else it
  // scripts (fake_ha.hpp).
  std::deque<std::string> frames_for(const std::string& type, const Subscriptions& subs) {
    std::deque<std::string> frames;
    const bool push = type == kPushCommand;
    if (auto it = script.replies.find(push ? "subscribe_entities" : type); it != script.replies.end()) {
      frames = std::move(it->second);
      script.replies.erase(it);
    }
    if (!push) return frames;
    announced = 0;
    for (const auto& [scripted, unused] : script.replies) {
      const std::string event_type = refetch_event_for(scripted);
      const auto sub = subs.events.find(event_type);
      if (event_type.empty() || sub == subs.events.end()) continue;
      frames.push_back(R"({"id":)" + sub->second + R"(,"type":"event","event":{"event_type":")" + event_type +
                       R"(","data":{},"origin":"LOCAL"}})");
      ++announced;
    }
    return frames;
  }

  asio::awaitable<void> answer(Ws& ws, const std::string& text, Subscriptions& subs, const std::string& token) {
    boost::system::error_code ec;
    boost::json::value command = boost::json::parse(text, ec);  // hamcp's own output: always JSON
    const auto* obj = command.if_object();
    if (!obj) co_return;
    const auto* type_value = obj->if_contains("type");
    const auto* id_value = obj->if_contains("id");
    if (!type_value || !type_value->is_string() || !id_value) co_return;
    const std::string type(type_value->as_string());
    const std::string id = boost::json::serialize(*id_value);
    if (type == "subscribe_entities") subs.entities = id;
    if (const auto* event_type = obj->if_contains("event_type");
        type == "subscribe_events" && event_type && event_type->is_string()) {
      subs.events[std::string(event_type->as_string())] = id;
    }
    std::deque<std::string> frames = frames_for(type, subs);
    for (auto& frame : frames) {
      replace_all(frame, "$ID", id);
      replace_all(frame, "$SUB", subs.entities);
      replace_all(frame, "$TOKEN", token);
      co_await ws.async_write(asio::buffer(frame), asio::use_awaitable);
    }
    std::string reply = type == "ping" ? R"({"id":)" + id + R"(,"type":"pong"})"
                                       : R"({"id":)" + id + R"(,"type":"result","success":true,"result":null})";
    co_await ws.async_write(asio::buffer(reply), asio::use_awaitable);
    if (type == "subscribe_entities") {
      const std::string initial = R"({"id":)" + id + R"(,"type":"event","event":{"a":{}}})";
      co_await ws.async_write(asio::buffer(initial), asio::use_awaitable);
    }
    ++answered;
  }
};

FakeHa::FakeHa(asio::any_io_executor executor) : impl_(std::make_shared<Impl>(std::move(executor))) {}

namespace {
// A coroutine of its own, not a coroutine lambda: its frame holds `impl`, not a reference into the
// lambda that made it.
asio::awaitable<std::unique_ptr<ha::ByteStream>> connect_to(std::shared_ptr<FakeHa::Impl> impl) {
  co_return impl->connect();
}
}  // namespace

ha::StreamConnector FakeHa::connector() const {
  return [impl = impl_](const asio::any_io_executor&) { return connect_to(impl); };
}

void FakeHa::set_script(Script script) { impl_->script = std::move(script); }
std::uint64_t FakeHa::commands_answered() const { return impl_->answered; }
std::uint64_t FakeHa::connections() const { return impl_->connections; }
std::uint64_t FakeHa::announced_by_last_push() const { return impl_->announced; }

}  // namespace hamcp::fuzz
