#include "mcp/http/access_policy.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>

#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string strip_brackets(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return lower(host);
}

}  // namespace

std::string host_without_port(std::string_view authority) {
  authority = trim(authority);
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return lower(authority);
    return lower(authority.substr(1, close - 1));
  }
  // One colon = host:port; several = a bare IPv6 address.
  const auto colon = authority.find(':');
  if (colon != std::string_view::npos && authority.find(':', colon + 1) == std::string_view::npos) {
    authority = authority.substr(0, colon);
  }
  return lower(authority);
}

bool is_loopback_host(std::string_view host) {
  const std::string h = strip_brackets(host);
  if (h == "localhost" || h.ends_with(".localhost")) return true;
  boost::system::error_code ec;
  const auto addr = boost::asio::ip::make_address(h, ec);
  if (ec) return false;
  if (addr.is_v6() && addr.to_v6().is_v4_mapped()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, addr.to_v6()).is_loopback();
  }
  return addr.is_loopback();
}

bool is_wildcard_host(std::string_view host) {
  const std::string h = strip_brackets(host);
  return h.empty() || h == "0.0.0.0" || h == "::" || h == "*";
}

AuthRequirement auth_requirement(std::string_view bind_host, bool token_configured,
                                 bool allow_unauthenticated_remote) {
  if (is_loopback_host(bind_host)) return AuthRequirement::kOptional;
  if (token_configured) return AuthRequirement::kConfiguredToken;
  if (allow_unauthenticated_remote) return AuthRequirement::kUnauthenticatedRemote;
  return AuthRequirement::kGenerateToken;
}

bool bearer_matches(std::optional<std::string_view> authorization, std::string_view expected) {
  if (!authorization || expected.empty()) return false;
  std::string_view value = trim(*authorization);
  if (value.size() < 7 || lower(value.substr(0, 7)) != "bearer ") return false;
  value = trim(value.substr(7));
  return constant_time_equal(value, expected);
}

OriginPolicy::OriginPolicy(std::string bind_host, std::vector<std::string> extra_hosts,
                           std::vector<std::string> extra_origins) {
  hosts_ = {"localhost", "127.0.0.1", "::1"};
  // A wildcard bind has no single name we can check; the bearer token that
  // non-loopback binds require is what protects it from DNS rebinding.
  if (is_wildcard_host(bind_host)) {
    any_host_ = true;
  } else {
    hosts_.push_back(strip_brackets(bind_host));
  }
  for (auto& h : extra_hosts) {
    if (h == "*") any_host_ = true;
    else hosts_.push_back(host_without_port(h));
  }
  for (auto& o : extra_origins) {
    if (o == "*") any_origin_ = true;
    else {
      std::string v = lower(trim(o));
      while (!v.empty() && v.back() == '/') v.pop_back();
      origins_.push_back(std::move(v));
    }
  }
}

bool OriginPolicy::name_allowed(std::string_view hostname) const {
  if (is_loopback_host(hostname)) return true;
  return std::find(hosts_.begin(), hosts_.end(), hostname) != hosts_.end();
}

bool OriginPolicy::host_allowed(std::optional<std::string_view> host_header) const {
  if (any_host_) return true;
  if (!host_header) return false;  // HTTP/1.1 requires Host
  return name_allowed(host_without_port(*host_header));
}

bool OriginPolicy::origin_allowed(std::optional<std::string_view> origin_header) const {
  if (!origin_header) return true;
  if (any_origin_) return true;
  std::string origin = lower(trim(*origin_header));
  while (!origin.empty() && origin.back() == '/') origin.pop_back();
  if (std::find(origins_.begin(), origins_.end(), origin) != origins_.end()) return true;
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) return false;  // includes "null"
  std::string_view authority = std::string_view(origin).substr(scheme_end + 3);
  if (authority.find('/') != std::string_view::npos) return false;
  const auto at = authority.find('@');
  if (at != std::string_view::npos) return false;
  const std::string host = host_without_port(authority);
  // With a wildcard bind any Host passes, but a browser Origin must still be a
  // loopback page, an allowed host or an allowed origin.
  if (is_loopback_host(host)) return true;
  return std::find(hosts_.begin(), hosts_.end(), host) != hosts_.end();
}

}  // namespace hamcp::mcp::http
