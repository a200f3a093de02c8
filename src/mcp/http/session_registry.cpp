#include "mcp/http/session_registry.hpp"

#include <algorithm>

#include "common/iso_time.hpp"

namespace hamcp::mcp::http {
namespace {

std::string random_hex(std::size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::vector<unsigned char> buf(bytes);
  random_bytes(buf.data(), buf.size());
  std::string out;
  for (unsigned char c : buf) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

}  // namespace

std::uint8_t capability_bits(const json::object& caps) {
  std::uint8_t bits = 0;
  if (const auto* s = caps.if_contains("sampling")) {
    bits |= kCapSampling;
    if (s->is_object() && s->as_object().contains("tools")) bits |= kCapSamplingTools;
  }
  if (const auto* e = caps.if_contains("elicitation")) {
    // An empty elicitation object means form mode (2025-11-25 backwards compatibility).
    const bool has_form = !e->is_object() || e->as_object().empty() || e->as_object().contains("form");
    if (has_form) bits |= kCapElicitationForm;
    if (e->is_object() && e->as_object().contains("url")) bits |= kCapElicitationUrl;
  }
  if (const auto* r = caps.if_contains("roots")) {
    bits |= kCapRoots;
    if (r->is_object()) {
      const auto* lc = r->as_object().if_contains("listChanged");
      if (lc && lc->is_bool() && lc->as_bool()) bits |= kCapRootsListChanged;
    }
  }
  return bits;
}

json::object capabilities_from_bits(std::uint8_t bits) {
  json::object caps;
  if (bits & kCapSampling) {
    json::object s;
    if (bits & kCapSamplingTools) s["tools"] = json::object();
    caps["sampling"] = std::move(s);
  }
  if (bits & (kCapElicitationForm | kCapElicitationUrl)) {
    json::object e;
    if (bits & kCapElicitationForm) e["form"] = json::object();
    if (bits & kCapElicitationUrl) e["url"] = json::object();
    caps["elicitation"] = std::move(e);
  }
  if (bits & kCapRoots) {
    json::object r;
    if (bits & kCapRootsListChanged) r["listChanged"] = true;
    caps["roots"] = std::move(r);
  }
  return caps;
}

SessionInfo session_info_from(const SessionTokenPayload& payload) {
  SessionInfo info;
  info.protocol_version = payload.protocol_version;
  if (!payload.client_name.empty()) info.client_info["name"] = payload.client_name;
  if (!payload.client_version.empty()) info.client_info["version"] = payload.client_version;
  info.client_capabilities = capabilities_from_bits(payload.capabilities);
  info.read_only = (payload.capabilities & kSessionReadOnly) != 0;
  return info;
}

HttpSession::HttpSession(std::string k, std::string version, ReplayLimits l, std::shared_ptr<EventAccount> b)
    : key(std::move(k)),
      protocol_version(std::move(version)),
      instance(random_hex(4)),
      limits(l),
      buffers(std::move(b)),
      standalone(std::make_shared<EventStream>(0, l.events_per_stream, l.bytes_per_stream, buffers)),
      last_used_(std::chrono::steady_clock::now()) {}

std::shared_ptr<EventStream> HttpSession::new_stream() {
  std::lock_guard lock(mutex_);
  auto s = std::make_shared<EventStream>(next_stream_++, limits.events_per_stream, limits.bytes_per_stream, buffers);
  recent_.push_back(s);
  // Forget the oldest finished streams beyond the limit (unfinished ones stay:
  // their requests are still running and the client may come back for them).
  std::size_t finished = 0;
  for (auto& r : recent_) finished += r->finished() ? 1 : 0;
  for (auto it = recent_.begin(); it != recent_.end() && finished > limits.streams_per_session;) {
    if ((*it)->finished()) {
      it = recent_.erase(it);
      --finished;
    } else {
      ++it;
    }
  }
  return s;
}

std::shared_ptr<EventStream> HttpSession::find_stream(std::uint64_t number) {
  if (number == 0) return standalone;
  std::lock_guard lock(mutex_);
  for (auto& s : recent_) {
    if (s->number() == number) return s->evicted() ? nullptr : s;
  }
  return nullptr;
}

void HttpSession::finish_all() {
  std::deque<std::shared_ptr<EventStream>> streams;
  {
    std::lock_guard lock(mutex_);
    streams = recent_;
  }
  for (auto& s : streams) s->finish();
  standalone->finish();
}

bool HttpSession::bind_principal(const std::string& principal) {
  if (principal.empty()) return true;
  std::lock_guard lock(mutex_);
  if (principal_.empty()) principal_ = principal;
  return principal_ == principal;
}

void HttpSession::touch() {
  std::lock_guard lock(mutex_);
  last_used_ = std::chrono::steady_clock::now();
}

std::chrono::steady_clock::time_point HttpSession::last_used() {
  std::lock_guard lock(mutex_);
  return last_used_;
}

bool HttpSession::busy() { return in_flight.load() > 0 || standalone->attached(); }

SessionRegistry::SessionRegistry(const SessionKey& key, std::filesystem::path revocation_file, Options options)
    : codec_(key), revocations_(std::move(revocation_file), options.idle_expiry), options_(options) {}

bool SessionRegistry::expired_locked(const SessionTokenPayload& payload, const std::string& key, std::int64_t now) {
  std::int64_t last = payload.created_unix;
  if (auto it = last_seen_.find(key); it != last_seen_.end()) last = std::max(last, it->second);
  return now - last > options_.idle_expiry.count();
}

std::shared_ptr<const SessionRegistry::Verified> SessionRegistry::verify(std::string_view token) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = verified_.find(token); it != verified_.end()) return it->second;
    ++signature_checks_;
  }
  auto payload = codec_.verify(token);  // outside the lock: the HMAC is the expensive part
  if (!payload) return nullptr;
  std::string key = payload->nonce_hex();
  auto entry = std::make_shared<const Verified>(Verified{std::move(*payload), std::move(key)});
  std::lock_guard lock(mutex_);
  if (verified_.size() >= kMaxVerifiedIds) verified_.clear();
  verified_.emplace(std::string(token), entry);
  return entry;
}

