#pragma once
// Turns low-level failures (socket/TLS error codes, HTTP statuses) into typed
// HaErrors. Pure functions: every diagnosis is unit-testable without a network.

#include <boost/asio/ip/address.hpp>
#include <boost/system/error_code.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ha/errors.hpp"

namespace hamcp::ha {

enum class NetPhase { resolve, connect, tls_handshake, send, receive };

struct NetContext {
  std::string target;                               // what to name in the message, e.g. "https://ha.lan:8123"
  bool tls = false;                                 // the URL asked for TLS
  std::optional<boost::asio::ip::address> address;  // address being connected to, if known
  // First bytes the server sent when a plain-HTTP read failed (TLS record sniff).
  std::string_view received_prefix;
  // OpenSSL certificate verification result (X509_V_*), 0 when unknown/OK.
  long verify_result = 0;
};

HaError classify_network_error(const boost::system::error_code& ec, NetPhase phase, const NetContext& ctx);

// HTTP status >= 400 (or an unexpected one) -> typed error. Body excerpt goes to detail.
HaError classify_http_status(int status, std::string_view body, std::string target);

// Does this byte prefix look like a TLS record (handshake/alert) rather than HTTP?
bool looks_like_tls_record(std::string_view prefix) noexcept;

}  // namespace hamcp::ha
