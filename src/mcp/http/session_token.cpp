#include "mcp/http/session_token.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace hamcp::mcp::http {
namespace {

constexpr unsigned char kPayloadFormat = 1;
constexpr std::size_t kMaxVersionLen = 32;
constexpr std::size_t kMaxClientFieldLen = 48;
constexpr std::size_t kMacLen = 32;
// Anything longer is not one of our ids; refuse before doing any work.
constexpr std::size_t kMaxTokenLen = 512;

void append_field(std::string& out, std::string_view value, std::size_t limit) {
  if (value.size() > limit) value = value.substr(0, limit);
  out.push_back(static_cast<char>(value.size()));
  out.append(value);
}

bool read_field(std::string_view& in, std::string& value, std::size_t limit) {
  if (in.empty()) return false;
  const auto len = static_cast<unsigned char>(in.front());
  in.remove_prefix(1);
  if (len > limit || in.size() < len) return false;
  value.assign(in.substr(0, len));
  in.remove_prefix(len);
  return true;
}

std::string serialize(const SessionTokenPayload& p) {
  std::string out;
  out.push_back(static_cast<char>(kPayloadFormat));
  out.append(reinterpret_cast<const char*>(p.nonce.data()), p.nonce.size());
  const auto created = static_cast<std::uint64_t>(p.created_unix);
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((created >> shift) & 0xff));
  out.push_back(static_cast<char>(p.capabilities));
  append_field(out, p.protocol_version, kMaxVersionLen);
  append_field(out, p.client_name, kMaxClientFieldLen);
  append_field(out, p.client_version, kMaxClientFieldLen);
  return out;
}

std::optional<SessionTokenPayload> deserialize(std::string_view in) {
  SessionTokenPayload p;
  if (in.size() < 1 + 16 + 8 + 1) return std::nullopt;
  if (static_cast<unsigned char>(in[0]) != kPayloadFormat) return std::nullopt;
  in.remove_prefix(1);
  for (std::size_t i = 0; i < p.nonce.size(); ++i) p.nonce[i] = static_cast<unsigned char>(in[i]);
  in.remove_prefix(p.nonce.size());
  std::uint64_t created = 0;
  for (int i = 0; i < 8; ++i) created = (created << 8) | static_cast<unsigned char>(in[i]);
  in.remove_prefix(8);
  p.created_unix = static_cast<std::int64_t>(created);
  p.capabilities = static_cast<std::uint8_t>(in[0]);
  in.remove_prefix(1);
  if (!read_field(in, p.protocol_version, kMaxVersionLen)) return std::nullopt;
  if (!read_field(in, p.client_name, kMaxClientFieldLen)) return std::nullopt;
  if (!read_field(in, p.client_version, kMaxClientFieldLen)) return std::nullopt;
  if (!in.empty()) return std::nullopt;
  return p;
}

std::string mac(const SessionKey& key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int out_len = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
           data.size(), out, &out_len) == nullptr ||
      out_len != kMacLen) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return std::string(reinterpret_cast<const char*>(out), out_len);
}

}  // namespace

std::string SessionTokenPayload::nonce_hex() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(nonce.size() * 2);
  for (unsigned char c : nonce) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

SessionTokenPayload make_session_payload(std::string protocol_version, std::uint8_t capabilities,
                                         std::string_view client_name, std::string_view client_version) {
  SessionTokenPayload p;
  random_bytes(p.nonce.data(), p.nonce.size());
  p.created_unix =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (protocol_version.size() > kMaxVersionLen) protocol_version.resize(kMaxVersionLen);
  p.protocol_version = std::move(protocol_version);
  p.capabilities = capabilities;
  p.client_name = std::string(client_name.substr(0, kMaxClientFieldLen));
  p.client_version = std::string(client_version.substr(0, kMaxClientFieldLen));
  return p;
}

std::string SessionTokenCodec::issue(const SessionTokenPayload& payload) const {
  const std::string body = serialize(payload);
  const std::string tag = mac(key_, body);
  return base64url_encode(reinterpret_cast<const unsigned char*>(body.data()), body.size()) + "." +
         base64url_encode(reinterpret_cast<const unsigned char*>(tag.data()), tag.size());
}

std::optional<SessionTokenPayload> SessionTokenCodec::verify(std::string_view token) const {
  if (token.empty() || token.size() > kMaxTokenLen) return std::nullopt;
  const auto dot = token.find('.');
  if (dot == std::string_view::npos || token.find('.', dot + 1) != std::string_view::npos) return std::nullopt;
  auto body = base64url_decode(token.substr(0, dot));
  auto tag = base64url_decode(token.substr(dot + 1));
  if (!body || !tag || tag->size() != kMacLen) return std::nullopt;
  const std::string expected = mac(key_, *body);
  if (CRYPTO_memcmp(expected.data(), tag->data(), kMacLen) != 0) return std::nullopt;
  return deserialize(*body);
}

std::string base64url_encode(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
  out.resize(static_cast<std::size_t>(n));
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) {
    if (c == '+')
      c = '-';
    else if (c == '/')
      c = '_';
  }
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string std64;
  std64.reserve(text.size() + 3);
  for (char c : text) {
    if (c == '-')
      std64.push_back('+');
    else if (c == '_')
      std64.push_back('/');
    else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      std64.push_back(c);
    else
      return std::nullopt;  // includes '=', '+', '/', whitespace: not canonical base64url
  }
  std::size_t padding = 0;
  while (std64.size() % 4 != 0) {
    std64.push_back('=');
    ++padding;
  }
  std::string out(std64.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(std64.data()), static_cast<int>(std64.size()));
  if (n < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(n) - padding);
  // Refuse non-canonical encodings (stray low bits), so one id has exactly one spelling.
  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data());
  if (base64url_encode(bytes, out.size()) != text) return std::nullopt;
  return out;
}

void random_bytes(unsigned char* out, std::size_t size) {
  if (RAND_bytes(out, static_cast<int>(size)) != 1) throw std::runtime_error("OpenSSL RAND_bytes failed");
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Compare SHA-256 digests so neither the contents nor the length of a secret
  // leaks through timing.
  unsigned char da[32], db[32];
  unsigned int la = 0, lb = 0;
  if (EVP_Digest(a.data(), a.size(), da, &la, EVP_sha256(), nullptr) != 1 ||
      EVP_Digest(b.data(), b.size(), db, &lb, EVP_sha256(), nullptr) != 1) {
    return false;
  }
  return CRYPTO_memcmp(da, db, sizeof da) == 0;
}

}  // namespace hamcp::mcp::http