std::uint64_t SessionRegistry::signature_checks() {
  std::lock_guard lock(mutex_);
  return signature_checks_;
}

SessionRegistry::Lookup SessionRegistry::lookup(std::string_view token) {
  Lookup out;
  const auto verified = verify(token);
  if (!verified) return out;
  out.payload = verified->payload;
  const std::string& key = verified->key;
  if (revocations_.is_revoked(key)) {
    out.status = Status::revoked;
    if (states_) states_->remove(key);
    return out;
  }
  const std::int64_t now = common::now_unix_seconds();
  std::unique_lock lock(mutex_);
  if (expired_locked(*out.payload, key, now)) {
    out.status = Status::expired;
    lock.unlock();
    if (states_) states_->remove(key);
    return out;
  }
  out.status = Status::ok;
  if (last_seen_.size() < options_.max_last_seen || last_seen_.count(key)) last_seen_[key] = now;
  if (auto it = live_.find(key); it != live_.end()) {
    out.live = it->second;
    out.live->touch();
  }
  return out;
}

std::shared_ptr<HttpSession> SessionRegistry::insert(std::shared_ptr<HttpSession> session,
                                                     std::vector<std::shared_ptr<HttpSession>>& evicted) {
  std::lock_guard lock(mutex_);
  if (auto it = live_.find(session->key); it != live_.end()) return it->second;
  if (last_seen_.size() < options_.max_last_seen) last_seen_[session->key] = common::now_unix_seconds();
  // Memory cap: push out the least recently used idle sessions. Busy ones stay
  // even over the cap: serving is more important than the bound.
  while (live_.size() >= options_.max_in_memory) {
    std::shared_ptr<HttpSession> oldest;
    for (auto& [k, s] : live_) {
      if (s->busy()) continue;
      if (!oldest || s->last_used() < oldest->last_used()) oldest = s;
    }
    if (!oldest) break;
    live_.erase(oldest->key);
    evicted.push_back(std::move(oldest));
  }
  live_.emplace(session->key, session);
  return session;
}

std::shared_ptr<HttpSession> SessionRegistry::revoke(const SessionTokenPayload& payload) {
  const std::string key = payload.nonce_hex();
  revocations_.revoke(key);
  if (states_) states_->remove(key);
  std::lock_guard lock(mutex_);
  last_seen_.erase(key);
  auto it = live_.find(key);
  if (it == live_.end()) return nullptr;
  auto s = std::move(it->second);
  live_.erase(it);
  return s;
}

std::vector<std::shared_ptr<HttpSession>> SessionRegistry::evict_idle(std::vector<std::string>* expired) {
  std::vector<std::shared_ptr<HttpSession>> out;
  const auto now = std::chrono::steady_clock::now();
  const std::int64_t now_s = common::now_unix_seconds();
  std::lock_guard lock(mutex_);
  for (auto it = live_.begin(); it != live_.end();) {
    if (!it->second->busy() && now - it->second->last_used() > options_.memory_idle) {
      out.push_back(std::move(it->second));
      it = live_.erase(it);
    } else {
      ++it;
    }
  }
  std::erase_if(last_seen_, [&](const auto& e) {
    if (now_s - e.second <= options_.idle_expiry.count()) return false;
    if (expired) expired->push_back(e.first);
    return true;
  });
  return out;
}

std::vector<std::shared_ptr<HttpSession>> SessionRegistry::take_all() {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<HttpSession>> out;
  for (auto& [k, s] : live_) out.push_back(std::move(s));
  live_.clear();
  return out;
}

bool SessionRegistry::has_room() {
  std::lock_guard lock(mutex_);
  if (live_.size() < options_.max_in_memory) return true;
  for (auto& [key, session] : live_)
    if (!session->busy()) return true;
  return false;
}

std::size_t SessionRegistry::size() {
  std::lock_guard lock(mutex_);
  return live_.size();
}

}  // namespace hamcp::mcp::http
