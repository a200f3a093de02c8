#pragma once
// The MCP 2026-07-28 ("modern") era beside the 2025 handshake era: what makes a
// request modern, the per-request `_meta` checks, and how every modern answer is
// shaped (resultType, serverInfo, caching hints, renamed error codes).
// Transport-agnostic; Session (session_modern.cpp) and the HTTP transport use it.
//
// A dual-era server picks the era per request (spec: basic/versioning): a
// request carrying `_meta["io.modelcontextprotocol/protocolVersion"]` (or the
// modern-only `server/discover`) is served statelessly; `initialize` starts a
// 2025-era session as before.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/channel.hpp"
#include "mcp/json.hpp"
#include "mcp/log_level.hpp"

namespace hamcp::mcp::modern {

inline constexpr std::string_view kVersion = "2026-07-28";
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view kMetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";

// Milliseconds a client may treat list/read answers as fresh. hamcp's catalogue only
// changes with a restart or a list_changed notification; resources follow the home.
inline constexpr std::int64_t kListTtlMs = 60000;
inline constexpr std::int64_t kReadTtlMs = 0;

bool is_modern_version(std::string_view version);
// The request belongs to the 2026 era: its params carry the per-request
// protocol version, or it is server/discover (which only that era has).
bool is_modern_request(std::string_view method, const json::object& params);

// The per-request _meta every modern request must carry. Throws McpError:
// -32602 when _meta, its protocolVersion or its clientCapabilities is missing or
// of the wrong type; -32022 (UnsupportedProtocolVersionError) when the version
// is not one this server serves statelessly.
void check_request_meta(const json::object& params);
// Every version this server speaks, modern first (DiscoverResult.supportedVersions
// and UnsupportedProtocolVersionError.data.supported).
json::array supported_versions();

struct RequestMeta {
  std::string protocol_version;
  json::object client_info;
  json::object client_capabilities;
  std::optional<LogLevel> log_level;  // absent: the request gets no notifications/message
};
// After check_request_meta.
RequestMeta read_request_meta(const json::object& params);

// Methods the 2026 revision removed: answered -32601 (HTTP 404).
bool is_removed_method(std::string_view method);

// resultType "complete" (unless the result says otherwise), serverInfo in
// _meta, and ttlMs/cacheScope on the cacheable methods.
void shape_result(json::object& result, std::string_view method, const json::object& server_info);
// -32002 (resource not found) is -32602 in this era (SEP-2164).
void shape_error(json::object& error);
// The HTTP status of a modern answer carrying this JSON-RPC error code (0 = no error: 200).
int http_status_for(int error_code);

// Streamable HTTP request-metadata headers (Mcp-Method, Mcp-Name,
// MCP-Protocol-Version) against the body. `header` returns a header's value
// (trimmed) or nullopt. nullopt = consistent; else the HeaderMismatch message.
using HeaderLookup = std::function<std::optional<std::string>(std::string_view name)>;
std::optional<std::string> header_mismatch(const HeaderLookup& header, const json::object& message);
// A header value as the client meant it: "=?base64?...?=" decoded; nullopt if
// the encoding is broken.
std::optional<std::string> decode_header_value(std::string_view raw);

// Wraps a modern request's reply channel: results and errors leave shaped for
// this era (shape_result / shape_error); notifications pass unchanged.
class ShapingChannel final : public Channel {
 public:
  ShapingChannel(std::shared_ptr<Channel> inner, std::string method, json::object server_info)
      : inner_(std::move(inner)), method_(std::move(method)), server_info_(std::move(server_info)) {}
  void send(json::value message) override;
  void send_text(std::string text, const json::value& shape) override;
  void close() override { inner_->close(); }
  bool is_open() const override { return inner_->is_open(); }
  bool congested() const override { return inner_->congested(); }

 private:
  std::shared_ptr<Channel> inner_;
  std::string method_;
  json::object server_info_;
};

}  // namespace hamcp::mcp::modern
