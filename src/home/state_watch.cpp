#include "home/state_watch.hpp"

#include <algorithm>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace hamcp::home {

namespace asio = boost::asio;

struct StateWatch::Waiter {
  std::vector<std::string> ids;
  Predicate pred;
  std::shared_ptr<asio::steady_timer> timer;
  std::atomic<bool> satisfied{false};
};

StateWatch::StateWatch(ha::HaClient& ha) : ha_(ha) {
  listener_ =
      ha_.add_change_listener([shared = shared_](const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot) {
        on_change(*shared, changes, snapshot);
      });
}

StateWatch::~StateWatch() { detach(); }

void StateWatch::detach() {
  if (listener_ == 0) return;
  ha_.remove_change_listener(listener_);
  listener_ = 0;
}

std::size_t StateWatch::waiting() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->waiters.size();
}

void StateWatch::on_change(Shared& shared, const ha::ChangeSet& changes, const ha::SnapshotPtr& snapshot) {
  if (!snapshot) return;
  std::vector<std::shared_ptr<Waiter>> wake;
  {
    std::lock_guard lock(shared.mutex);
    for (const auto& w : shared.waiters) {
      if (w->satisfied.load()) continue;
      bool touched = changes.full_resync;
      for (const auto* list : {&changes.states_added, &changes.states_changed, &changes.states_removed}) {
        for (const auto& id : *list) {
          if (touched) break;
          touched = std::find(w->ids.begin(), w->ids.end(), id) != w->ids.end();
        }
      }
      if (touched && w->pred(*snapshot)) {
        w->satisfied.store(true);
        wake.push_back(w);
      }
    }
  }
  // The timer belongs to the waiting coroutine's executor: cancel it there.
  for (auto& w : wake) asio::post(w->timer->get_executor(), [t = w->timer] { t->cancel(); });
}

asio::awaitable<StateWatch::Outcome> StateWatch::wait_for(std::vector<std::string> entity_ids, Predicate pred,
                                                          std::chrono::milliseconds timeout) {
  auto executor = co_await asio::this_coro::executor;
  auto waiter = std::make_shared<Waiter>();
  waiter->ids = std::move(entity_ids);
  waiter->pred = std::move(pred);
  waiter->timer = std::make_shared<asio::steady_timer>(executor);
  waiter->timer->expires_after(timeout);
  {
    std::lock_guard lock(shared_->mutex);
    shared_->waiters.push_back(waiter);
  }
  struct Unregister {
    std::shared_ptr<Shared> shared;
    std::shared_ptr<Waiter> w;
    ~Unregister() {
      std::lock_guard lock(shared->mutex);
      auto& v = shared->waiters;
      v.erase(std::remove(v.begin(), v.end(), w), v.end());
    }
  } unregister{shared_, waiter};

  ha::SnapshotPtr now = ha_.snapshot();
  if (waiter->pred(*now)) co_return Outcome{true, now};
  if (timeout.count() > 0) {
    auto [ec] = co_await waiter->timer->async_wait(asio::as_tuple(asio::use_awaitable));
    // operation_aborted is either our wake-up (satisfied) or the client's
    // cancellation; the latter must abort the call.
    if (ec == asio::error::operation_aborted && !waiter->satisfied.load()) {
      auto state = co_await asio::this_coro::cancellation_state;
      if (state.cancelled() != asio::cancellation_type::none) throw boost::system::system_error(ec);
    }
  }
  ha::SnapshotPtr last = ha_.snapshot();
  const bool ok = waiter->satisfied.load() || waiter->pred(*last);
  co_return Outcome{ok, last};
}

}  // namespace hamcp::home
