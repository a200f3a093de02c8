#pragma once
// JSON-RPC / MCP error codes and the exception a handler throws to answer with a
// JSON-RPC error instead of a result. (Tool failures the model should read are
// ToolResult::error(...), not exceptions.)
//
// -32020..-32022 belong to the 2026-07-28 revision: a dual-era client that sees
// one stops falling back to `initialize`. Only modern-era answers (modern_era.cpp)
// use them; the 2025 handshake era never does.

#include <stdexcept>
#include <string>

#include "mcp/json.hpp"

namespace hamcp::mcp {

namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int request_timeout = -32001;               // a server->client request got no answer in time
inline constexpr int resource_not_found = -32002;            // 2025 era; 2026-07-28 answers -32602 instead
inline constexpr int header_mismatch = -32020;               // 2026-07-28 only
inline constexpr int missing_client_capability = -32021;     // 2026-07-28 only
inline constexpr int unsupported_protocol_version = -32022;  // 2026-07-28 only
}  // namespace error_code

class McpError : public std::runtime_error {
 public:
  McpError(int code, std::string message, json::value data = nullptr)
      : std::runtime_error(std::move(message)), code_(code), data_(std::move(data)) {}
  int code() const noexcept { return code_; }
  const json::value& data() const noexcept { return data_; }

 private:
  int code_;
  json::value data_;
};

// Thrown by a handler of a 2026-07-28 request that needs more from the client
// (multi round-trip requests, MRTR): the request is answered with an
// InputRequiredResult {resultType:"input_required", inputRequests?, requestState?}
// and the client retries it with params.inputResponses / params.requestState
// (RequestContext::input_responses / request_state).
class InputRequired : public std::runtime_error {
 public:
  InputRequired(json::object input_requests, std::string request_state = {})
      : std::runtime_error("input required"),
        input_requests_(std::move(input_requests)),
        request_state_(std::move(request_state)) {}
  json::object result() const {
    json::object out;
    out.emplace("resultType", "input_required");
    if (!input_requests_.empty()) out.emplace("inputRequests", input_requests_);
    if (!request_state_.empty()) out.emplace("requestState", request_state_);
    return out;
  }

 private:
  json::object input_requests_;
  std::string request_state_;
};

// {"jsonrpc":"2.0","id":id,"error":{"code":..,"message":..,"data"?:..}}
json::object make_error_response(json::value id, int code, std::string_view message, json::value data = nullptr);
// {"jsonrpc":"2.0","id":id,"result":result}
json::object make_result_response(json::value id, json::value result);
// {"jsonrpc":"2.0","method":m,"params"?:p}
json::object make_notification(std::string_view method, json::object params = {});

}  // namespace hamcp::mcp
