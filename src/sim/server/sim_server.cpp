// The simulator's transport: HTTP/1.1 on the shared Beast server skeleton
// (net/beast_server.hpp: accept loop, limits, keep-alive, stop) with a
// connection that answers REST through RestApi and upgrades /api/websocket to
// a WsConnection; WebSocket tracking and the fault switches.
//
// Test control endpoint (loopback peers only, Authorization: Bearer <the
// configured token>, honoured even while the token is "revoked"):
//   POST /api/hamcp_sim/fault  {"action": …}
//     "drop_websockets"                 close every WebSocket
//     "delay", "ms": N                  delay REST responses and WS frames by N ms (0 = off)
//     "rest_failure", "status": 503     REST answers that status (0 = off)
//     "malformed_frame"                 send one non-JSON text frame to every authenticated socket
//     "huge_registry", "bytes": N       pad config/entity_registry/list to >= N bytes (0 = off)
//     "revoke_token" / "restore_token"  close authenticated sockets and reject the token / accept it again
//     "supervisor_backup_fault", "mode": "addon_save" | "file" | ""
//                                       the simulated Supervisor's next backups fail being written
//     "restart"                         drop everything and listen again on the same port (state kept)
//     "clear"                           undo delay, rest_failure, huge_registry, revoke_token, backup fault
//     "status"                          {"websockets": n, "delay_ms", "rest_failure", "entities"}
#include "sim/server/sim_server.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <set>
#include <stdexcept>
#include <thread>

#include "net/beast_server.hpp"
#include "net/http_connection.hpp"
#include "sim/core/json_writer.hpp"
#include "sim/core/update_progress.hpp"
#include "sim/rest/rest_api.hpp"
#include "sim/server/sim_server_impl.hpp"
#include "sim/ws/ws_connection.hpp"

namespace hamcp::sim {

namespace websocket = beast::websocket;  // asio, beast, http: sim_server_impl.hpp
using tcp = asio::ip::tcp;

namespace {

bool is_loopback(const beast::tcp_stream& stream) {
  boost::system::error_code ec;
  auto ep = stream.socket().remote_endpoint(ec);
  return !ec && ep.address().is_loopback();
}

std::string failure_body(int status) {
  switch (status) {
    case 500:
      return "500 Internal Server Error\n\nServer got itself in trouble";
    case 502:
      return "502: Bad Gateway";
    case 503:
      return "503: Service Unavailable";
    case 504:
      return "504: Gateway Timeout";
    default:
      return std::to_string(status) + ": Server Error";
  }
}

}  // namespace

namespace {

// One HTTP connection of the simulator on the server skeleton: REST answers
// (aiohttp's headers and error texts), or the WebSocket upgrade, which takes
// the stream over. Threading: its strand on the io thread.
class SimConnection final : public net::HttpConnection<beast::tcp_stream> {
 public:
  SimConnection(SimServer::Impl* impl, std::shared_ptr<std::atomic<int>> active,
                std::shared_ptr<net::ServerState> state, std::string client, tcp::socket socket)
      : HttpConnection(std::move(state), std::move(client), std::move(socket)),
        impl_(impl),
        active_(std::move(active)) {
    ++*active_;
  }
  ~SimConnection() override { --*active_; }

