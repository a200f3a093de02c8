#include "mcp/http/event_stream.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <charconv>

#include "mcp/http/guarded_log.hpp"

namespace hamcp::mcp::http {

asio::awaitable<void> Waiter::wait(std::chrono::steady_clock::duration timeout) {
  if (notified_) {
    notified_ = false;
    co_return;
  }
  timer_.expires_after(timeout);
  auto [ec] = co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
  (void)ec;
  notified_ = false;
}

void Waiter::notify() {
  // Always hop to the timer's executor: the flag and the timer are only touched
  // there, so a notify racing with wait() is never lost.
  asio::post(timer_.get_executor(), [self = shared_from_this()] {
    self->notified_ = true;
    self->timer_.cancel();
  });
}

namespace {

bool is_response(const json::value& message) {
  return message.is_array() || (message.is_object() && !message.as_object().contains("method"));
}

json::value error_for(const json::value& id, const std::string& text) {
  json::object error;
  error["code"] = -32000;
  error["message"] = text;
  json::object out;
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["error"] = std::move(error);
  return out;
}

}  // namespace

EventStream::~EventStream() {
  if (account_ && bytes_ > 0) account_->release(bytes_);
}

std::optional<StreamEvent> EventStream::refusal(const json::value& message, std::size_t size, bool too_large) {
  if (!is_response(message)) return std::nullopt;  // progress/log: losing one is harmless
  const std::string text =
      too_large ? "Response too large: " + std::to_string(size) + " bytes, above the limit of " +
                      std::to_string(max_bytes_) + " bytes per message; ask for less (filters, a smaller page)"
                : "Server busy: no room to buffer this " + std::to_string(size) +
                      "-byte response (response memory budget reached); retry shortly or ask for less";
  // One error per request, so a batch's client still matches every id.
  json::value replacement;
  if (message.is_array()) {
    json::array errors;
    for (const auto& item : message.as_array()) {
      const auto* id = item.is_object() ? item.as_object().if_contains("id") : nullptr;
      errors.push_back(error_for(id ? *id : json::value(nullptr), text));
    }
    replacement = std::move(errors);
  } else {
    const auto* id = message.as_object().if_contains("id");
    replacement = error_for(id ? *id : json::value(nullptr), text);
  }
  guarded_warn("http: answered a {}-byte response with an error instead: {}", size,
               too_large ? "above the per-message limit" : "response memory budget reached");
  StreamEvent ev;
  ev.data = to_wire(replacement);
  ev.is_response = true;
  if (account_) account_->force(ev.data.size());
  return ev;
}

void EventStream::push(const json::value& message) { push_text(to_wire(message), message); }

void EventStream::push_text(std::string text, const json::value& message) {
  StreamEvent ev;
  ev.data = std::move(text);
  ev.is_response = is_response(message);
  const std::size_t size = ev.data.size();
  const bool too_large = size > max_bytes_;
  if (too_large || (account_ && !account_->reserve(size))) {
    auto replacement = refusal(message, size, too_large);
    if (!replacement) return;
    ev = std::move(*replacement);
  }
  std::shared_ptr<Waiter> w;
  std::size_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    if (finished_) {
      freed = ev.data.size();
    } else {
      ev.seq = next_seq_++;
      bytes_ += ev.data.size();
      ++unwritten_events_;
      unwritten_bytes_ += ev.data.size();
      events_.push_back(std::move(ev));
      // Bounded replay: drop the oldest (the newest always fits: see above).
      while (events_.size() > 1 && (events_.size() > max_events_ || bytes_ > max_bytes_)) {
        if (events_.front().seq > written_) {  // dropped before any reader wrote it
          --unwritten_events_;
          unwritten_bytes_ -= events_.front().data.size();
        }
        bytes_ -= events_.front().data.size();
        freed += events_.front().data.size();
        events_.pop_front();
      }
      w = waiter_;
    }
  }
  if (account_ && freed > 0) account_->release(freed);
  if (w) w->notify();
}

bool EventStream::evict() {
  std::size_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    if (!finished_ || waiter_ || evicted_) return false;
    evicted_ = true;
    freed = bytes_;
    bytes_ = 0;
    events_.clear();
    events_.shrink_to_fit();
  }
  if (account_ && freed > 0) account_->release(freed);
  return true;
}

bool EventStream::evicted() {
  std::lock_guard lock(mutex_);
  return evicted_;
}

