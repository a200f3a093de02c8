// Update entities read from the mirror: their category inferred from the
// entity registry (platform hassio: core, OS, Supervisor or an add-on; hacs)
// and the device class (firmware), their attributes in one flat item.
#include <algorithm>

#include "common/ascii.hpp"
#include "tools/tool_error.hpp"
#include "tools/updates/updates_tools.hpp"

namespace hamcp::tools::updates {

namespace {

std::string text(const json::object* o, std::string_view key) {
  const json::value* v = o ? o->if_contains(key) : nullptr;
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The Supervisor's update entities: core, OS, Supervisor; every other one is an add-on.
std::string hassio_category(const std::string& entity_id, const std::string& title) {
  const std::string t = ascii_lower(title) + " " + entity_id;
  if (t.find("operating system") != std::string::npos || t.find("operating_system") != std::string::npos) return "os";
  if (t.find("supervisor") != std::string::npos) return "supervisor";
  if (t.find("home assistant core") != std::string::npos || entity_id == "update.home_assistant_core_update")
    return "core";
  return "addons";
}

std::string infer_category(const ha::Snapshot& snap, const std::string& entity_id, const json::object& attrs) {
  const ha::RegistryItem entry = snap.registry(ha::RegistryKind::entity).find(entity_id);
  const std::string platform = text(entry.get(), "platform");
  if (platform == "hacs") return "hacs";
  if (platform == "hassio") return hassio_category(entity_id, text(&attrs, "title"));
  if (entity_id == "update.home_assistant_core_update") return "core";
  std::string device_class = text(&attrs, "device_class");
  if (device_class.empty()) device_class = text(entry.get(), "original_device_class");
  if (device_class == "firmware") return "devices";
  return "other";
}

json::array feature_names(std::int64_t bits) {
  static const std::pair<std::int64_t, const char*> kNames[] = {{kInstall, "install"},
                                                                {kSpecificVersion, "specific_version"},
                                                                {kProgress, "progress"},
                                                                {kBackup, "backup"},
                                                                {kReleaseNotes, "release_notes"}};
  json::array out;
  for (const auto& [bit, name] : kNames)
    if (bits & bit) out.emplace_back(name);
  return out;
}

UpdateView view_of(const ha::Snapshot& snap, const ha::EntityState& s) {
  const json::object a = s.attributes.parse();
  UpdateView v;
  v.entity_id = s.entity_id;
  v.category = infer_category(snap, s.entity_id, a);
  const json::value* features = a.if_contains("supported_features");
  v.features = features && features->is_int64() ? features->get_int64() : 0;
  v.available = s.state == "on";
  const json::value* skipped = a.if_contains("skipped_version");
  v.skipped = skipped && skipped->is_string();
  const json::value* progress = a.if_contains("in_progress");
  v.in_progress = progress && progress->is_bool() && progress->get_bool();
  json::object item{
      {"entity_id", s.entity_id}, {"name", text(&a, "friendly_name")}, {"category", v.category}, {"state", s.state}};
  for (const char* key : {"installed_version", "latest_version", "skipped_version", "title", "release_summary",
                          "release_url", "update_percentage"})
    if (const json::value* x = a.if_contains(key); x && !x->is_null()) item[key] = *x;
  if (v.in_progress) item["in_progress"] = true;
  if (const json::value* x = a.if_contains("auto_update"); x && x->is_bool() && x->get_bool())
    item["auto_update"] = true;
  item["supports"] = feature_names(v.features);
  v.item = std::move(item);
  return v;
}

}  // namespace

std::vector<UpdateView> update_entities(const ha::Snapshot& snap) {
  std::vector<UpdateView> out;
  snap.states.for_each([&](const ha::EntityStatePtr& s) {
    if (s->entity_id.rfind("update.", 0) == 0) out.push_back(view_of(snap, *s));
  });
  std::sort(out.begin(), out.end(), [](const UpdateView& a, const UpdateView& b) { return a.entity_id < b.entity_id; });
  return out;
}

UpdateView update_entity(const ha::Snapshot& snap, const search::EntityIndex& index, const std::string& entity_id) {
  if (entity_id.rfind("update.", 0) != 0)
    throw ToolException(bad_argument("entity_ids", "'" + entity_id + "' is not an update entity (update.*)",
                                     "action=list shows the update entities."));
  const ha::EntityStatePtr s = snap.states.find(entity_id);
  if (!s) throw ToolException(unknown_entity(index, entity_id, "entity_ids"));
  return view_of(snap, *s);
}

std::vector<UpdateView> entities_arg(Args& args, const ha::Snapshot& snap, const search::EntityIndex& index) {
  std::vector<std::string> ids = args.list("entity_ids");
  if (ids.empty() && args.has("entity_id")) ids = args.list("entity_id");
  if (ids.empty())
    throw ToolException(bad_argument("entity_ids", "missing", "Pass entity_ids, e.g. [\"update.x\"] (action=list)."));
  std::vector<UpdateView> out;
  for (const auto& id : ids) out.push_back(update_entity(snap, index, id));
  return out;
}

std::vector<std::string> categories_arg(Args& args) {
  std::vector<std::string> out;
  for (const auto& name : args.list("categories")) {
    std::string c = category_name(name);
    if (c.empty())
      throw ToolException(bad_argument("categories", "unknown category '" + name + "'",
                                       "Use core, os, supervisor, addons, devices, hacs or other."));
    out.push_back(std::move(c));
  }
  return out;
}

std::string category_name(std::string name) {
  name = ascii_lower(std::move(name));
  static const std::pair<const char*, const char*> kNames[] = {
      {"core", "core"},        {"os", "os"},        {"operating_system", "os"}, {"supervisor", "supervisor"},
      {"addons", "addons"},    {"addon", "addons"}, {"add-on", "addons"},       {"add-ons", "addons"},
      {"apps", "addons"},      {"app", "addons"},   {"devices", "devices"},     {"device", "devices"},
      {"firmware", "devices"}, {"hacs", "hacs"},    {"other", "other"}};
  for (const auto& [from, to] : kNames)
    if (name == from) return to;
  return {};
}

boost::asio::awaitable<json::value> release_notes(ToolEnv& env, std::string entity_id) {
  json::object message{{"type", "update/release_notes"}, {"entity_id", entity_id}};
  try {
    auto reading = env.ha.command(std::move(message));
    json::value notes = co_await std::move(reading);
    co_return notes;
  } catch (const ha::HaException& e) {
    const std::string& code = e.error().ha_code;
    if (code == "not_supported") co_return json::value("(this entity offers no release notes; see release_url)");
    if (code != "not_found" && code != "unknown_command") throw;
  }
  throw ToolException(bad_argument("entity_ids", "Home Assistant knows no update entity " + entity_id,
                                   "action=list shows the update entities."));
}

}  // namespace hamcp::tools::updates
