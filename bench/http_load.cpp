// bench_http_load: a small closed-loop load client for an MCP Streamable HTTP endpoint.
//
//   bench_http_load --url http://127.0.0.1:PORT/mcp --clients 16 --requests 20000 --seconds 10
//                   [--method ping | --tool NAME] [--sessions-only N]
//
// Each client initializes its own MCP session, then sends requests back to back on one
// keep-alive connection (closed loop: a client waits for each answer). Stops after --requests
// in total or --seconds, whichever comes first. Prints one JSON line: requests/s and latency
// percentiles (microseconds). Loopback only: the URL host must be 127.0.0.1, localhost or ::1.
//
// --sessions-only N: open N sessions (initialize + initialized, never DELETE) and exit; used to
// measure the server's memory per idle session.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Target {
  std::string host, port, path;
};

struct Shared {
  Target target;
  std::string method = "ping", tool;
  std::size_t max_requests = 0;
  Clock::time_point deadline;
  std::atomic<std::size_t> issued{0};
  std::vector<std::uint32_t> latencies_us;  // all clients, single-threaded io_context
  std::size_t errors = 0;
};

// The JSON-RPC body of a response: either a JSON body or the last `data:` line of an SSE body.
json::value rpc_body(const std::string& body) {
  if (!body.empty() && body.front() == '{') return json::parse(body);
  json::value last;
  std::size_t at = 0;
  while ((at = body.find("data:", at)) != std::string::npos) {
    auto end = body.find('\n', at);
    std::string data = body.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5);
    if (data.find('{') != std::string::npos) {
      boost::system::error_code ec;
      auto v = json::parse(data, ec);
      if (!ec) last = v;
    }
    at = end == std::string::npos ? body.size() : end;
  }
  return last;
}

class Client {
 public:
  Client(asio::any_io_executor ex, Shared& shared) : stream_(ex), shared_(shared) {}

  asio::awaitable<void> connect() {
    tcp::resolver resolver(stream_.get_executor());
    auto results = co_await resolver.async_resolve(shared_.target.host, shared_.target.port, asio::use_awaitable);
    co_await stream_.async_connect(results, asio::use_awaitable);
    stream_.socket().set_option(tcp::no_delay(true));
  }

  // initialize + notifications/initialized; remembers the session id.
  asio::awaitable<void> open_session(int n) {
    json::object params{{"protocolVersion", "2025-11-25"},
                        {"capabilities", json::object{}},
                        {"clientInfo", json::object{{"name", "bench_http_load"}, {"version", std::to_string(n)}}}};
    json::object init{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", std::move(params)}};
    auto res = co_await post(json::serialize(init));
    if (res.result_int() != 200) throw std::runtime_error("initialize: HTTP " + std::to_string(res.result_int()));
    session_id_ = std::string(res["mcp-session-id"]);
    protocol_version_ = "2025-11-25";
    auto note = co_await post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    if (note.result_int() != 202) throw std::runtime_error("initialized: HTTP " + std::to_string(note.result_int()));
  }

  asio::awaitable<void> run_load() {
    std::int64_t id = 1;
    while (Clock::now() < shared_.deadline) {
      if (shared_.issued.fetch_add(1) >= shared_.max_requests) break;
      json::object msg{{"jsonrpc", "2.0"}, {"id", ++id}};
      if (shared_.tool.empty()) {
        msg["method"] = shared_.method;
      } else {
        msg["method"] = "tools/call";
        msg["params"] = json::object{{"name", shared_.tool}, {"arguments", json::object{}}};
      }
      std::string body = json::serialize(msg);
      auto start = Clock::now();
      auto res = co_await post(std::move(body));
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
      json::value answer = rpc_body(res.body());
      if (res.result_int() != 200 || !answer.is_object() || !answer.as_object().contains("result")) {
        ++shared_.errors;
      } else {
        shared_.latencies_us.push_back(static_cast<std::uint32_t>(us));
      }
    }
  }

 private:
  asio::awaitable<http::response<http::string_body>> post(std::string body) {
    http::request<http::string_body> req{http::verb::post, shared_.target.path, 11};
    req.set(http::field::host, shared_.target.host + ":" + shared_.target.port);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "application/json, text/event-stream");
    if (!session_id_.empty()) {
      req.set("Mcp-Session-Id", session_id_);
      req.set("MCP-Protocol-Version", protocol_version_);
    }
    req.keep_alive(true);
    req.body() = std::move(body);
    req.prepare_payload();
    co_await http::async_write(stream_, req, asio::use_awaitable);
    http::response<http::string_body> res;
    co_await http::async_read(stream_, buffer_, res, asio::use_awaitable);
    co_return res;
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  Shared& shared_;
  std::string session_id_, protocol_version_;
};

bool parse_url(const std::string& url, Target& t) {
  const std::string prefix = "http://";
  if (url.rfind(prefix, 0) != 0) return false;
  auto rest = url.substr(prefix.size());
  auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  t.path = slash == std::string::npos ? "/" : rest.substr(slash);
  auto colon = authority.rfind(':');
  if (colon == std::string::npos) return false;
  t.host = authority.substr(0, colon);
  t.port = authority.substr(colon + 1);
  if (t.host.size() > 2 && t.host.front() == '[') t.host = t.host.substr(1, t.host.size() - 2);
  return t.host == "127.0.0.1" || t.host == "localhost" || t.host == "::1";
}

// Reports what a coroutine threw (setup or load) and counts it as a failure.
auto count_failure(int& failures, const char* what) {
  return [&failures, what](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "%s%s\n", what, x.what());
    }
    ++failures;
  };
}

