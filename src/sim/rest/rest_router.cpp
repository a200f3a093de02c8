#include "sim/rest/rest_router.hpp"

namespace hamcp::sim {

RestResponse not_found() { return text_response(404, "404: Not Found"); }
RestResponse method_not_allowed() { return text_response(405, "405: Method Not Allowed"); }
RestResponse bad_request() { return text_response(400, "400: Bad Request"); }
RestResponse server_error() { return text_response(500, "500 Internal Server Error\n\nServer got itself in trouble"); }

std::optional<json::object> body_object(const RestRequest& request, bool& invalid) {
  invalid = false;
  if (request.body.empty()) return json::object{};
  boost::system::error_code ec;
  json::value v = json::parse(request.body, ec);
  if (ec) {
    invalid = true;
    return std::nullopt;
  }
  if (!v.is_object()) return std::nullopt;
  return v.get_object();
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) parts.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return parts;
}

void RestRouter::add(std::string method, std::string_view pattern, RestHandler handler) {
  routes_.push_back(Route{std::move(method), split_path(pattern), std::move(handler)});
}

namespace {
bool is_parameter(const std::string& segment) { return segment.size() > 2 && segment.front() == '{'; }

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& segments,
             std::vector<std::string>& captured) {
  if (pattern.size() != segments.size()) return false;
  captured.clear();
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (is_parameter(pattern[i])) {
      captured.push_back(segments[i]);
    } else if (pattern[i] != segments[i]) {
      return false;
    }
  }
  return true;
}
}  // namespace

RestResponse RestRouter::dispatch(const std::vector<std::string>& segments, RestCall& call) const {
  bool path_known = false;
  std::vector<std::string> captured;
  for (const auto& route : routes_) {
    if (!matches(route.pattern, segments, captured)) continue;
    path_known = true;
    if (route.method != "*" && route.method != call.request.method) continue;
    call.path = std::move(captured);
    return route.handler(call);
  }
  return path_known ? method_not_allowed() : not_found();
}

}  // namespace hamcp::sim
