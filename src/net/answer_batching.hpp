#pragma once
// When an answer waits for the end of its batch (HttpConnection::write_response).
//
// Under load the loop handles requests in batches: the connections one poll
// found ready. Sent as soon as it is ready, each answer can wake its client
// anew, and a cross-CPU wake-up cost ~3 us of the sender's system time on the
// benchmark VM. Held until the batch ends, the answers leave together, and a
// client with many connections is woken once per batch: +16 % calls/s at 64
// connections (bench/http/THROUGHPUT.md, session 13).
//
// Holding costs an answer the time of the requests handled after it. That pays
// only when there are several. With two sequential clients, each answer
// waited for the other's request while its own client idled: -33 % calls/s,
// p50 113 -> 288 us. So answers are held only in a batch of kHoldFrom requests
// or more, and in the batch after one.
//
// Threading: one per server, touched only on the thread that runs its loop
// (ServerOptions::one_thread; with any other executor answers are never held).

namespace hamcp::net {

class AnswerBatching {
 public:
  static constexpr unsigned kHoldFrom = 3;

  // Disabled: no batch is tracked and no answer is held.
  explicit AnswerBatching(bool enabled = true) : enabled_(enabled) {}

  // A request begins. True for the first of a batch: the caller then posts
  // end_batch(), which runs once the handlers queued by now have run.
  bool begin_request() { return enabled_ && current_++ == 0; }
  void end_batch() {
    previous_ = current_;
    current_ = 0;
  }
  bool hold_answers() const { return current_ >= kHoldFrom || previous_ >= kHoldFrom; }

 private:
  bool enabled_;
  unsigned current_ = 0;   // requests begun in this batch (an end_batch() is posted while > 0)
  unsigned previous_ = 0;  // requests of the batch before
};

}  // namespace hamcp::net
