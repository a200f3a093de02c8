#include "mcp/http/access_policy.hpp"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/ip/address.hpp>
#include <cctype>
#include <cstring>

#include "common/ascii.hpp"
#include "mcp/http/session_token.hpp"

namespace hamcp::mcp::http {
namespace {

std::string strip_brackets(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return ascii_lower(host);
}

}  // namespace

std::string host_without_port(std::string_view authority) {
  authority = ascii_trim(authority);
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return ascii_lower(authority);
    return ascii_lower(authority.substr(1, close - 1));
  }
  // One colon = host:port; several = a bare IPv6 address.
  const auto colon = authority.find(':');
  if (colon != std::string_view::npos && authority.find(':', colon + 1) == std::string_view::npos) {
    authority = authority.substr(0, colon);
  }
  return ascii_lower(authority);
}

std::optional<std::string> parse_host_header(std::string_view authority) {
  authority = ascii_trim(authority);
  std::string_view host, port;
  bool ipv6 = false;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(1, close - 1);
    const auto rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return std::nullopt;  // "[::1]evil"
    if (!rest.empty()) port = rest.substr(1);
    ipv6 = true;
  } else {
    const auto colon = authority.find(':');
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (host.empty() || port.size() > 5) return std::nullopt;
  if (!std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) return std::nullopt;
  if (ipv6) {
    boost::system::error_code ec;
    boost::asio::ip::make_address_v6(std::string(host), ec);
    if (ec) return std::nullopt;
  } else if (!std::all_of(host.begin(), host.end(),
                          [](unsigned char c) { return std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_'; })) {
    return std::nullopt;
  }
  return ascii_lower(host);
}

std::vector<std::string> local_host_names() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) == 0) {
    for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
      if (i->ifa_addr == nullptr) continue;
      if (i->ifa_addr->sa_family == AF_INET) {
        const auto* a = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
        boost::asio::ip::address_v4::bytes_type b;
        std::memcpy(b.data(), &a->sin_addr, b.size());
        out.push_back(boost::asio::ip::address_v4(b).to_string());
      } else if (i->ifa_addr->sa_family == AF_INET6) {
        const auto* a = reinterpret_cast<const sockaddr_in6*>(i->ifa_addr);
        boost::asio::ip::address_v6::bytes_type b;
        std::memcpy(b.data(), &a->sin6_addr, b.size());
        out.push_back(boost::asio::ip::address_v6(b).to_string());  // no scope: Host headers carry none
      }
    }
    ::freeifaddrs(list);
  }
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0 && name[0] != '\0') {
    out.push_back(ascii_lower(name));
    out.push_back(ascii_lower(name) + ".local");
  }
  return out;
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

AuthRequirement auth_requirement(std::string_view bind_host, bool token_configured, bool allow_unauthenticated_remote) {
  if (is_loopback_host(bind_host)) return AuthRequirement::kOptional;
  if (token_configured) return AuthRequirement::kConfiguredToken;
  if (allow_unauthenticated_remote) return AuthRequirement::kUnauthenticatedRemote;
  return AuthRequirement::kGenerateToken;
}

std::optional<std::string_view> bearer_value(std::optional<std::string_view> authorization) {
  if (!authorization) return std::nullopt;
  std::string_view value = ascii_trim(*authorization);
  if (value.size() < 7 || ascii_lower(value.substr(0, 7)) != "bearer ") return std::nullopt;
  value = ascii_trim(value.substr(7));
  if (value.empty()) return std::nullopt;
  return value;
}

bool bearer_matches(std::optional<std::string_view> authorization, std::string_view expected) {
  const auto value = bearer_value(authorization);
  if (!value || expected.empty()) return false;
  return constant_time_equal(*value, expected);
}

OriginPolicy::OriginPolicy(std::string bind_host, std::vector<std::string> extra_hosts,
                           std::vector<std::string> extra_origins,
                           std::optional<std::vector<std::string>> local_names) {
  static std::atomic<std::uint64_t> policies{0};
  serial_ = ++policies;
  hosts_ = {"localhost", "127.0.0.1", "::1"};
  // A wildcard bind answers on every address of the machine: those (and its
  // name) are the Hosts a client can legitimately use. Anything else is a
  // foreign name pointed at us (DNS rebinding), token or not.
  if (is_wildcard_host(bind_host)) {
    for (auto& name : local_names ? *local_names : local_host_names()) hosts_.push_back(host_without_port(name));
  } else {
    hosts_.push_back(strip_brackets(bind_host));
  }
  for (auto& h : extra_hosts) {
    if (h == "*")
      any_host_ = true;
    else
      hosts_.push_back(host_without_port(h));
  }
  for (auto& o : extra_origins) {
    if (o == "*")
      any_origin_ = true;
    else {
      std::string v = ascii_lower(ascii_trim(o));
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
  // A client sends the same Host with every request: the last verdict is kept
  // per thread (the check parses an address: ~1.4k instructions per request).
  struct Memo {
    std::uint64_t policy = 0;
    std::string host;
    bool allowed = false;
  };
  thread_local Memo memo;
  if (memo.policy == serial_ && memo.host == *host_header) return memo.allowed;
  const auto host = parse_host_header(*host_header);
  const bool allowed = host && name_allowed(*host);
  memo.policy = serial_;
  memo.host.assign(*host_header);
  memo.allowed = allowed;
  return allowed;
}

bool OriginPolicy::origin_allowed(std::optional<std::string_view> origin_header) const {
  if (!origin_header) return true;
  if (any_origin_) return true;
  std::string origin = ascii_lower(ascii_trim(*origin_header));
  while (!origin.empty() && origin.back() == '/') origin.pop_back();
  if (std::find(origins_.begin(), origins_.end(), origin) != origins_.end()) return true;
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) return false;  // includes "null"
  std::string_view authority = std::string_view(origin).substr(scheme_end + 3);
  if (authority.find('/') != std::string_view::npos) return false;
  const auto at = authority.find('@');
  if (at != std::string_view::npos) return false;
  const auto host = parse_host_header(authority);
  if (!host) return false;
  // A browser Origin must be a loopback page, an allowed host or an allowed origin.
  if (is_loopback_host(*host)) return true;
  return std::find(hosts_.begin(), hosts_.end(), *host) != hosts_.end();
}

}  // namespace hamcp::mcp::http
