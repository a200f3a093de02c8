#pragma once
// Self-validating Streamable HTTP session ids.
//
// id = base64url(payload) "." base64url(HMAC-SHA256(key, payload))
//
// The payload carries everything needed to rebuild a session after a restart or
// in another hamcp process that shares the key: a random nonce (the session's
// identity), the creation time, the negotiated protocol version and the client
// capabilities the server may use (sampling, elicitation, roots). No store is
// consulted to accept an id, so sessions cannot be "lost": only revoked
// (DELETE) or expired.

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hamcp::mcp::http {

using SessionKey = std::array<unsigned char, 32>;
using SessionNonce = std::array<unsigned char, 16>;

// Client capabilities worth remembering, one bit each.
enum ClientCapabilityBits : std::uint8_t {
  kCapSampling = 1u << 0,
  kCapElicitationForm = 1u << 1,
  kCapElicitationUrl = 1u << 2,
  kCapRoots = 1u << 3,
  kCapRootsListChanged = 1u << 4,
  kCapSamplingTools = 1u << 5,
  // Not a client capability: the session was made on the read-only endpoint
  // (<path>/readonly). Signed with the rest, so a restart or another replica
  // rebuilds it read-only.
  kSessionReadOnly = 1u << 7,
};

struct SessionTokenPayload {
  SessionNonce nonce{};
  std::int64_t created_unix = 0;  // seconds since the epoch
  std::string protocol_version;   // negotiated, e.g. "2025-11-25" (<= 32 bytes)
  std::uint8_t capabilities = 0;  // ClientCapabilityBits
  std::string client_name;        // clientInfo.name, truncated (informational)
  std::string client_version;     // clientInfo.version, truncated (informational)

  // Hex of the nonce: the session's stable key in memory and in the revocation file.
  std::string nonce_hex() const;
};

// A new payload with a fresh random nonce and the current time.
SessionTokenPayload make_session_payload(std::string protocol_version, std::uint8_t capabilities,
                                         std::string_view client_name = {}, std::string_view client_version = {});

class SessionTokenCodec {
 public:
  explicit SessionTokenCodec(const SessionKey& key) : key_(key) {}

  std::string issue(const SessionTokenPayload& payload) const;
  // nullopt for anything malformed, forged or signed with another key. The MAC is
  // compared in constant time before the payload is parsed.
  std::optional<SessionTokenPayload> verify(std::string_view token) const;

 private:
  SessionKey key_;
};

// Helpers shared with the other secrets (bearer token, event ids).
std::string base64url_encode(const unsigned char* data, std::size_t size);
std::optional<std::string> base64url_decode(std::string_view text);
void random_bytes(unsigned char* out, std::size_t size);  // OpenSSL RAND_bytes; throws on failure
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace hamcp::mcp::http
