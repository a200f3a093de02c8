#pragma once
// Streamable HTTP sessions as the transport keeps them.
//
// A session id is a signed token (session_token.hpp), so accepting one needs no
// store: the registry verifies the signature, checks the revocation list and
// the idle expiry, and either finds the in-memory state or tells the caller to
// rebuild it from the token. In-memory state (the mcp::Session, SSE replay
// buffers) is therefore a cache: evicting it under memory pressure or losing it
// in a restart is harmless.
//
// Idle expiry rule: a token is expired when
//     now - max(created, last use seen by this process) > idle_expiry.
// Last use is tracked in memory only, so after a restart an id unused since
// the restart counts from its creation time. With the long default (30 days)
// that is rare, and an expired id still gets a fresh session on `initialize`.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcp/http/event_stream.hpp"
#include "mcp/http/revocation_list.hpp"
#include "mcp/http/session_state_store.hpp"
#include "mcp/http/session_token.hpp"
#include "mcp/session.hpp"

namespace hamcp::mcp::http {

// Client capability flags <-> the capabilities object of initialize.
std::uint8_t capability_bits(const json::object& client_capabilities);
json::object capabilities_from_bits(std::uint8_t bits);
// The SessionInfo a token describes (for Server::restore_session).
SessionInfo session_info_from(const SessionTokenPayload& payload);

struct ReplayLimits {
  std::size_t events_per_stream = 512;
  std::size_t bytes_per_stream = 8u << 20;
  std::size_t streams_per_session = 16;  // finished POST streams kept for resumption
};

// One session's transport state. Fields below `mutex` are guarded by it;
// `session` is touched on the mcp::Server's executor only.
struct HttpSession {
  // `buffers`: the session's memory account (buffer_budget.hpp); nullptr = unbudgeted.
  HttpSession(std::string key, std::string protocol_version, ReplayLimits limits,
              std::shared_ptr<EventAccount> buffers = nullptr);

  const std::string key;  // nonce hex: registry key and mcp::Session id
  std::string protocol_version;
  const std::string instance;  // random prefix of this object's SSE event ids
  const ReplayLimits limits;
  const std::shared_ptr<EventAccount> buffers;
  std::shared_ptr<Session> session;
  std::atomic<std::size_t> in_flight{0};          // JSON-RPC calls, batch items included
  const std::shared_ptr<EventStream> standalone;  // stream 0: the GET stream

  // A new stream for one POST's answer, remembered for Last-Event-ID resumption.
  std::shared_ptr<EventStream> new_stream();
  // Stream `number` (0 = standalone), if still remembered (not evicted).
  std::shared_ptr<EventStream> find_stream(std::uint64_t number);
  // Ends every stream (session deleted, evicted or server stopping).
  void finish_all();
  void touch();
  std::chrono::steady_clock::time_point last_used();
  bool busy();  // requests in flight or a GET stream attached
  // Binds the session to the OAuth user of its first request naming one
  // (empty: no user, always true). False: another user's request, refused.
  bool bind_principal(const std::string& principal);

 private:
  std::mutex mutex_;
  std::deque<std::shared_ptr<EventStream>> recent_;
  std::uint64_t next_stream_ = 1;
  std::string principal_;
  std::chrono::steady_clock::time_point last_used_;
  friend class SessionRegistry;
};

class SessionRegistry {
 public:
  struct Options {
    std::chrono::seconds idle_expiry{std::chrono::hours(24 * 30)};
    // Live sessions (--max-sessions): at the cap the least recently used idle
    // one is evicted for a new one; when all are busy, new ones are refused.
    std::size_t max_in_memory = 1000;
    std::chrono::seconds memory_idle{std::chrono::minutes(30)};  // drop idle in-memory state after
    std::size_t max_last_seen = 200000;
  };
  SessionRegistry(const SessionKey& key, std::filesystem::path revocation_file, Options options);

  enum class Status { ok, invalid, revoked, expired };
  struct Lookup {
    Status status = Status::invalid;
    std::optional<SessionTokenPayload> payload;
    std::shared_ptr<HttpSession> live;  // nullptr with ok: rebuild from payload
  };
  // Verifies `token`. On ok records the use (idle expiry) and returns the
  // in-memory state if there is one.
  Lookup lookup(std::string_view token);
  std::string issue(const SessionTokenPayload& payload) const { return codec_.issue(payload); }

  // Adds rebuilt or new state. If another request inserted the same key first,
  // returns that one (the caller drops its own). `evicted` receives the idle
  // sessions pushed out by the memory cap (caller shuts them down).
  std::shared_ptr<HttpSession> insert(std::shared_ptr<HttpSession> session,
                                      std::vector<std::shared_ptr<HttpSession>>& evicted);
  // Persists the revocation and forgets the in-memory state (returned, if any).
  std::shared_ptr<HttpSession> revoke(const SessionTokenPayload& payload);
  // In-memory state idle for longer than memory_idle; also prunes last-seen,
  // adding the keys whose ids expired there to `expired` (when given).
  std::vector<std::shared_ptr<HttpSession>> evict_idle(std::vector<std::string>* expired = nullptr);
  std::vector<std::shared_ptr<HttpSession>> take_all();
  // Where sessions' persistent state lives (session_state_store.hpp); a
  // revoked or expired session's record is removed. nullptr: none kept.
  void attach_state_store(std::shared_ptr<SessionStateStore> store) { states_ = std::move(store); }
  const std::shared_ptr<SessionStateStore>& state_store() const { return states_; }

  std::size_t size();
  // False when max_in_memory sessions are live and none is idle (evictable):
  // a new or rebuilt session must then be refused.
  bool has_room();
  // Signatures computed so far (tests: a known id is not verified again).
  std::uint64_t signature_checks();

  // Verified ids remembered (each up to 512 bytes plus its payload); when full the memory starts afresh.
  static constexpr std::size_t kMaxVerifiedIds = 1024;

 private:
  struct Verified {
    SessionTokenPayload payload;
    std::string key;  // payload.nonce_hex()
  };
  // The payload of a genuine id, or nullptr. An id whose signature checked out
  // once is remembered: a session's every request used to recompute the HMAC
  // and decode the id (issue 9, item 6). Only genuine ids (which only this
  // key's holder can mint) are remembered, so garbage cannot fill the memory;
  // revocation and expiry are still checked on every lookup.
  std::shared_ptr<const Verified> verify(std::string_view token);
  bool expired_locked(const SessionTokenPayload& payload, const std::string& key, std::int64_t now_unix);
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  SessionTokenCodec codec_;
  RevocationList revocations_;
  Options options_;
  std::shared_ptr<SessionStateStore> states_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<HttpSession>> live_;
  std::unordered_map<std::string, std::int64_t> last_seen_;  // key -> unix seconds
  std::unordered_map<std::string, std::shared_ptr<const Verified>, StringHash, std::equal_to<>> verified_;
  std::uint64_t signature_checks_ = 0;
};

}  // namespace hamcp::mcp::http
