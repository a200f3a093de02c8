#pragma once
// A place the server can write messages to. A transport wraps each of its
// outputs in a Channel: stdout (stdio), one POST's response (JSON body or SSE
// stream), the standalone GET SSE stream, a legacy SSE stream.

#include "mcp/json.hpp"

namespace hamcp::mcp {

class Channel {
 public:
  virtual ~Channel() = default;
  // Queue one JSON-RPC message (object, or array for a batch response). Must not
  // block; called on the server's executor. The message is moved in: serialise
  // it with to_wire() (compact).
  virtual void send(json::value message) = 0;
  // The same, for a message already written as compact JSON text (a batch
  // response assembled from responses rendered as each call finished, so no
  // one handler serialises a whole large batch). `shape` is the message with
  // each response's result left out ({"jsonrpc","id"} per item; an array for
  // a batch): what a transport needs to look at (ids, is it a response). The
  // default parses the text back; transports that write text override it.
  virtual void send_text(std::string text, const json::value& shape) {
    (void)shape;
    send(json::parse(text));
  }
  // The exchange this channel was handed for is complete (final response sent,
  // or nothing to send for a notification). stdout ignores it; an HTTP POST
  // ends its body / SSE stream. Called exactly once per deliver().
  virtual void close() {}
  // False once the peer is gone: sends are then dropped by the caller.
  virtual bool is_open() const { return true; }
  // True while the peer is not reading what was already queued (a slow or
  // stalled client): unsolicited traffic that can wait (resources/updated)
  // waits in the session, coalesced and bounded, instead of piling up here.
  virtual bool congested() const { return false; }
  // 2025-11-25 SSE polling (SEP-1699): end the connection carrying this
  // channel (an HTTP SSE stream whose event ids the client holds) with a
  // `retry` hint, while the exchange goes on; the client reconnects with
  // Last-Event-ID and gets the rest. False (nothing done) where a transport
  // cannot resume: stdio, JSON bodies, older protocol versions.
  virtual bool release_connection() { return false; }
};

}  // namespace hamcp::mcp
