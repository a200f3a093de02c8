#pragma once
// Server-sent event plumbing shared by the Streamable HTTP and legacy SSE
// transports:
//  - Waiter: wakes one waiting coroutine from any thread, without lost wake-ups.
//  - EventStream: the ordered messages of one SSE stream (one POST's answer, or
//    a session's standalone GET stream), kept in a bounded replay buffer so a
//    client that lost the connection can resume with Last-Event-ID.
//  - sse_event(): the wire format.

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"

namespace hamcp::mcp::http {

class Waiter : public std::enable_shared_from_this<Waiter> {
 public:
  explicit Waiter(asio::any_io_executor executor) : timer_(executor) {}
  // Returns after notify() (also one that happened before the call) or `timeout`.
  asio::awaitable<void> wait(std::chrono::steady_clock::duration timeout);
  // Thread-safe.
  void notify();

 private:
  asio::steady_timer timer_;
  bool notified_ = false;  // touched on the timer's executor only
};

struct StreamEvent {
  std::uint64_t seq = 0;
  std::string data;          // one JSON-RPC message, compact
  bool is_response = false;  // result/error (no "method")
};

class EventStream;

// Where a stream accounts the bytes it buffers (buffer_budget.hpp).
class EventAccount {
 public:
  virtual ~EventAccount() = default;
  // Room for `bytes` more, evicting finished streams if needed. False: no room.
  virtual bool reserve(std::size_t bytes) = 0;
  // Accounts `bytes` even above the budget (the small error that replaces a
  // refused answer: a client must always get its answer).
  virtual void force(std::size_t bytes) = 0;
  virtual void release(std::size_t bytes) = 0;
  // `stream` finished: a candidate for eviction from now on.
  virtual void finished(const std::shared_ptr<EventStream>& stream) = 0;
};

class EventStream : public std::enable_shared_from_this<EventStream> {
 public:
  // No event larger than `max_bytes` is ever stored: a response that large is
  // replaced by an error response naming the limit, a notification is dropped.
  EventStream(std::uint64_t number, std::size_t max_events, std::size_t max_bytes,
              std::shared_ptr<EventAccount> account = nullptr)
      : number_(number), max_events_(max_events), max_bytes_(max_bytes), account_(std::move(account)) {}
  ~EventStream();
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;

  std::uint64_t number() const { return number_; }

  // Producer side (any thread).
  void push(const json::value& message);
  // The same for a message already rendered (Channel::send_text); `shape`
  // carries its ids for a refusal.
  void push_text(std::string text, const json::value& shape);
  void finish();  // no more events

  // Consumer side. Events with seq > after (oldest first, as many as are
  // buffered); `finished` is true when the stream is complete and everything
  // after `after` has been returned.
  struct Batch {
    std::vector<StreamEvent> events;
    bool finished = false;
  };
  Batch read_after(std::uint64_t after);
  std::uint64_t last_seq();
  // Lock-free: HttpSession::new_stream asks every remembered stream on each POST.
  bool finished() const { return finished_.load(std::memory_order_acquire); }

  // The one consumer to wake on new events (nullptr to detach).
  void set_waiter(std::shared_ptr<Waiter> waiter);

  // The standalone stream remembers how far GET streams have read, so a new
  // GET (without Last-Event-ID) gets what nobody has received yet.
  void mark_delivered(std::uint64_t seq);
  std::uint64_t delivered();

  // Back-pressure (Channel::congested): events pushed but not yet written to
  // a client connection. A reader calls note_written after each write; while
  // the backlog is over kCongestedEvents or kCongestedBytes (no reader, or a
  // client that does not read), the session keeps its resources/updated
  // coalesced per uri instead of queueing them here.
  static constexpr std::size_t kCongestedEvents = 64;
  static constexpr std::size_t kCongestedBytes = std::size_t{256} * 1024;
  void note_written(std::uint64_t seq);
  bool congested();

  // Reader attachment (409 for a second GET stream).
  bool try_attach();
  void detach();
  bool attached();

  std::chrono::steady_clock::time_point finished_at();

  // SSE polling (2025-11-25, SEP-1699; Channel::release_connection). A
  // resumable stream is one a client can come back to with Last-Event-ID; on
  // request its reader sends `retry` and ends the connection, the stream goes
  // on collecting events for the client's reconnection.
  void set_resumable() { resumable_.store(true, std::memory_order_release); }
  bool resumable() const { return resumable_.load(std::memory_order_acquire); }
  // False (nothing done) when the stream is not resumable or already finished.
  bool request_release();
  bool release_requested() const { return release_.load(std::memory_order_acquire); }
  void clear_release() { release_.store(false, std::memory_order_release); }

  // Frees the buffered events of a finished stream nobody is reading (memory
  // budget); the stream then counts as forgotten. False if not evictable.
  bool evict();
  bool evicted();
  std::size_t buffered_bytes();

 private:
  const std::uint64_t number_;
  // The event to store instead of `message` when it is too large or the
  // budget has no room; nullopt = drop it (a notification).
  std::optional<StreamEvent> refusal(const json::value& message, std::size_t size, bool too_large);

  const std::size_t max_events_, max_bytes_;
  const std::shared_ptr<EventAccount> account_;
  bool evicted_ = false;
  std::mutex mutex_;
  std::deque<StreamEvent> events_;
  std::size_t bytes_ = 0;
  std::uint64_t next_seq_ = 1;
  std::uint64_t delivered_ = 0;
  std::uint64_t written_ = 0;  // newest seq a reader wrote out
  std::size_t unwritten_events_ = 0, unwritten_bytes_ = 0;
  std::atomic<bool> finished_{false};  // written under mutex_, read without it by finished()
  bool attached_ = false;
  std::atomic<bool> resumable_{false}, release_{false};
  std::chrono::steady_clock::time_point finished_at_{};
  std::shared_ptr<Waiter> waiter_;
};

// "id: <id>\nevent: <event>\ndata: <data>\n\n"; id/event omitted when empty.
// Multi-line data is split into several data: lines.
std::string sse_event(std::string_view id, std::string_view event, std::string_view data);
// "retry: <ms>\n\n": the reconnection delay a client must use (SSE polling).
std::string sse_retry(std::chrono::milliseconds delay);

// Event ids: "<instance>.<stream>.<seq>", unique per session across streams.
std::string make_event_id(std::string_view instance, std::uint64_t stream, std::uint64_t seq);
struct ParsedEventId {
  std::string instance;
  std::uint64_t stream = 0, seq = 0;
};
std::optional<ParsedEventId> parse_event_id(std::string_view id);

}  // namespace hamcp::mcp::http