// --sessions-only: open N idle sessions one after another, each on a new connection.
int open_sessions_only(Shared& shared, std::size_t sessions) {
  asio::io_context io;
  int failures = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (std::size_t i = 0; i < sessions; ++i) {
          Client c(io.get_executor(), shared);  // a new connection per session, closed after
          co_await c.connect();
          co_await c.open_session(static_cast<int>(i));
        }
      },
      count_failure(failures, ""));
  io.run();
  std::printf("{\"sessions_opened\":%zu,\"failed\":%d}\n", sessions, failures);
  return failures ? 1 : 0;
}

void print_report(Shared& shared, std::size_t clients, int failures, double elapsed) {
  auto& lat = shared.latencies_us;
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double p) -> double {
    if (lat.empty()) return 0.0;
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(lat.size()));
    return static_cast<double>(lat[std::min(lat.size() - 1, rank)]);
  };
  const double answered = static_cast<double>(lat.size());
  std::printf(
      "{\"clients\":%zu,\"what\":\"%s\",\"ok\":%zu,\"errors\":%zu,\"connection_failures\":%d,"
      "\"seconds\":%.3f,\"rps\":%.1f,\"p50_us\":%.0f,\"p90_us\":%.0f,\"p99_us\":%.0f,\"max_us\":%.0f}\n",
      clients, shared.tool.empty() ? shared.method.c_str() : ("tools/call " + shared.tool).c_str(), lat.size(),
      shared.errors, failures, elapsed, answered / std::max(elapsed, 1e-9), pct(0.50), pct(0.90), pct(0.99),
      lat.empty() ? 0.0 : static_cast<double>(lat.back()));
}

// Phase 1: connect and initialize every client; phase 2: load, all clients at once.
int run_load(Shared& shared, std::size_t clients, std::size_t requests, double seconds) {
  asio::io_context io;
  shared.max_requests = requests;
  int failures = 0;
  std::vector<std::unique_ptr<Client>> pool;
  for (std::size_t i = 0; i < clients; ++i) pool.push_back(std::make_unique<Client>(io.get_executor(), shared));
  std::size_t ready = 0;
  Clock::time_point load_start;
  for (std::size_t i = 0; i < clients; ++i) {
    asio::co_spawn(
        io,
        [&, i]() -> asio::awaitable<void> {
          co_await pool[i]->connect();
          co_await pool[i]->open_session(static_cast<int>(i));
          if (++ready == clients) {
            load_start = Clock::now();
            shared.deadline =
                load_start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
            for (auto& c : pool) asio::co_spawn(io, c->run_load(), count_failure(failures, "load: "));
          }
        },
        count_failure(failures, "setup: "));
  }
  io.run();
  print_report(shared, clients, failures, std::chrono::duration<double>(Clock::now() - load_start).count());
  return (failures || shared.errors) ? 1 : 0;
}

int run(int argc, char** argv) {
  CLI::App app{"Closed-loop MCP Streamable HTTP load client (loopback only)"};
  std::string url;
  std::size_t clients = 1, requests = 10000, sessions_only = 0;
  double seconds = 10;
  Shared shared;
  app.add_option("--url", url, "http://127.0.0.1:PORT/mcp")->required();
  app.add_option("--clients", clients, "Concurrent clients (one session + connection each)");
  app.add_option("--requests", requests, "Total requests (bound)");
  app.add_option("--seconds", seconds, "Time bound");
  app.add_option("--method", shared.method, "JSON-RPC method to send (default ping)");
  app.add_option("--tool", shared.tool, "Call this tool (no arguments) instead of --method");
  app.add_option("--sessions-only", sessions_only, "Only open N idle sessions, then exit");
  CLI11_PARSE(app, argc, argv);
  if (!parse_url(url, shared.target)) {
    std::fprintf(stderr, "bench_http_load: --url must be http://127.0.0.1|localhost|[::1]:PORT/path\n");
    return 2;
  }
  if (clients < 1 || clients > 1024 || sessions_only > 100000) {
    std::fprintf(stderr, "bench_http_load: --clients must be 1..1024, --sessions-only <= 100000\n");
    return 2;
  }
  if (sessions_only > 0) return open_sessions_only(shared, sessions_only);
  return run_load(shared, clients, requests, seconds);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_http_load: %s\n", e.what());
    return 1;
  }
}
