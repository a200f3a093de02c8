#pragma once
// Runs a coroutine on another executor (typically a strand) and resumes the
// caller on its own executor with the result, without letting the caller's
// cancellation reach the other executor.
//
// Why not `co_await co_spawn(strand, op, use_awaitable)`: Boost 1.81's co_spawn
// forwards a cancellation to the target executor by dispatching a handler that
// holds a raw pointer to the spawned coroutine's cancellation signal
// (chriskohlhoff/asio issue 1332). When the spawned coroutine finishes before
// that handler runs, the pointer dangles: a client ending its session while its
// tool calls wait on Home Assistant crashed the server (issue 8, V1).
//
// Here the spawned coroutine has no cancellation slot at all. A cancelled
// caller stops waiting at once (operation_aborted, as Asio would report); the
// spawned work runs on to its own end, bounded by its own timeouts, and its
// result is dropped. All the shared state is owned by a shared_ptr, and the
// caller-side fields are only touched on the caller's executor.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace hamcp::common {

namespace isolated_detail {

namespace asio = boost::asio;

template <class T>
using Stored = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

// The rendezvous between the spawned coroutine and the waiting caller. Lives
// as long as either side still holds it.
template <class T>
struct Rendezvous {
  explicit Rendezvous(asio::any_io_executor caller)
      : caller_executor(caller), wake(caller, asio::steady_timer::time_point::max()) {}
  asio::any_io_executor caller_executor;
  asio::steady_timer wake;  // caller side only: cancelled when the result is in
  std::optional<Stored<T>> value;
  std::exception_ptr error;
  bool done = false;
};

// The completion handler of the spawned coroutine: a plain function object with
// no associated cancellation slot, so co_spawn installs no cancellation
// forwarding. It hands the outcome to the caller's executor, the only place
// the rendezvous' fields are read.
template <class T>
struct HandOver {
  std::shared_ptr<Rendezvous<T>> rv;

  void operator()(std::exception_ptr error) { deliver(error, std::monostate{}); }
  template <class V>
  void operator()(std::exception_ptr error, V value) {
    deliver(error, std::move(value));
  }

  template <class V>
  void deliver(std::exception_ptr error, V value) {
    auto caller = rv->caller_executor;
    asio::post(caller, [rv = std::move(rv), error, value = std::move(value)]() mutable {
      if (!error) rv->value.emplace(std::move(value));
      rv->error = error;
      rv->done = true;
      rv->wake.cancel();
    });
  }
};

}  // namespace isolated_detail

// co_await isolated_await(strand, some_coroutine()) — see the file comment.
template <class T>
boost::asio::awaitable<T> isolated_await(boost::asio::any_io_executor target, boost::asio::awaitable<T> op) {
  namespace asio = boost::asio;
  using isolated_detail::Rendezvous;
  auto caller = co_await asio::this_coro::executor;
  auto rv = std::make_shared<Rendezvous<T>>(caller);
  asio::co_spawn(target, std::move(op), isolated_detail::HandOver<T>{rv});
  while (!rv->done) {
    boost::system::error_code ec;
    co_await rv->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (rv->done) break;
    auto state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none)
      throw boost::system::system_error(asio::error::operation_aborted);
  }
  if (rv->error) std::rethrow_exception(rv->error);
  if constexpr (!std::is_void_v<T>) co_return std::move(*rv->value);
}

}  // namespace hamcp::common
