#include "tools/radio/radio_stream.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ha/ws_command.hpp"

namespace hamcp::tools::radio {

namespace asio = boost::asio;

ToolError not_repeated(const std::string& what, const std::string& check) {
  return ToolError{"write_outcome_unknown",
                   "The connection to Home Assistant dropped during the " + what +
                       "; it was not repeated (hamcp never sends a write twice), so how far it got is unknown.",
                   check, json::object{{"repeated", false}}};
}

asio::awaitable<std::uint64_t> subscribe_command(ToolEnv& env, json::object message, ha::WsClient::EventHandler handler,
                                                 std::shared_ptr<std::atomic<bool>> lost, std::string what,
                                                 std::string check) {
  auto on_event = [handler = std::move(handler), lost](json::value& event, bool first) {
    if (ha::ended_by(event)) {
      *lost = true;  // the connection dropped: no more events, and it is not sent again
      return;
    }
    handler(event, first);
  };
  try {
    auto subscribing = env.ha.subscribe(ha::command_subscription(std::move(message)), std::move(on_event));
    const std::uint64_t handle = co_await std::move(subscribing);
    co_return handle;
  } catch (const ha::HaException& e) {
    if (e.error().cause != ha::ErrorCause::connection_lost) throw;
  }
  throw ToolException(not_repeated(what, check));
}

asio::awaitable<void> listen_until(std::chrono::steady_clock::time_point deadline, const std::atomic<bool>& lost,
                                   std::function<bool()> done) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  while (!lost && !done() && std::chrono::steady_clock::now() < deadline) {
    timer.expires_after(std::chrono::milliseconds(100));
    co_await timer.async_wait(asio::use_awaitable);
  }
}

}  // namespace hamcp::tools::radio
