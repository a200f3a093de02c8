// MCP 2026-07-28 request checks and answer shaping (see modern_era.hpp).
#include "mcp/modern_era.hpp"

#include <array>

#include "mcp/errors.hpp"
#include "mcp/server.hpp"

namespace hamcp::mcp::modern {
namespace {

const json::object* meta_of(const json::object& params) {
  const json::value* meta = params.if_contains("_meta");
  return meta ? meta->if_object() : nullptr;
}

McpError missing_meta(std::string_view what) {
  return McpError(error_code::invalid_params,
                  "Invalid params: " + std::string(what) +
                      " is required on every 2026-07-28 request (params._meta[\"io.modelcontextprotocol/"
                      "protocolVersion\"] and [\"io.modelcontextprotocol/clientCapabilities\"])");
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Strict RFC 4648 base64: whole quanta of four, '=' only as the last one or two
// characters. SEP-2243 asks servers to refuse bad padding and foreign characters.
std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  text.remove_suffix(padding);
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    const int digit = base64_digit(c);
    if (digit < 0) return std::nullopt;
    bits = (bits << 6U) | static_cast<unsigned>(digit);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> static_cast<unsigned>(count)) & 0xFFU));
    }
  }
  return out;
}

// Where Mcp-Name comes from: params.name (tools/call, prompts/get), params.uri
// (resources/read) or params.taskId (the tasks extension's tasks/get, update, cancel).
const json::value* name_source(std::string_view method, const json::object& params) {
  if (method == "tools/call" || method == "prompts/get") return params.if_contains("name");
  if (method == "resources/read") return params.if_contains("uri");
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel")
    return params.if_contains("taskId");
  return nullptr;
}

}  // namespace

bool is_modern_version(std::string_view version) { return version == kVersion; }

bool is_modern_request(std::string_view method, const json::object& params) {
  if (method == "server/discover" || method == "subscriptions/listen") return true;
  const json::object* meta = meta_of(params);
  return meta && meta->contains(kMetaProtocolVersion);
}

json::array supported_versions() {
  json::array out;
  out.emplace_back(kVersion);
  for (std::string_view v : kSupportedProtocolVersions) out.emplace_back(v);
  return out;
}

void check_request_meta(const json::object& params) {
  const json::object* meta = meta_of(params);
  if (!meta) throw missing_meta("params._meta");
  const json::value* version = meta->if_contains(kMetaProtocolVersion);
  if (!version || !version->is_string()) throw missing_meta("_meta[\"io.modelcontextprotocol/protocolVersion\"]");
  const json::value* caps = meta->if_contains(kMetaClientCapabilities);
  if (!caps || !caps->is_object()) throw missing_meta("_meta[\"io.modelcontextprotocol/clientCapabilities\"]");
  if (!is_modern_version(version->get_string())) {
    json::object data;
    data.emplace("supported", supported_versions());
    data.emplace("requested", *version);
    throw McpError(error_code::unsupported_protocol_version,
                   "Unsupported protocol version '" + std::string(version->get_string()) +
                       "' in _meta; per-request versions: 2026-07-28 (2025-11-25 and older: send initialize)",
                   std::move(data));
  }
}

RequestMeta read_request_meta(const json::object& params) {
  RequestMeta out;
  const json::object* meta = meta_of(params);
  if (!meta) return out;
  if (const json::value* v = meta->if_contains(kMetaProtocolVersion); v && v->is_string())
    out.protocol_version = std::string(v->get_string());
  if (const json::value* v = meta->if_contains(kMetaClientInfo); v && v->is_object()) out.client_info = v->get_object();
  if (const json::value* v = meta->if_contains(kMetaClientCapabilities); v && v->is_object())
    out.client_capabilities = v->get_object();
  if (const json::value* v = meta->if_contains(kMetaLogLevel); v && v->is_string())
    out.log_level = parse_log_level(v->get_string());
  return out;
}

bool is_removed_method(std::string_view method) {
  // tasks/result and tasks/list: the tasks extension (SEP-2663) inlines the result in tasks/get and lists nothing.
  static constexpr std::array<std::string_view, 7> kRemoved = {
      "initialize",   "ping",      "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
      "tasks/result", "tasks/list"};
  return std::find(kRemoved.begin(), kRemoved.end(), method) != kRemoved.end();
}

