// The simulated ingress (supervisor/api/ingress.py, supervisor/ingress.py and
// HA's hassio/ingress.py): sessions of 128 hex characters (token_hex(64)) the
// Supervisor makes for Home Assistant, their validation (a plain 401 when
// unknown), and HA's /api/hassio_ingress/<token>/<path> view in front of the
// add-ons' ingress ports. The add-on's "token" is its slug (ingress_entry).
#include <boost/json/serialize.hpp>
#include <mutex>

#include "sim/supervisor/supervisor_api.hpp"
#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim {

namespace supervisor_detail {
namespace {

std::string new_session(SupervisorData& d) {
  // Deterministic but distinct: a counter spread over 128 hex characters.
  std::uint64_t x = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(d.next_id++ + 7);
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  while (out.size() < 128) {
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    out += kHex[x & 15];
  }
  return out;
}

std::string cookie_session(std::string_view cookie) {
  const std::string_view name = "ingress_session=";
  for (std::size_t pos = 0; pos < cookie.size();) {
    while (pos < cookie.size() && (cookie[pos] == ' ' || cookie[pos] == ';')) ++pos;
    const std::size_t end = std::min(cookie.find(';', pos), cookie.size());
    const std::string_view pair = cookie.substr(pos, end - pos);
    if (pair.substr(0, name.size()) == name) return std::string(pair.substr(name.size()));
    pos = end;
  }
  return {};
}

RestResponse addon_page(const SimAddon& a, const RestRequest& request, const std::string& sub) {
  if (request.method == "POST") {
    boost::system::error_code ec;
    json::value received = json::parse(request.body.empty() ? std::string("null") : request.body, ec);
    if (ec) received = request.body;
    return json_response(200, json::object{{"addon", a.slug}, {"received", std::move(received)}});
  }
  if (sub.empty() || sub == "/")
    return RestResponse{
        200,
        "text/html",
        "<!DOCTYPE html><html><head><title>" + a.name + "</title></head><body><h1>" + a.name + "</h1></body></html>",
        {},
        {}};
  if (sub == "/api/info")
    return json_response(200, json::object{{"name", a.name},
                                           {"version", a.version},
                                           {"ingress_path", "/api/hassio_ingress/" + a.slug},
                                           {"state", "online"}});
  return text_response(404, "404: Not Found");
}

}  // namespace

void add_ingress_routes(RestRouter& router) {
  router.add("POST", "/ingress/session", guarded([](RestCall&, SupervisorData& d) {
               std::string session = new_session(d);
               d.ingress_sessions.insert(session);
               return ok(json::object{{"session", session}});
             }));
  router.add("POST", "/ingress/validate_session", guarded([](RestCall& c, SupervisorData& d) {
               bool invalid = false;
               const auto body = body_object(c.request, invalid);
               const json::value* s = body ? body->if_contains("session") : nullptr;
               if (!s || !s->is_string()) return error(400, "required key not provided @ data['session']. Got None");
               if (!d.ingress_sessions.contains(std::string(s->get_string())))
                 return text_response(401, "401: Unauthorized");
               return ok();
             }));
}

}  // namespace supervisor_detail

RestResponse ingress_answer(SimCore& core, const RestRequest& request, const std::string& path) {
  using namespace supervisor_detail;
  StateStore& store = core.store();
  std::lock_guard lock(store.mutex());
  auto& supervisor = store.home().supervisor;
  if (!supervisor) return not_found();  // no hassio integration, no view
  const std::string rest = path.substr(std::string_view("/api/hassio_ingress/").size());
  const std::size_t slash = rest.find('/');
  const std::string token = rest.substr(0, slash);
  const std::string sub = slash == std::string::npos ? std::string() : rest.substr(slash);
  if (!supervisor->ingress_sessions.contains(cookie_session(request.cookie)))
    return text_response(401, "401: Unauthorized");
  const SimAddon* a = find_addon(*supervisor, token);
  if (!a || !a->installed() || !a->ingress) return text_response(503, "503: Service Unavailable");
  if (a->state != "started") return text_response(502, "502: Bad Gateway");
  return addon_page(*a, request, sub);
}

}  // namespace hamcp::sim
