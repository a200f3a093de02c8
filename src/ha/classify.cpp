#include "ha/classify.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>

#include "ha/platform.hpp"

namespace hamcp::ha {
namespace asio = boost::asio;
namespace errc = boost::system::errc;

bool looks_like_tls_record(std::string_view p) noexcept {
  // Record types 0x15 (alert) / 0x16 (handshake), then protocol major version 3.
  return p.size() >= 2 && (p[0] == '\x15' || p[0] == '\x16') && p[1] == '\x03';
}

namespace {

bool is_timeout(const boost::system::error_code& ec) {
  return ec == boost::beast::error::timeout || ec == asio::error::timed_out || ec == errc::timed_out;
}

bool is_lan_block_symptom(const boost::system::error_code& ec) {
  return ec == asio::error::host_unreachable || ec == errc::operation_not_permitted || ec == errc::permission_denied ||
         ec == asio::error::network_unreachable || is_timeout(ec);
}

bool closed_by_peer(const boost::system::error_code& ec) {
  return ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == boost::beast::http::error::end_of_stream || ec == asio::ssl::error::stream_truncated ||
         ec == boost::beast::websocket::error::closed || ec == asio::error::broken_pipe;
}

HaError tls_error(const boost::system::error_code& ec, const NetContext& ctx) {
  HaError e = make_error(ErrorCause::tls_failure, ctx.target, ec.message());
  if (ec.category() != asio::error::get_ssl_category()) {
    if (closed_by_peer(ec)) {
      e.detail = "server closed the connection during the TLS handshake (" + ec.message() + ")";
    }
    return e;
  }
  const int reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
  switch (reason) {
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
    case SSL_R_UNKNOWN_PROTOCOL:
    case SSL_R_RECORD_LENGTH_MISMATCH:
    case SSL_R_HTTP_REQUEST:
      e.cause = ErrorCause::tls_to_plain_port;
      return e;
    case SSL_R_CERTIFICATE_VERIFY_FAILED:
      if (ctx.verify_result == X509_V_ERR_HOSTNAME_MISMATCH || ctx.verify_result == X509_V_ERR_IP_ADDRESS_MISMATCH) {
        e.cause = ErrorCause::hostname_mismatch;
      } else {
        e.cause = ErrorCause::certificate_untrusted;
      }
      if (ctx.verify_result != 0) {
        e.detail = std::string("certificate verify failed: ") + X509_verify_cert_error_string(ctx.verify_result);
      }
      return e;
    default:
      return e;
  }
}

}  // namespace

HaError classify_network_error(const boost::system::error_code& ec, NetPhase phase, const NetContext& ctx) {
  const std::string detail = ec.message();
  if (phase == NetPhase::resolve) {
    if (is_timeout(ec)) return make_error(ErrorCause::timeout, ctx.target, "DNS lookup timed out");
    return make_error(ErrorCause::dns_failure, ctx.target, detail);
  }
  if (phase == NetPhase::connect) {
    if (platform_is_macos() && ctx.address && is_private_lan_address(*ctx.address) && is_lan_block_symptom(ec)) {
      return make_error(ErrorCause::macos_local_network, ctx.target, detail);
    }
    if (ec == asio::error::connection_refused) {
      return make_error(ErrorCause::connection_refused, ctx.target, detail);
    }
    if (is_timeout(ec)) return make_error(ErrorCause::timeout, ctx.target, "TCP connect timed out");
    if (ec == asio::error::host_unreachable || ec == asio::error::network_unreachable) {
      return make_error(ErrorCause::network_unreachable, ctx.target, detail);
    }
    return make_error(ErrorCause::connection_lost, ctx.target, detail);
  }
  if (phase == NetPhase::tls_handshake) {
    if (is_timeout(ec)) return make_error(ErrorCause::timeout, ctx.target, "TLS handshake timed out");
    return tls_error(ec, ctx);
  }
  // send / receive on an established connection
  if (!ctx.tls && looks_like_tls_record(ctx.received_prefix)) {
    return make_error(ErrorCause::plain_to_tls_port, ctx.target, "server answered with a TLS record");
  }
  if (is_timeout(ec)) return make_error(ErrorCause::timeout, ctx.target, "no response in time");
  if (ec.category() == asio::error::get_ssl_category()) return tls_error(ec, ctx);
  if (closed_by_peer(ec)) return make_error(ErrorCause::connection_lost, ctx.target, detail);
  if (ec.category() == boost::system::error_code(boost::beast::http::error::bad_method).category()) {
    // The bytes were not an HTTP response.
    return make_error(ErrorCause::protocol_error, ctx.target, "response is not HTTP: " + detail);
  }
  return make_error(ErrorCause::connection_lost, ctx.target, detail);
}

HaError classify_http_status(int status, std::string_view body, std::string target) {
  std::string excerpt(body.substr(0, 300));
  for (char& c : excerpt) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  ErrorCause cause = ErrorCause::protocol_error;
  if (status == 400)
    cause = ErrorCause::bad_request;
  else if (status == 401)
    cause = ErrorCause::unauthorized;
  else if (status == 403)
    cause = ErrorCause::forbidden;
  else if (status == 404)
    cause = ErrorCause::not_found;
  else if (status == 503)
    cause = ErrorCause::ha_starting;
  else if (status >= 500)
    cause = ErrorCause::server_error;
  // nginx's answer when http:// reaches its TLS port.
  if (status == 400 && excerpt.find("plain HTTP request was sent to HTTPS port") != std::string::npos) {
    cause = ErrorCause::plain_to_tls_port;
  }
  HaError e =
      make_error(cause, std::move(target), "HTTP " + std::to_string(status) + (excerpt.empty() ? "" : ": " + excerpt));
  e.http_status = status;
  return e;
}

}  // namespace hamcp::ha
