#pragma once
// Who may talk to the HTTP server: bind policy (bearer token on non-loopback
// binds), bearer checks and Host/Origin validation (DNS-rebinding protection).
// Pure functions, no I/O: unit-tested without opening sockets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamcp::mcp::http {

// "localhost", 127.0.0.0/8, ::1 (also "[::1]"). Wildcards (0.0.0.0, ::) are not loopback.
bool is_loopback_host(std::string_view host);
bool is_wildcard_host(std::string_view host);

enum class AuthRequirement {
  kOptional,              // loopback bind: a configured token is still enforced
  kConfiguredToken,       // non-loopback with a configured token
  kGenerateToken,         // non-loopback, no token: generate, persist 0600, print once
  kUnauthenticatedRemote  // non-loopback, explicitly allowed without a token: warn loudly
};
AuthRequirement auth_requirement(std::string_view bind_host, bool token_configured, bool allow_unauthenticated_remote);

// True when `authorization` is "Bearer <expected>" (scheme case-insensitive),
// compared in constant time.
bool bearer_matches(std::optional<std::string_view> authorization, std::string_view expected);
// The token of "Bearer <token>" (scheme case-insensitive); nullopt otherwise.
std::optional<std::string_view> bearer_value(std::optional<std::string_view> authorization);

// Host and Origin validation. Host names are compared without port and
// case-insensitively.
class OriginPolicy {
 public:
  // bind_host: the address bound. extra_hosts: names clients may use besides the
  // loopback names and the bound address (e.g. "hamcp.lan"). extra_origins:
  // whole origins allowed besides those whose host is an allowed host (e.g.
  // "https://claude.ai"). "*" in either list disables that check.
  // A wildcard bind (0.0.0.0, ::) still checks Host: besides the above it
  // allows the machine's own addresses (`local_names`, by default its interface
  // addresses and host name), which is what a LAN client types.
  OriginPolicy(std::string bind_host, std::vector<std::string> extra_hosts, std::vector<std::string> extra_origins,
               std::optional<std::vector<std::string>> local_names = std::nullopt);

  bool host_allowed(std::optional<std::string_view> host_header) const;
  // Absent Origin (non-browser client) is allowed; "null" or foreign is not.
  bool origin_allowed(std::optional<std::string_view> origin_header) const;

 private:
  bool name_allowed(std::string_view hostname) const;
  bool any_host_ = false, any_origin_ = false;
  std::uint64_t serial_;              // names this policy's verdicts in host_allowed's per-thread memo
  std::vector<std::string> hosts_;    // lower-case, no port, IPv6 without brackets
  std::vector<std::string> origins_;  // lower-case, no trailing slash
};

// "Host:port" / "[v6]:port" -> lower-case host without brackets (lenient:
// for configured names).
std::string host_without_port(std::string_view authority);

// A Host header (or an Origin's authority) parsed strictly: "name", "name:port",
// "IPv4:port" or "[IPv6]:port", port all digits; nothing after "]" but a port;
// names of letters, digits, '-', '.', '_' only. Lower-case host without
// brackets, or nullopt when malformed.
std::optional<std::string> parse_host_header(std::string_view authority);

// The interface addresses of this machine and its host name (and name.local).
std::vector<std::string> local_host_names();

}  // namespace hamcp::mcp::http
