// HACS's WebSocket API (hacs/integration, custom_components/hacs/websocket):
// hacs/info, hacs/repositories/list|add|remove, hacs/repository/info|download|
// remove|refresh|releases, in its shapes. Like a Home Assistant without HACS,
// every command is unknown while there is no "hacs" config entry. HACS
// answers {} to add even when it fails (it reports the failure as an event);
// so does the sim.
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

const char* const kCategories[] = {"appdaemon", "integration", "plugin", "python_script", "template", "theme"};

bool hacs_loaded(WsConnection& c) {
  for (const auto& e : home(c).config_entries)
    if (e.at("entry").as_object().if_contains("domain") && e.at("entry").at("domain") == "hacs") return true;
  return false;
}

json::object* find_repo(WsConnection& c, const std::string& id) {
  for (auto& r : home(c).hacs_repositories)
    if (r.at("id") == id.c_str()) return &r;
  return nullptr;
}

// What hacs/repositories/list shows of a repository (the info minus its detail fields).
json::object list_item(const json::object& r) {
  static const char* const kDetail[] = {"additional_info", "beta", "default_branch", "hide_default_branch", "issues",
                                        "releases",        "ref",  "selected_tag",   "version_or_commit"};
  json::object out = r;
  for (const char* k : kDetail) out.erase(k);
  return out;
}

void info(WsConnection& c, int64_t id, const json::object&) {
  json::array categories;
  for (const char* cat : kCategories) categories.emplace_back(cat);
  c.send_result(id, json::object{{"categories", std::move(categories)},
                                 {"country", nullptr},
                                 {"debug", false},
                                 {"dev", false},
                                 {"disabled_reason", nullptr},
                                 {"has_pending_tasks", false},
                                 {"lovelace_mode", "storage"},
                                 {"stage", "running"},
                                 {"startup", false},
                                 {"version", "2.0.5"}});
}

void repositories_list(WsConnection& c, int64_t id, const json::object& msg) {
  const json::value* wanted = msg.if_contains("categories");
  if (wanted && !wanted->is_array()) throw BadMessage{"expected list for dictionary value @ data['categories']"};
  json::array out;
  for (const auto& r : home(c).hacs_repositories) {
    bool keep = !wanted;
    if (wanted)
      for (const auto& cat : wanted->get_array()) keep = keep || cat == r.at("category");
    if (keep) out.push_back(list_item(r));
  }
  c.send_result(id, out);
}

void repository_info(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string repo_id = req_string(msg, "repository_id");
  json::object* r = find_repo(c, repo_id);
  if (!r) return c.send_error(id, "repository_not_found", "Repository with ID (" + repo_id + ") not found");
  (*r)["new"] = false;
  c.send_result(id, *r);
}

// HACS looks the repository up and calls a method on it: an unknown id is
// Python's AttributeError on None, which HA reports as unknown_error.
json::object& existing_repo(WsConnection& c, const std::string& repo_id) {
  json::object* r = find_repo(c, repo_id);
  if (!r) throw std::runtime_error("'NoneType' object has no attribute 'data'");
  return *r;
}

void repository_download(WsConnection& c, int64_t id, const json::object& msg) {
  json::object& r = existing_repo(c, req_string(msg, "repository"));
  const auto version = opt_string(msg, "version");
  r["installed"] = true;
  r["installed_version"] = version ? json::value(*version) : r.at("available_version");
  r["version_or_commit"] = "version";
  r["pending_upgrade"] = r.at("installed_version") != r.at("available_version");
  r["status"] = r.at("pending_upgrade").as_bool() ? "pending-upgrade" : "installed";
  r["state"] = nullptr;
  c.send_result(id, json::object{});
}

void repository_remove(WsConnection& c, int64_t id, const json::object& msg) {
  json::object& r = existing_repo(c, req_string(msg, "repository"));
  r["installed"] = false;
  r["installed_version"] = nullptr;
  r["pending_upgrade"] = false;
  r["status"] = "default";
  c.send_result(id, json::object{});
}

void repository_refresh(WsConnection& c, int64_t id, const json::object& msg) {
  existing_repo(c, req_string(msg, "repository"));
  c.send_result(id, json::object{});
}

