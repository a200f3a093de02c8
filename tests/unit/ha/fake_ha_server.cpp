// FakeHa's serving side: the HTTP exchange, the WebSocket upgrade and its
// writer, and the accept loop, all on the fake's own io_context thread.
#include "fake_ha_impl.hpp"

namespace hamcp::ha::testing {

asio::awaitable<void> FakeHa::Impl::writer(std::shared_ptr<Session> s) {
  while (!s->closed) {
    if (s->outbox.empty()) {
      s->signal.expires_at(asio::steady_timer::time_point::max());
      boost::system::error_code ec;
      co_await s->signal.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    std::string text;
    if (s->coalesce && s->outbox.size() > 1 && s->outbox.front().size() < 65536) {
      // Batch small queued messages into one array frame, like HA does.
      text = "[";
      while (!s->outbox.empty() && s->outbox.front().size() < 65536) {
        if (text.size() > 1) text += ',';
        text += s->outbox.front();
        s->outbox.pop_front();
      }
      text += "]";
    } else {
      text = std::move(s->outbox.front());
      s->outbox.pop_front();
    }
    boost::system::error_code ec;
    s->ws.text(true);
    co_await s->ws.async_write(asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      s->closed = true;
      co_return;
    }
  }
}

asio::awaitable<void> FakeHa::Impl::serve_ws(std::shared_ptr<Session> s) {
  boost::system::error_code ec;
  s->ws.read_message_max(std::size_t{64} * 1024 * 1024);
  asio::co_spawn(ioc, writer(s), asio::detached);
  s->send(json::object{{"type", "auth_required"}, {"ha_version", "2026.1.0"}});
  for (;;) {
    beast::flat_buffer buffer;
    co_await s->ws.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
    if (ec || s->closed) break;
    json::value v = json::parse(beast::buffers_to_string(buffer.data()), ec);
    if (ec || !v.is_object()) break;
    auto& o = v.as_object();
    if (!s->authed) {
      ++auth_messages;
      if (o["type"] == "auth" && o["access_token"].is_string() && o["access_token"].as_string() == options.token) {
        s->authed = true;
        ++authed_sessions;
        s->send(json::object{{"type", "auth_ok"}, {"ha_version", "2026.1.0"}});
      } else {
        s->send(json::object{{"type", "auth_invalid"}, {"message", "Invalid access token or password"}});
        // Give the writer a moment to flush, then close.
        asio::steady_timer t(ioc, std::chrono::milliseconds(50));
        co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        break;
      }
      continue;
    }
    handle(s, o);
  }
  s->close_now();
}

asio::awaitable<void> FakeHa::Impl::serve_http(tcp::socket socket) {
  beast::flat_buffer buffer;
  boost::system::error_code ec;
  http::request<http::string_body> req;
  co_await http::async_read(socket, buffer, req, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) co_return;
  if (websocket::is_upgrade(req) && !refuse_ws) {
    auto s = std::make_shared<Session>(std::move(socket));
    sessions.push_back(s);
    co_await s->ws.async_accept(req, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    co_await serve_ws(s);
    co_return;
  }
  http::response<http::string_body> res{http::status::ok, 11};
  res.set(http::field::content_type, "application/json");
  const std::string auth(req[http::field::authorization]);
  if (auth != "Bearer " + options.token) {
    res.result(http::status::unauthorized);
    res.set(http::field::content_type, "text/plain");
    res.body() = "401: Unauthorized";
  } else if (req.target() == "/api/") {
    res.body() = R"({"message":"API running."})";
  } else if (req.target() == "/api/states") {
    res.body() = json::serialize(all_states());
  } else if (req.target() == "/api/config") {
    res.body() = R"({"version":"2026.1.0","location_name":"Fake Home"})";
  } else if (req.target() == "/api/services") {
    res.body() = R"([{"domain":"light","services":{"turn_on":{"name":"Turn on"}}}])";
  } else if (req.target() == "/api/core/state") {
    res.body() = R"({"state":"RUNNING"})";
  } else {
    res.result(http::status::not_found);
    res.body() = "404: Not Found";
  }
  res.keep_alive(false);
  res.prepare_payload();
  co_await http::async_write(socket, res, asio::redirect_error(asio::use_awaitable, ec));
}

asio::awaitable<void> FakeHa::Impl::accept_loop() {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    asio::co_spawn(ioc, serve_http(std::move(s)), asio::detached);
  }
}

}  // namespace hamcp::ha::testing
