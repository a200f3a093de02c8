// WebSocket commands blueprint/list, import, save, delete, substitute
// (components/blueprint/websocket_api.py): HA's fields, results and error
// codes. blueprint/import fetches the URL itself, as HA does, on a thread of
// its own (the simulator's io thread never waits on a network).
#include <boost/url/parse.hpp>
#include <thread>

#include "sim/core/blueprints.hpp"
#include "sim/core/url_fetch.hpp"
#include "sim/ws/ws_command_util.hpp"
#include "yaml/yaml_json.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

constexpr std::chrono::seconds kImportTimeout{10};  // HA's asyncio.timeout(10)

// cv.path: no "..", not absolute.
std::string path_arg(const json::object& msg) {
  std::string path = req_string(msg, "path");
  if (path.empty() || path.front() == '/' || path.find("..") != std::string::npos)
    throw BadMessage{"expected a path for dictionary value @ data['path']"};
  return path;
}

void blueprint_list(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = req_string(msg, "domain");
  json::object out;
  for (const auto& [key, file] : home(c).blueprints) {
    if (key.rfind(domain + "/", 0) != 0) continue;
    out[key.substr(domain.size() + 1)] = json::object{{"metadata", file.data.at("blueprint")}};
  }
  c.send_result(id, out);
}

// The part of the import that runs after the fetch: parse, check, answer.
void finish_import(WsConnection& c, int64_t id, const std::string& url, const FetchResult& got) {
  if (got.timed_out) return c.send_error(id, "timeout", "Timeout");
  // aiohttp's raise_for_status / connection errors are not HomeAssistantErrors: HA says "Unknown error".
  if (got.status != 200) return c.send_error(id, "unknown_error", "Unknown error");
  json::value doc;
  try {
    doc = yaml::parse_yaml(got.body);
  } catch (const yaml::YamlError& e) {
    return c.send_error(id, "home_assistant_error", e.what());
  }
  if (auto problem = blueprint_problem(doc, {})) return c.send_error(id, "home_assistant_error", *problem);
  json::object meta = doc.at("blueprint").as_object();
  meta["source_url"] = url;
  const std::string domain(meta.at("domain").get_string());
  if (!is_blueprint_domain(domain)) return c.send_error(id, "invalid_format", "Unsupported domain");
  auto parsed = boost::urls::parse_absolute_uri(url);
  std::string file = std::string(parsed->path());
  file = file.substr(file.rfind('/') + 1);
  const std::string suggested =
      std::string(parsed->host()) + "/" + file.substr(0, file.size() >= 5 ? file.size() - 5 : 0);
  std::lock_guard lock(c.core().store().mutex());
  const bool exists = home(c).blueprints.count(blueprint_key(domain, suggested + ".yaml")) > 0;
  c.send_result(id, json::object{{"suggested_filename", suggested},
                                 {"raw_data", got.body},
                                 {"blueprint", json::object{{"metadata", meta}}},
                                 {"validation_errors", nullptr},
                                 {"exists", exists}});
}

void blueprint_import(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string url = req_string(msg, "url");
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    throw BadMessage{"invalid url for dictionary value @ data['url']"};
  std::thread([weak = c.weak(), id, url] {
    const FetchResult got = fetch_url(url, kImportTimeout);
    if (auto conn = weak.lock()) finish_import(*conn, id, url, got);
  }).detach();
}

void blueprint_save(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = req_string(msg, "domain");
  std::string path = path_arg(msg);
  const std::string text = req_string(msg, "yaml");
  const auto source_url = opt_string(msg, "source_url");
  const bool allow_override = opt_bool(msg, "allow_override", false);
  if (!is_blueprint_domain(domain)) return c.send_error(id, "invalid_format", "Unsupported domain");
  json::value doc;
  try {
    doc = yaml::parse_yaml(text);
  } catch (const yaml::YamlError& e) {
    return c.send_error(
        id, "invalid_format",
        std::string(e.what()) + " (line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) + ")");
  }
  if (auto problem = blueprint_problem(doc, domain)) return c.send_error(id, "invalid_format", *problem);
  if (source_url) doc.as_object()["blueprint"].as_object()["source_url"] = *source_url;
  if (path.size() < 5 || path.compare(path.size() - 5, 5, ".yaml") != 0) path += ".yaml";
  auto& store = home(c).blueprints;
  const std::string key = blueprint_key(domain, path);
  const bool exists = store.count(key) > 0;
  if (exists && !allow_override) return c.send_error(id, "already_exists", "File already exists");
  store[key] = BlueprintFile{text, doc.as_object()};
  c.send_result(id, json::object{{"overrides_existing", exists}});
}

void blueprint_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = req_string(msg, "domain");
  const std::string path = path_arg(msg);
  if (!is_blueprint_domain(domain)) return c.send_error(id, "invalid_format", "Unsupported domain");
  auto& store = home(c).blueprints;
  auto it = store.find(blueprint_key(domain, path));
  if (it == store.end())
    return c.send_error(id, "unknown_error",
                        "[Errno 2] No such file or directory: '/config/blueprints/" + domain + "/" + path + "'");
  if (!blueprint_users(home(c), domain, path).empty())
    return c.send_error(id, "home_assistant_error", "Blueprint in use");
  store.erase(it);
  c.send_result(id, nullptr);
}

void blueprint_substitute(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string domain = req_string(msg, "domain");
  const std::string path = path_arg(msg);
  const json::value* input = msg.if_contains("input");
  if (!input) throw BadMessage{"required key not provided @ data['input']"};
  if (!input->is_object()) throw BadMessage{"expected dict for dictionary value @ data['input']"};
  if (!is_blueprint_domain(domain)) return c.send_error(id, "invalid_format", "Unsupported domain");
  auto it = home(c).blueprints.find(blueprint_key(domain, path));
  if (it == home(c).blueprints.end())
    return c.send_error(id, "unknown_error", "Failed to load blueprint: Unable to find " + domain + "/" + path);
  try {
    c.send_result(id, json::object{{"substituted_config", substitute_blueprint(it->second.data, input->get_object())}});
  } catch (const std::exception& e) {
    c.send_error(id, "unknown_error", e.what());
  }
}

}  // namespace

void register_blueprint_commands(ws_util::Table& t) {
  t["blueprint/list"] = blueprint_list;
  t["blueprint/import"] = blueprint_import;
  t["blueprint/save"] = blueprint_save;
  t["blueprint/delete"] = blueprint_delete;
  t["blueprint/substitute"] = blueprint_substitute;
}

}  // namespace hamcp::sim