 private:
  asio::awaitable<void> on_request(Request& req) override {
    std::string target(req.target());
    // /core/websocket: the simulated Supervisor's Core proxy, as an add-on reaches HA.
    const bool ws_path =
        target == "/api/websocket" || target.rfind("/api/websocket?", 0) == 0 || target == "/core/websocket";
    if (websocket::is_upgrade(req) && ws_path) {
      hand_over();
      net::expire_never(stream_);
      co_await impl_->ws_session(std::move(stream_), std::move(req));
      co_return;
    }
    RestRequest rr;
    rr.method = std::string(req.method_string());
    rr.target = target;
    rr.authorization = std::string(req[http::field::authorization]);
    rr.cookie = std::string(req[http::field::cookie]);
    rr.body = std::move(req.body());
    rr.from_loopback = is_loopback(stream_);
    RestResponse out = impl_->answer(std::move(rr));
    int delay = impl_->delay_ms.load();
    if (delay > 0 && target.rfind("/api/hamcp_sim/", 0) != 0) {
      asio::steady_timer t(stream_.get_executor(), std::chrono::milliseconds(delay));
      boost::system::error_code ec;
      co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    http::response<http::string_body> res{static_cast<http::status>(out.status), req.version()};
    res.set(http::field::server, kSimServerHeader);
    res.set(http::field::content_type, out.content_type);
    if (out.status == 401) res.set(http::field::www_authenticate, "Bearer");
    for (auto& [k, v] : out.headers) res.set(k, v);
    res.body() = std::move(out.body);
    co_await write_response(res);
    // HA reloads a config item in the background after answering (e.g. automation.reload):
    // the entity appears after the 200, as it does on a real Home Assistant.
    if (out.after) {
      std::lock_guard lock(impl_->core.store().mutex());
      out.after();
    }
  }

  // Refusals of the skeleton (400, 413, 431, 503), worded like aiohttp.
  asio::awaitable<void> send_error(unsigned status, std::string, bool retry_later) override {
    keep_alive_ = false;
    http::response<http::string_body> res{static_cast<http::status>(status), 11};
    res.set(http::field::server, kSimServerHeader);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    if (retry_later) res.set(http::field::retry_after, "1");
    res.body() = std::to_string(status) + ": " + std::string(http::obsolete_reason(static_cast<http::status>(status)));
    co_await write_response(res);
  }

  SimServer::Impl* impl_;
  std::shared_ptr<std::atomic<int>> active_;
};

}  // namespace

void SimServer::Impl::listen() {
  auto server = std::make_unique<net::BeastServer>(
      ioc.get_executor(), server_options(),
      [this](tcp::socket socket, std::string client, std::shared_ptr<net::ServerState> state) {
        return std::make_shared<SimConnection>(this, active, std::move(state), std::move(client), std::move(socket));
      });
  bound_port = server->start();
  listener = std::move(server);
}

RestResponse SimServer::Impl::answer(RestRequest request) {
  const std::string& target = request.target;
  const int failure = rest_failure.load();
  if (failure && target.rfind("/api/", 0) == 0 && target.rfind("/api/hamcp_sim/", 0) != 0)
    return text_response(failure, failure_body(failure));
  try {
    return rest.handle(request);
  } catch (const std::exception& e) {
    spdlog::error("sim: REST handler failed: {}", e.what());
    return text_response(500, "500 Internal Server Error\n\nServer got itself in trouble");
  }
}

RestResponse SimServer::Impl::control(const json::object& cmd) {
  const json::value* a = cmd.if_contains("action");
  if (!a || !a->is_string())
    return message_response(400,
                            "Missing \"action\" (drop_websockets, delay, rest_failure, malformed_frame, huge_registry, "
                            "revoke_token, restore_token, supervisor_backup_fault, restart, clear, status)");
  std::string action(a->get_string());
  auto number = [&](const char* key) -> int64_t {
    const json::value* v = cmd.if_contains(key);
    return v && v->is_number() ? v->to_number<int64_t>() : 0;
  };
  if (action == "drop_websockets")
    close_all(true, false);
  else if (action == "delay")
    delay_ms = static_cast<int>(number("ms"));
  else if (action == "rest_failure") {
    int64_t status = number("status");
    if (status != 0 && (status < 500 || status > 599))
      return message_response(400, "\"status\" must be a 5xx code or 0");
    rest_failure = static_cast<int>(status);
  } else if (action == "malformed_frame") {
    for (auto* c : std::vector<Closable*>(conns.begin(), conns.end()))
      if (c->is_websocket() && c->authenticated()) c->push_raw("{\"id\": 1, \"type\": \"result\", \"success\": tru");
  } else if (action == "huge_registry")
    core.pad_registry_bytes = static_cast<std::size_t>(number("bytes"));
  else if (action == "revoke_token") {
    core.revoke_token();
    close_all(true, true);
  } else if (action == "restore_token")
    core.restore_token();
  else if (action == "supervisor_backup_fault") {
    const json::value* mode = cmd.if_contains("mode");
    const std::string fault = mode && mode->is_string() ? std::string(mode->get_string()) : std::string();
    if (!fault.empty() && fault != "addon_save" && fault != "file")
      return message_response(400, "\"mode\" must be \"addon_save\", \"file\" or \"\"");
    if (!set_backup_fault(fault)) return message_response(400, "This simulated install has no Supervisor");
  } else if (action == "clear") {
    delay_ms = 0;
    rest_failure = 0;
    core.pad_registry_bytes = 0;
    core.restore_token();
    set_backup_fault({});
  } else if (action == "restart") {
    auto timer = std::make_shared<asio::steady_timer>(ioc, std::chrono::milliseconds(100));
    timer->async_wait([this, timer](boost::system::error_code) { restart_in_place(); });
  } else if (action != "status") {
    return message_response(400, "Unknown action \"" + action + "\"");
  }
  return json_response(200, json::object{{"result", "ok"},
                                         {"websockets", websockets.load()},
                                         {"delay_ms", delay_ms.load()},
                                         {"rest_failure", rest_failure.load()},
                                         {"entities", core.store().size()}});
}

// ---------------------------------------------------------------------------

SimServer::SimServer(Home home, SimServerOptions options)
    : impl_(std::make_shared<Impl>(std::move(home), std::move(options))) {}

SimServer::~SimServer() {
  try {
    stop();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; stop() is best effort here
  }
}

uint16_t SimServer::start() {
  std::lock_guard lock(impl_->state_mutex);
  if (impl_->running) return impl_->bound_port;
  impl_->ioc.restart();
  impl_->work.emplace(impl_->ioc.get_executor());
  try {
    impl_->listen();  // the io thread is not running: no race on `listener`
  } catch (const std::exception&) {
    impl_->work.reset();
    throw;
  }
  impl_->running = true;
  impl_->thread = std::thread([impl = impl_.get()] { impl->ioc.run(); });
  return impl_->bound_port;
}

void SimServer::stop() {
  {
    std::lock_guard lock(impl_->state_mutex);
    if (!impl_->running) return;
  }
  Impl* impl = impl_.get();
  // Wait for the close to run on the io thread: ioc.stop() below discards queued
  // handlers, and an acceptor left open makes the next start() fail "Already open"
  // (seen under qemu, where the io thread is slow to pick the handler up).
  auto closed = std::make_shared<std::promise<void>>();
  auto closed_future = closed->get_future();
  asio::post(impl->ioc, [impl, closed] {
    impl->close_all(false, false);
    closed->set_value();
  });
  closed_future.wait_for(std::chrono::seconds(5));
  // Let the sessions see their sockets closed and finish (bounded).
  for (int i = 0; i < 200 && (impl->active->load() > 0 || impl->websockets.load() > 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  impl->work.reset();
  impl->ioc.stop();
  if (impl->thread.joinable()) impl->thread.join();
  // The io thread is gone, so touching the listener here is race-free; this
  // covers the case where the posted close above did not run in time.
  impl->listener.reset();
  {
    std::lock_guard lock(impl->state_mutex);
    impl->running = false;
  }
  impl->state_cv.notify_all();
}

void SimServer::wait() {
  std::unique_lock lock(impl_->state_mutex);
  impl_->state_cv.wait(lock, [&] { return !impl_->running; });
}

uint16_t SimServer::port() const { return impl_->bound_port; }
std::string SimServer::url() const {
  std::string host = impl_->options.host;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(impl_->bound_port);
}
const std::string& SimServer::token() const { return impl_->options.token; }
SimCore& SimServer::core() { return impl_->core; }
StateStore& SimServer::store() { return impl_->core.store(); }

void SimServer::drop_websockets() {
  impl_->on_io([impl = impl_.get()] { impl->close_all(true, false); });
}
void SimServer::set_response_delay(std::chrono::milliseconds delay) {
  impl_->delay_ms = static_cast<int>(delay.count());
}
void SimServer::set_rest_failure(int status) { impl_->rest_failure = status; }
void SimServer::send_malformed_frame() {
  impl_->on_io([impl = impl_.get()] { impl->control(json::object{{"action", "malformed_frame"}}); });
}
void SimServer::set_registry_padding(std::size_t bytes) { impl_->core.pad_registry_bytes = bytes; }
void SimServer::revoke_token() {
  impl_->core.revoke_token();
  impl_->on_io([impl = impl_.get()] { impl->close_all(true, true); });
}
void SimServer::restore_token() { impl_->core.restore_token(); }
void SimServer::restart() {
  if (!impl_->running) throw std::runtime_error("sim: restart() before start()");
  // Wait for the listener itself, not for a guess at how long it takes.
  auto listening = std::make_shared<std::promise<std::string>>();
  auto outcome = listening->get_future();
  impl_->on_io([impl = impl_.get(), listening] {
    impl->restart_in_place([listening](std::string error) { listening->set_value(std::move(error)); });
  });
  const auto bound = impl_->options.restart_gap + std::chrono::seconds(10);
  if (outcome.wait_for(bound) != std::future_status::ready)
    throw std::runtime_error("sim: restart did not listen again within " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(bound).count()) + " s");
  if (std::string error = outcome.get(); !error.empty())
    throw std::runtime_error("sim: restart could not listen again: " + error);
}
void SimServer::clear_faults() {
  impl_->delay_ms = 0;
  impl_->rest_failure = 0;
  impl_->core.pad_registry_bytes = 0;
  impl_->core.restore_token();
}
std::size_t SimServer::websocket_count() const { return impl_->websockets.load(); }

}  // namespace hamcp::sim
