#include "mcp/http/oauth/oauth_grants.hpp"

#include <fcntl.h>
#include <openssl/sha.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "mcp/http/session_token.hpp"
#include "mcp/json.hpp"

namespace hamcp::mcp::http::oauth {
namespace {

constexpr std::chrono::minutes kLoginLifetime{10};
constexpr std::chrono::seconds kCodeLifetime{120};
constexpr auto kForever = Clock::time_point::max();

std::int64_t to_seconds(Clock::time_point t) {
  if (t == kForever) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}
Clock::time_point from_seconds(std::int64_t s) {
  return s == 0 ? kForever : Clock::time_point(std::chrono::seconds(s));
}

// Written to a fresh 0600 file, then renamed over the old one: never partly
// written, never readable by others, never through a symlink.
void write_private_file(const std::filesystem::path& path, const std::string& contents) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp.string());
  const bool written = ::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size());
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot write " + path.string());
}

template <class Map>
void drop_expired(Map& map) {
  const auto now = Clock::now();
  std::erase_if(map, [&](const auto& entry) { return entry.second.expires < now; });
}

}  // namespace

std::string random_token(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  random_bytes(raw.data(), raw.size());
  return base64url_encode(raw.data(), raw.size());
}

std::string sha256_hex(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += hex[b >> 4];
    out += hex[b & 0xfu];
  }
  return out;
}

bool pkce_s256_matches(std::string_view verifier, std::string_view challenge) {
  // RFC 7636 §4.1: 43..128 characters.
  if (verifier.size() < 43 || verifier.size() > 128) return false;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return constant_time_equal(base64url_encode(digest, sizeof digest), challenge);
}

Grants::Grants(std::filesystem::path file) : file_(std::move(file)) { load(); }

std::string Grants::register_client(Client client) {
  std::lock_guard lock(mutex_);
  std::string id = "hamcp-" + random_token(16);
  clients_[id] = std::move(client);
  save();
  return id;
}

std::optional<Client> Grants::client(std::string_view client_id) const {
  std::lock_guard lock(mutex_);
  auto it = clients_.find(client_id);
  if (it == clients_.end()) return std::nullopt;
  return it->second;
}

std::string Grants::begin_login(PendingLogin login) {
  std::lock_guard lock(mutex_);
  drop_expired(logins_);
  login.expires = Clock::now() + kLoginLifetime;
  std::string state = random_token(24);
  logins_[state] = std::move(login);
  return state;
}

std::optional<PendingLogin> Grants::take_login(std::string_view state) {
  std::lock_guard lock(mutex_);
  drop_expired(logins_);
  auto it = logins_.find(state);
  if (it == logins_.end()) return std::nullopt;
  PendingLogin out = std::move(it->second);
  logins_.erase(it);
  return out;
}

std::string Grants::issue_code(CodeGrant grant) {
  std::lock_guard lock(mutex_);
  drop_expired(codes_);
  grant.expires = Clock::now() + kCodeLifetime;
  std::string code = random_token(32);
  codes_[sha256_hex(code)] = std::move(grant);
  return code;
}

std::optional<CodeGrant> Grants::take_code(std::string_view code) {
  std::lock_guard lock(mutex_);
  drop_expired(codes_);
  auto it = codes_.find(sha256_hex(code));
  if (it == codes_.end()) return std::nullopt;
  CodeGrant out = std::move(it->second);
  codes_.erase(it);
  return out;
}

IssuedTokens Grants::issue_tokens(const std::string& user, const std::string& client_id) {
  std::lock_guard lock(mutex_);
  IssuedTokens out{random_token(32), random_token(32), static_cast<long>(kAccessLifetime.count())};
  const std::string family = random_token(12);
  tokens_[sha256_hex(out.access_token)] = Token{user, client_id, family, Clock::now() + kAccessLifetime, false, false};
  tokens_[sha256_hex(out.refresh_token)] = Token{user, client_id, family, kForever, true, false};
  save();
  return out;
}

