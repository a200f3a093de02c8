#include "sim/supervisor/supervisor_api.hpp"

#include <algorithm>

#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim {

namespace supervisor_detail {

RestResponse ok(json::value data) {
  return json_response(200, json::object{{"result", "ok"}, {"data", std::move(data)}});
}

RestResponse error(int status, std::string_view message) {
  return json_response(status, json::object{{"result", "error"}, {"message", message}});
}

RestResponse log_text(const std::vector<std::string>& lines, const RestQuery& query) {
  std::size_t keep = 100;  // the Supervisor's DEFAULT_LINES
  if (query.has("lines")) {
    try {
      keep = static_cast<std::size_t>(std::max(2L, std::stol(query.get("lines"))));
    } catch (const std::exception&) {
    }
  }
  std::string text;
  for (std::size_t i = lines.size() > keep ? lines.size() - keep : 0; i < lines.size(); ++i) text += lines[i] + "\n";
  return text_response(200, text);
}

RestHandler guarded(SupervisorHandler handler) {
  return [handler = std::move(handler)](RestCall& c) {
    auto& supervisor = c.store.home().supervisor;
    if (!supervisor) return not_found();
    return handler(c, *supervisor);
  };
}

}  // namespace supervisor_detail

namespace {

using namespace supervisor_detail;

// HA's /api/hassio/<path> for the text logs (hassio/http.py PATHS_ADMIN).
void add_core_log_proxy(RestRouter& r) {
  r.add("GET", "/api/hassio/supervisor/logs",
        guarded([](RestCall& c, SupervisorData& d) { return log_text(d.log, c.query); }));
  r.add("GET", "/api/hassio/addons/{slug}/logs", guarded([](RestCall& c, SupervisorData& d) {
          SimAddon* a = find_addon(d, c.path[0]);
          if (!a || !a->installed()) return error(404, "Addon " + c.path[0] + " does not exist");
          return log_text(a->log, c.query);
        }));
  r.add("GET", "/api/hassio/host/logs", guarded([](RestCall& c, SupervisorData& d) {
          std::vector<std::string> all;
          for (const auto& [identifier, lines] : d.host_logs) all.insert(all.end(), lines.begin(), lines.end());
          return log_text(all, c.query);
        }));
}

const RestRouter& supervisor_router() {
  static const RestRouter router = [] {
    RestRouter r;
    add_addon_routes(r);
    add_store_routes(r);
    add_backup_routes(r);
    add_job_routes(r);
    add_ingress_routes(r);
    return r;
  }();
  return router;
}

}  // namespace

void add_supervisor_routes(RestRouter& router) {
  add_addon_routes(router);
  add_store_routes(router);
  add_backup_routes(router);
  add_job_routes(router);
  add_ingress_routes(router);
  add_core_log_proxy(router);
}

RestResponse supervisor_request(SimCore& core, std::string method, const std::string& path, RestQuery query,
                                std::string body) {
  std::transform(method.begin(), method.end(), method.begin(), [](unsigned char ch) { return std::toupper(ch); });
  const RestRequest request{method, path, {}, {}, std::move(body), true};
  StateStore& store = core.store();
  RestCall call{request, query, {}, core, store, store.new_context(std::nullopt, store.user_id())};
  return supervisor_router().dispatch(split_path(path), call);
}

}  // namespace hamcp::sim