std::size_t EventStream::buffered_bytes() {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void EventStream::finish() {
  std::shared_ptr<Waiter> w;
  {
    std::lock_guard lock(mutex_);
    if (finished_.load(std::memory_order_relaxed)) return;
    finished_.store(true, std::memory_order_release);
    finished_at_ = std::chrono::steady_clock::now();
    w = waiter_;
  }
  if (account_) account_->finished(shared_from_this());
  if (w) w->notify();
}

bool EventStream::request_release() {
  std::shared_ptr<Waiter> w;
  {
    std::lock_guard lock(mutex_);
    if (!resumable_.load(std::memory_order_relaxed) || finished_.load(std::memory_order_relaxed)) return false;
    release_.store(true, std::memory_order_release);
    w = waiter_;
  }
  if (w) w->notify();
  return true;
}

std::string sse_retry(std::chrono::milliseconds delay) { return "retry: " + std::to_string(delay.count()) + "\n\n"; }

EventStream::Batch EventStream::read_after(std::uint64_t after) {
  std::lock_guard lock(mutex_);
  Batch b;
  for (const auto& ev : events_) {
    if (ev.seq > after) b.events.push_back(ev);
  }
  b.finished = finished_.load(std::memory_order_relaxed);
  return b;
}

std::uint64_t EventStream::last_seq() {
  std::lock_guard lock(mutex_);
  return next_seq_ - 1;
}

void EventStream::set_waiter(std::shared_ptr<Waiter> waiter) {
  std::lock_guard lock(mutex_);
  waiter_ = std::move(waiter);
}

void EventStream::mark_delivered(std::uint64_t seq) {
  std::lock_guard lock(mutex_);
  if (seq > delivered_) delivered_ = seq;
}

void EventStream::note_written(std::uint64_t seq) {
  std::lock_guard lock(mutex_);
  if (seq <= written_) return;
  // Events are in seq order: the newly written ones sit right after written_.
  for (const StreamEvent& ev : events_) {
    if (ev.seq <= written_) continue;
    if (ev.seq > seq) break;
    --unwritten_events_;
    unwritten_bytes_ -= ev.data.size();
  }
  written_ = seq;
}

bool EventStream::congested() {
  std::lock_guard lock(mutex_);
  return unwritten_events_ > kCongestedEvents || unwritten_bytes_ > kCongestedBytes;
}

std::uint64_t EventStream::delivered() {
  std::lock_guard lock(mutex_);
  return delivered_;
}

bool EventStream::try_attach() {
  std::lock_guard lock(mutex_);
  if (attached_) return false;
  attached_ = true;
  return true;
}

void EventStream::detach() {
  std::lock_guard lock(mutex_);
  attached_ = false;
  waiter_.reset();
}

bool EventStream::attached() {
  std::lock_guard lock(mutex_);
  return attached_;
}

std::chrono::steady_clock::time_point EventStream::finished_at() {
  std::lock_guard lock(mutex_);
  return finished_at_;
}

std::string sse_event(std::string_view id, std::string_view event, std::string_view data) {
  std::string out;
  out.reserve(data.size() + id.size() + event.size() + 24);
  if (!id.empty()) {
    out += "id: ";
    out += id;
    out += '\n';
  }
  if (!event.empty()) {
    out += "event: ";
    out += event;
    out += '\n';
  }
  // Compact JSON has no raw newlines, but keep the framing correct for any text.
  std::size_t start = 0;
  for (;;) {
    const auto nl = data.find('\n', start);
    out += "data: ";
    out += data.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    out += '\n';
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  out += '\n';
  return out;
}

std::string make_event_id(std::string_view instance, std::uint64_t stream, std::uint64_t seq) {
  std::string out(instance);
  out += '.';
  out += std::to_string(stream);
  out += '.';
  out += std::to_string(seq);
  return out;
}

std::optional<ParsedEventId> parse_event_id(std::string_view id) {
  const auto d1 = id.find('.');
  if (d1 == std::string_view::npos || d1 == 0) return std::nullopt;
  const auto d2 = id.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return std::nullopt;
  ParsedEventId out;
  out.instance = std::string(id.substr(0, d1));
  const auto s = id.substr(d1 + 1, d2 - d1 - 1);
  const auto q = id.substr(d2 + 1);
  auto r1 = std::from_chars(s.data(), s.data() + s.size(), out.stream);
  auto r2 = std::from_chars(q.data(), q.data() + q.size(), out.seq);
  if (r1.ec != std::errc() || r1.ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  if (r2.ec != std::errc() || r2.ptr != q.data() + q.size() || q.empty()) return std::nullopt;
  return out;
}

}  // namespace hamcp::mcp::http