std::optional<IssuedTokens> Grants::rotate(std::string_view refresh_token, std::string_view client_id) {
  std::unique_lock lock(mutex_);
  auto it = tokens_.find(sha256_hex(refresh_token));
  if (it == tokens_.end() || !it->second.refresh || it->second.client_id != client_id) return std::nullopt;
  if (it->second.used) {  // replayed: someone else has a copy; end the whole family
    spdlog::warn("oauth: a rotated refresh token was used again; its grant is revoked");
    end_family(it->second.family);
    save();
    return std::nullopt;
  }
  it->second.used = true;
  const Token old = it->second;
  IssuedTokens out{random_token(32), random_token(32), static_cast<long>(kAccessLifetime.count())};
  tokens_[sha256_hex(out.access_token)] = Token{old.user, old.client_id, old.family, Clock::now() + kAccessLifetime};
  tokens_[sha256_hex(out.refresh_token)] = Token{old.user, old.client_id, old.family, kForever, true, false};
  save();
  return out;
}

void Grants::end_family(std::string family) {  // a copy: it may live in an erased entry
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second.family == family; });
}

std::optional<std::string> Grants::revoke(std::string_view token) {
  std::lock_guard lock(mutex_);
  auto it = tokens_.find(sha256_hex(token));
  if (it == tokens_.end()) return std::nullopt;
  if (!it->second.refresh) {
    tokens_.erase(it);
    save();
    return std::nullopt;
  }
  std::string user = it->second.user;
  end_family(it->second.family);
  save();
  return user;
}

std::optional<std::string> Grants::user_of_access_token(std::string_view token) const {
  std::lock_guard lock(mutex_);
  auto it = tokens_.find(sha256_hex(token));
  if (it == tokens_.end() || it->second.refresh || it->second.expires < Clock::now()) return std::nullopt;
  return it->second.user;
}

void Grants::save() const {
  if (file_.empty()) return;
  json::object clients, tokens;
  for (const auto& [id, c] : clients_) {
    json::array uris;
    for (const auto& u : c.redirect_uris) uris.emplace_back(u);
    clients[id] = json::object{{"name", c.name}, {"redirect_uris", std::move(uris)}};
  }
  for (const auto& [hash, t] : tokens_) {
    tokens[hash] = json::object{{"user", t.user},       {"client_id", t.client_id},
                                {"family", t.family},   {"expires", to_seconds(t.expires)},
                                {"refresh", t.refresh}, {"used", t.used}};
  }
  try {
    write_private_file(file_, json::serialize(json::object{{"clients", clients}, {"tokens", tokens}}));
  } catch (const std::exception& e) {
    spdlog::error("oauth: {} (grants are kept in memory only)", e.what());
  }
}

void Grants::load() {
  if (file_.empty() || !std::filesystem::exists(file_)) return;
  std::ifstream in(file_);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto doc = json::parse(text.str(), ec);
  if (ec || !doc.is_object()) {
    spdlog::warn("oauth: {} is unreadable; starting without registered clients", file_.string());
    return;
  }
  try {
    load_from(doc.as_object());
  } catch (const std::exception&) {
    spdlog::warn("oauth: {} is malformed; starting without registered clients", file_.string());
    clients_.clear();
    tokens_.clear();
  }
}

void Grants::load_from(const json::object& doc) {
  if (auto* clients = doc.if_contains("clients"); clients && clients->is_object()) {
    for (const auto& [id, c] : clients->as_object()) {
      Client client{std::string(c.at("name").as_string()), {}};
      for (const auto& u : c.at("redirect_uris").as_array()) client.redirect_uris.emplace_back(u.as_string());
      clients_[std::string(id)] = std::move(client);
    }
  }
  if (auto* tokens = doc.if_contains("tokens"); tokens && tokens->is_object()) {
    for (const auto& [hash, t] : tokens->as_object()) {
      tokens_[std::string(hash)] = Token{std::string(t.at("user").as_string()),
                                         std::string(t.at("client_id").as_string()),
                                         std::string(t.at("family").as_string()),
                                         from_seconds(t.at("expires").as_int64()),
                                         t.at("refresh").as_bool(),
                                         t.at("used").as_bool()};
    }
  }
}

}  // namespace hamcp::mcp::http::oauth
