#include "mcp/errors.hpp"

namespace hamcp::mcp {

json::object make_error_response(json::value id, int code, std::string_view message, json::value data) {
  json::object error;
  error.reserve(3);
  error.emplace("code", code);
  error.emplace("message", message);
  if (!data.is_null()) error.emplace("data", std::move(data));
  json::object response;
  response.reserve(3);
  response.emplace("jsonrpc", "2.0");
  response.emplace("id", std::move(id));
  response.emplace("error", std::move(error));
  return response;
}

json::object make_result_response(json::value id, json::value result) {
  json::object response;
  response.reserve(3);
  response.emplace("jsonrpc", "2.0");
  response.emplace("id", std::move(id));
  response.emplace("result", std::move(result));
  return response;
}

json::object make_notification(std::string_view method, json::object params) {
  json::object message;
  message.reserve(3);
  message.emplace("jsonrpc", "2.0");
  message.emplace("method", method);
  if (!params.empty()) message.emplace("params", std::move(params));
  return message;
}

}  // namespace hamcp::mcp
