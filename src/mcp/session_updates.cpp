// A Session's resources/updated notifications: queued per uri (coalesced,
// bounded: update_queue.hpp) and sent on a later turn of the executor, a batch
// at a time, only while the standalone channel keeps up with them.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcp/server.hpp"
#include "mcp/session.hpp"

namespace hamcp::mcp {

namespace {
// Notifications sent per executor turn: a burst over many uris yields to
// other work between batches.
constexpr std::size_t kFlushBatch = 256;
}  // namespace

void Session::queue_resource_update(std::string_view uri) {
  if (state_ != State::ready || !subscriptions_.count(std::string(uri))) return;
  if (updates_.mark(uri) != UpdateQueue::Mark::queued || updates_.flush_scheduled) return;
  schedule_update_flush(std::chrono::milliseconds(0));
}

void Session::schedule_update_flush(std::chrono::milliseconds delay) {
  updates_.flush_scheduled = true;
  std::weak_ptr<Session> weak = weak_from_this();
  if (delay.count() == 0) {
    asio::post(core_->executor, [weak] {
      if (auto self = weak.lock()) self->flush_updates();
    });
    return;
  }
  auto timer = std::make_shared<asio::steady_timer>(core_->executor, delay);
  timer->async_wait([weak, timer](const boost::system::error_code&) {
    if (auto self = weak.lock()) self->flush_updates();
  });
}

void Session::flush_updates() {
  updates_.flush_scheduled = false;
  if (state_ != State::ready || !standalone_ || !standalone_->is_open()) {
    updates_.clear();  // nobody to tell: sends would be dropped anyway
    return;
  }
  if (standalone_->congested()) {
    const ServerOptions& options = core_->options;
    schedule_update_flush(
        congested_delay(options.congested_retry, options.congested_retry_max, updates_.congested_retries++));
    return;
  }
  updates_.congested_retries = 0;
  for (std::string& uri : updates_.take(kFlushBatch)) {
    json::object params;
    params.emplace("uri", std::move(uri));
    notify("notifications/resources/updated", std::move(params));
  }
  if (!updates_.empty()) schedule_update_flush(std::chrono::milliseconds(0));
}

}  // namespace hamcp::mcp
