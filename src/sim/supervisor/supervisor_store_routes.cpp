// /store (add-ons to install, repositories), the Supervisor's own and the
// host's logs (supervisor/api/store.py, supervisor.py, host.py).
#include <algorithm>

#include "sim/supervisor/supervisor_routes.hpp"

namespace hamcp::sim::supervisor_detail {
namespace {

json::object repository_json(const SimRepository& r) {
  return {{"slug", r.slug}, {"name", r.name}, {"source", r.source}, {"url", r.url}, {"maintainer", r.maintainer}};
}

json::array store_addons(const SupervisorData& d) {
  json::array out;
  for (const auto& a : d.addons) out.push_back(store_item(a));
  return out;
}

json::array repositories(const SupervisorData& d) {
  json::array out;
  for (const auto& r : d.repositories) out.push_back(repository_json(r));
  return out;
}

// The Supervisor names a repository by the first 8 hex digits of sha1(url); any stable short id will do here.
std::string repository_slug(const std::string& url) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : url) h = (h ^ ch) * 16777619u;
  static const char* hex = "0123456789abcdef";
  std::string slug;
  for (int i = 7; i >= 0; --i) slug += hex[(h >> (i * 4)) & 0xF];
  return slug;
}

RestResponse add_repository(RestCall& c, SupervisorData& d) {
  bool invalid = false;
  auto body = body_object(c.request, invalid);
  const json::value* url = body ? body->if_contains("repository") : nullptr;
  if (!url || !url->is_string()) return error(400, "required key not provided @ data['repository']. Got None");
  const std::string text(url->get_string());
  if (text.rfind("https://", 0) != 0 && text.rfind("http://", 0) != 0 && text.rfind("git@", 0) != 0)
    return error(400, "Invalid repository: " + text);
  if (std::any_of(d.repositories.begin(), d.repositories.end(),
                  [&](const SimRepository& r) { return r.source == text; }))
    return error(400, "Can't add " + text + ", already in the store");
  const std::string tail = text.substr(text.find_last_of('/') + 1);
  d.repositories.push_back({repository_slug(text), tail, text, text, "unknown"});
  return ok();
}

RestResponse remove_repository(RestCall& c, SupervisorData& d) {
  auto it = std::find_if(d.repositories.begin(), d.repositories.end(),
                         [&](const SimRepository& r) { return r.slug == c.path[0]; });
  if (it == d.repositories.end()) return error(404, "Repository " + c.path[0] + " does not exist in the store");
  if (it->slug == "core" || it->slug == "local") return error(400, "Can't remove built-in repositories!");
  const bool in_use = std::any_of(d.addons.begin(), d.addons.end(),
                                  [&](const SimAddon& a) { return a.repository == it->slug && a.installed(); });
  if (in_use) return error(400, "Can't remove '" + it->source + "'. It's used by installed add-ons");
  d.repositories.erase(it);
  return ok();
}

}  // namespace

void add_store_routes(RestRouter& r) {
  r.add("GET", "/store", guarded([](RestCall&, SupervisorData& d) {
          return ok(json::object{{"addons", store_addons(d)}, {"repositories", repositories(d)}});
        }));
  r.add("GET", "/store/addons", guarded([](RestCall&, SupervisorData& d) {
          return ok(json::object{{"addons", store_addons(d)}});
        }));
  r.add("GET", "/store/addons/{slug}", guarded([](RestCall& c, SupervisorData& d) {
          SimAddon* a = find_addon(d, c.path[0]);
          return a ? ok(store_item(*a)) : error(404, "Addon " + c.path[0] + " does not exist in the store");
        }));
  r.add("POST", "/store/reload", guarded([](RestCall&, SupervisorData&) { return ok(); }));
  r.add("GET", "/store/repositories", guarded([](RestCall&, SupervisorData& d) { return ok(repositories(d)); }));
  r.add("POST", "/store/repositories", guarded(add_repository));
  r.add("DELETE", "/store/repositories/{repository}", guarded(remove_repository));
  r.add("GET", "/supervisor/info", guarded([](RestCall&, SupervisorData& d) {
          return ok(json::object{{"version", d.version},
                                 {"version_latest", d.version},
                                 {"update_available", false},
                                 {"channel", "stable"},
                                 {"arch", "amd64"},
                                 {"supported", true},
                                 {"healthy", true}});
        }));
  r.add("GET", "/supervisor/logs", guarded([](RestCall& c, SupervisorData& d) { return log_text(d.log, c.query); }));
  r.add("GET", "/host/logs/identifiers", guarded([](RestCall&, SupervisorData& d) {
          json::array ids;
          for (const auto& [identifier, lines] : d.host_logs) ids.emplace_back(identifier);
          return ok(json::object{{"identifiers", std::move(ids)}});
        }));
  r.add("GET", "/host/logs/identifiers/{identifier}", guarded([](RestCall& c, SupervisorData& d) {
          auto it = d.host_logs.find(c.path[0]);
          static const std::vector<std::string> none;
          return log_text(it == d.host_logs.end() ? none : it->second, c.query);
        }));
}

}  // namespace hamcp::sim::supervisor_detail
