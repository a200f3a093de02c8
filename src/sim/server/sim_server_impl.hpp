#pragma once
// SimServer's state, shared by its transport (sim_server.cpp: listener, HTTP
// connections, control endpoint) and its WebSocket sessions (sim_ws_session.cpp).
// Private to src/sim/server.

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "net/beast_server.hpp"
#include "sim/core/update_progress.hpp"
#include "sim/rest/rest_api.hpp"
#include "sim/server/sim_server.hpp"

namespace hamcp::sim {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// What HA's aiohttp sends as its Server header, on REST answers and the WebSocket upgrade.
inline constexpr const char* kSimServerHeader = "Python/3.13 aiohttp/3.11.16";
inline constexpr std::size_t kSimMaxRequestBody = std::size_t{64} * 1024 * 1024;

struct Closable {
  virtual ~Closable() = default;
  virtual void close_now() = 0;  // io thread only
  virtual bool is_websocket() const { return false; }
  virtual bool authenticated() const { return false; }
  virtual void push_raw(std::string) {}
};

struct SimServer::Impl {
  SimServerOptions options;
  SimCore core;
  RestApi rest;
  asio::io_context ioc;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::unique_ptr<net::BeastServer> listener;  // io thread only (start/stop: while the io thread is not running)
  std::thread thread;
  // Read by any thread (port(), url()), written by the io thread on restart.
  std::atomic<uint16_t> bound_port{0};
  std::set<Closable*> conns;  // WebSocket sessions; io thread only
  // HTTP connections alive; shared with them (they may outlive this object's
  // members while the io_context is torn down).
  std::shared_ptr<std::atomic<int>> active = std::make_shared<std::atomic<int>>(0);
  std::atomic<std::size_t> websockets{0};
  std::atomic<int> delay_ms{0};
  std::atomic<int> rest_failure{0};
  std::mutex state_mutex;
  std::condition_variable state_cv;
  // Written under state_mutex (start/stop, with state_cv); read lock-free by on_io().
  std::atomic<bool> running{false};

  Impl(Home home, SimServerOptions opts)
      : options(std::move(opts)),
        core(std::move(home), options.token),
        rest(core, [this](const json::object& cmd) { return control(cmd); }) {
    // homeassistant.restart: the answer goes out first, then HA goes away and comes back.
    core.store().listen("@restart_requested", [this](const Event&) {
      auto timer = std::make_shared<asio::steady_timer>(ioc, std::chrono::milliseconds(100));
      timer->async_wait([this, timer](boost::system::error_code ec) {
        if (!ec && running) restart_in_place();
      });
    });
    core.store().listen("@update_install", [this](const Event& e) {
      step_update(std::string(e.data.at("entity_id").as_string()), std::string(e.data.at("version").as_string()), 1);
    });
  }

  // update.install's progress: one step every kUpdateStepMs on the io thread.
  void step_update(std::string entity_id, std::string version, int step) {
    auto timer = std::make_shared<asio::steady_timer>(ioc, std::chrono::milliseconds(kUpdateStepMs));
    timer->async_wait([this, timer, entity_id = std::move(entity_id), version = std::move(version),
                       step](boost::system::error_code ec) mutable {
      if (ec || !running) return;
      if (!advance_update_install(core.store(), entity_id, version, step))
        step_update(std::move(entity_id), std::move(version), step + 1);
    });
  }

  // Runs fn on the io thread and waits (or runs it inline when already there).
  template <class F>
  void on_io(F fn) {
    if (ioc.get_executor().running_in_this_thread() || !running) {
      fn();
      return;
    }
    std::promise<void> done;
    auto fut = done.get_future();
    asio::post(ioc, [&] {
      fn();
      done.set_value();
    });
    fut.wait();
  }

  // The skeleton's limits for a test server: every client is loopback, so
  // only the global cap counts; bodies up to 64 MiB (huge registries); waits
  // as long as before the skeleton (300 s).
  net::ServerOptions server_options() const {
    net::ServerOptions o;
    o.host = options.host;
    o.port = bound_port.load() ? bound_port.load() : options.port;
    o.max_body_bytes = kSimMaxRequestBody;
    o.max_body_bytes_total = std::size_t{1} << 30;
    o.max_header_bytes = 8192;  // Beast's default, what the simulator always had
    o.max_connections_per_client = o.max_connections;
    o.header_timeout = o.idle_timeout = o.body_timeout = std::chrono::seconds(300);
    o.server_name = kSimServerHeader;
    return o;
  }

  // Throws std::runtime_error naming the address when it cannot listen.
  void listen();
  // Ends every HTTP connection and stops accepting (io thread).
  void stop_listening() {
    if (!listener) return;
    listener->stop(std::chrono::milliseconds(0));
    listener.reset();  // closes the acceptor now; connections end on their own strands
  }

  void close_all(bool websockets_only, bool authenticated_only) {
    if (!websockets_only) stop_listening();
    std::vector<Closable*> list(conns.begin(), conns.end());
    for (auto* c : list) {
      if (authenticated_only && !c->authenticated()) continue;
      c->close_now();
    }
  }

  // `listening` (if set) learns when the listener is back: no error, or why not.
  void restart_in_place(std::function<void(std::string error)> listening = {}) {
    close_all(false, false);
    auto timer = std::make_shared<asio::steady_timer>(ioc, options.restart_gap);
    timer->async_wait([this, timer, listening = std::move(listening)](boost::system::error_code) {
      std::string error;
      try {
        listen();
      } catch (const std::exception& e) {
        error = e.what();
        spdlog::error("sim: restart could not listen again on port {}: {}", bound_port.load(), error);
      }
      if (listening) listening(std::move(error));
    });
  }

  // The REST answer (or the injected failure) to one request.
  RestResponse answer(RestRequest request);
  RestResponse control(const json::object& cmd);
  // The simulated Supervisor's backup fault (SupervisorData::backup_fault); false: no Supervisor.
  bool set_backup_fault(const std::string& fault) {
    std::lock_guard lock(core.store().mutex());
    auto& supervisor = core.store().home().supervisor;
    if (supervisor) supervisor->backup_fault = fault;
    return supervisor.has_value();
  }
  asio::awaitable<void> ws_session(beast::tcp_stream stream, http::request<http::string_body> req);
};

}  // namespace hamcp::sim