void repository_releases(WsConnection& c, int64_t id, const json::object& msg) {
  const json::object& r = existing_repo(c, req_string(msg, "repository_id"));
  json::array out;
  if (const json::array* tags = r.at("releases").if_array())
    for (const auto& tag : *tags)
      out.push_back(
          json::object{{"name", tag}, {"tag", tag}, {"published_at", "2026-01-15T10:00:00Z"}, {"prerelease", false}});
  c.send_result(id, out);
}

// "https://github.com/owner/name" or "owner/name" -> "owner/name"; "" if neither.
std::string full_name_of(std::string text) {
  for (const char* prefix : {"https://github.com/", "http://github.com/", "github.com/"})
    if (text.rfind(prefix, 0) == 0) text = text.substr(std::string(prefix).size());
  while (!text.empty() && text.back() == '/') text.pop_back();
  if (text.size() > 4 && text.substr(text.size() - 4) == ".git") text.resize(text.size() - 4);
  const auto slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size() ||
      text.find('/', slash + 1) != std::string::npos)
    return {};
  return text;
}

void repositories_add(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string full_name = full_name_of(req_string(msg, "repository"));
  std::string category = req_string(msg, "category");
  for (auto& ch : category) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  bool known_category = false;
  for (const char* cat : kCategories) known_category = known_category || category == cat;
  bool exists = false;
  for (const auto& r : home(c).hacs_repositories) exists = exists || r.at("full_name") == full_name.c_str();
  if (!full_name.empty() && known_category && !exists) {
    const std::string repo_id = std::to_string(900000000 + home(c).hacs_repositories.size());
    const std::string name = full_name.substr(full_name.find('/') + 1);
    home(c).hacs_repositories.push_back(
        json::object{{"additional_info", "A custom repository."},
                     {"authors", json::array{}},
                     {"available_version", "1.0.0"},
                     {"beta", false},
                     {"can_download", true},
                     {"category", category},
                     {"config_flow", false},
                     {"country", json::array{}},
                     {"custom", true},
                     {"default_branch", "main"},
                     {"description", ""},
                     {"domain", category == "integration" ? json::value(name) : json::value(nullptr)},
                     {"downloads", 0},
                     {"file_name", name},
                     {"full_name", full_name},
                     {"hide", false},
                     {"hide_default_branch", false},
                     {"homeassistant", nullptr},
                     {"id", repo_id},
                     {"installed_version", nullptr},
                     {"installed", false},
                     {"issues", 0},
                     {"last_updated", "2026-01-20T08:00:00Z"},
                     {"local_path", nullptr},
                     {"name", name},
                     {"new", true},
                     {"pending_upgrade", false},
                     {"releases", json::array{"1.0.0"}},
                     {"ref", "1.0.0"},
                     {"selected_tag", nullptr},
                     {"stars", 0},
                     {"state", nullptr},
                     {"status", "new"},
                     {"topics", json::array{}},
                     {"version_or_commit", "version"}});
  }
  c.send_result(id, json::object{});
}

void repositories_remove(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string repo_id = req_string(msg, "repository");
  existing_repo(c, repo_id);
  auto& repos = home(c).hacs_repositories;
  std::erase_if(repos, [&](const json::object& r) { return r.at("id") == repo_id.c_str(); });
  c.send_result(id, json::object{});
}

template <WsConnection::Handler H>
void when_loaded(WsConnection& c, int64_t id, const json::object& msg) {
  if (!hacs_loaded(c)) return c.send_error(id, "unknown_command", "Unknown command.");
  H(c, id, msg);
}

}  // namespace

void register_hacs_commands(ws_util::Table& t) {
  t["hacs/info"] = when_loaded<info>;
  t["hacs/repositories/list"] = when_loaded<repositories_list>;
  t["hacs/repositories/add"] = when_loaded<repositories_add>;
  t["hacs/repositories/remove"] = when_loaded<repositories_remove>;
  t["hacs/repository/info"] = when_loaded<repository_info>;
  t["hacs/repository/download"] = when_loaded<repository_download>;
  t["hacs/repository/remove"] = when_loaded<repository_remove>;
  t["hacs/repository/refresh"] = when_loaded<repository_refresh>;
  t["hacs/repository/releases"] = when_loaded<repository_releases>;
}

}  // namespace hamcp::sim