void shape_result(json::object& result, std::string_view method, const json::object& server_info) {
  if (!result.contains("resultType")) result.emplace("resultType", "complete");
  json::value& meta = result["_meta"];
  if (!meta.is_object()) meta = json::object();
  meta.get_object().emplace(kMetaServerInfo, server_info);
  const json::value& type = result["resultType"];
  if (!type.is_string() || type.get_string() != "complete") return;  // interim results are not cacheable
  const bool list = method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
                    method == "resources/templates/list" || method == "server/discover";
  if (!list && method != "resources/read") return;
  if (!result.contains("ttlMs")) result.emplace("ttlMs", list ? kListTtlMs : kReadTtlMs);
  // Private: answers depend on the caller's rights (read-only sessions see fewer tools).
  if (!result.contains("cacheScope")) result.emplace("cacheScope", "private");
}

void shape_error(json::object& error) {
  json::value& code = error["code"];
  if (code.is_int64() && code.get_int64() == error_code::resource_not_found) code = error_code::invalid_params;
}

int http_status_for(int error_code) {
  switch (error_code) {
    case 0:
      return 200;
    case error_code::method_not_found:
      return 404;
    case error_code::header_mismatch:
    case error_code::missing_client_capability:
    case error_code::unsupported_protocol_version:
      return 400;
    default:
      return 200;  // a JSON-RPC error about the call itself rides on a 200
  }
}

std::optional<std::string> decode_header_value(std::string_view raw) {
  constexpr std::string_view kPrefix = "=?base64?";
  constexpr std::string_view kSuffix = "?=";
  if (raw.size() >= kPrefix.size() + kSuffix.size() && raw.substr(0, kPrefix.size()) == kPrefix &&
      raw.substr(raw.size() - kSuffix.size()) == kSuffix)
    return base64_decode(raw.substr(kPrefix.size(), raw.size() - kPrefix.size() - kSuffix.size()));
  return std::string(raw);
}

std::optional<std::string> header_mismatch(const HeaderLookup& header, const json::object& message) {
  const json::value* method_value = message.if_contains("method");
  if (!method_value || !method_value->is_string()) return std::nullopt;  // the session answers -32600
  const std::string_view method = method_value->get_string();
  json::object empty;
  const json::value* p = message.if_contains("params");
  const json::object& params = (p && p->is_object()) ? p->get_object() : empty;

  const auto version = header("mcp-protocol-version");
  if (const json::object* meta = meta_of(params)) {
    const json::value* body_version = meta->if_contains(kMetaProtocolVersion);
    if (body_version && body_version->is_string()) {
      if (!version) return "Header mismatch: MCP-Protocol-Version header is required";
      if (*version != body_version->get_string())
        return "Header mismatch: MCP-Protocol-Version header '" + *version + "' does not match body _meta value '" +
               std::string(body_version->get_string()) + "'";
    }
  }
  const auto method_header = header("mcp-method");
  if (!method_header) return "Header mismatch: Mcp-Method header is required";
  if (*method_header != method)
    return "Header mismatch: Mcp-Method header value '" + *method_header + "' does not match body method '" +
           std::string(method) + "'";
  const json::value* name = name_source(method, params);
  if (!name || !name->is_string()) return std::nullopt;
  const auto name_header = header("mcp-name");
  if (!name_header) return "Header mismatch: Mcp-Name header is required for " + std::string(method);
  const auto decoded = decode_header_value(*name_header);
  if (!decoded) return "Header mismatch: Mcp-Name header has a broken =?base64?...?= value";
  if (*decoded != name->get_string())
    return "Header mismatch: Mcp-Name header value '" + *decoded + "' does not match body value '" +
           std::string(name->get_string()) + "'";
  return std::nullopt;
}

void ShapingChannel::send(json::value message) {
  if (json::object* obj = message.if_object()) {
    if (json::value* result = obj->if_contains("result"); result && result->is_object())
      shape_result(result->get_object(), method_, server_info_);
    else if (json::value* error = obj->if_contains("error"); error && error->is_object())
      shape_error(error->get_object());
  }
  inner_->send(std::move(message));
}

void ShapingChannel::send_text(std::string text, const json::value& shape) {
  (void)shape;
  // A tool result written once as text: shaping it means reading it back. The
  // modern era pays that; the 2025 era keeps its single write.
  send(json::parse(text));
}

}  // namespace hamcp::mcp::modern
