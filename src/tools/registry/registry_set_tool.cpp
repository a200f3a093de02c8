// ha_set_registry: create or update an area, floor, label, category or zone,
// or update a device (name, area, labels, disabled). One write, never
// retried; journaled (before/after); the answer lists each changed field;
// then waits until the mirror shows it, so ha_search finds the new name.
// ha-mcp's ha_set_device, ha_set_area_or_floor, ha_config_set_label,
// ha_config_set_category and ha_set_zone are hidden names of this tool.
#include <algorithm>
#include <boost/json/value_from.hpp>

#include "home/entity_docs.hpp"
#include "tools/registry/registry_tools.hpp"
#include "tools/registry/registry_views.hpp"

namespace hamcp::tools {

namespace {

using namespace registry;
using home::str_of;

struct Field {
  std::string_view arg;  // the tool's argument
  std::string_view ha;   // HA's field
};

const std::vector<Field>& fields_of(Kind kind) {
  static const std::vector<Field> kDevice = {
      {"name", "name_by_user"}, {"area_id", "area_id"}, {"labels", "labels"}, {"disabled_by", "disabled_by"}};
  static const std::vector<Field> kArea = {{"name", "name"},
                                           {"floor_id", "floor_id"},
                                           {"aliases", "aliases"},
                                           {"icon", "icon"},
                                           {"picture", "picture"},
                                           {"labels", "labels"},
                                           {"temperature_entity_id", "temperature_entity_id"},
                                           {"humidity_entity_id", "humidity_entity_id"}};
  static const std::vector<Field> kFloor = {
      {"name", "name"}, {"level", "level"}, {"aliases", "aliases"}, {"icon", "icon"}};
  static const std::vector<Field> kLabel = {
      {"name", "name"}, {"color", "color"}, {"icon", "icon"}, {"description", "description"}};
  static const std::vector<Field> kCategory = {{"name", "name"}, {"icon", "icon"}};
  static const std::vector<Field> kZone = {{"name", "name"},     {"latitude", "latitude"}, {"longitude", "longitude"},
                                           {"radius", "radius"}, {"passive", "passive"},   {"icon", "icon"}};
  switch (kind) {
    case Kind::device:
      return kDevice;
    case Kind::area:
      return kArea;
    case Kind::floor:
      return kFloor;
    case Kind::label:
      return kLabel;
    case Kind::category:
      return kCategory;
    default:
      return kZone;
  }
}

// An area, floor or label named by id or name -> its id; bad_argument naming the known ones.
boost::asio::awaitable<std::string> resolve(ToolEnv& env, const ha::Snapshot& snap, Kind kind, std::string field,
                                            std::string ref) {
  auto listing = list_items(env, snap, kind, "");  // named: GCC 12 coroutine temporaries
  const std::vector<json::object> items = co_await std::move(listing);
  if (const json::object* found = find_item(items, kind, ref)) co_return key_of(*found, kind);
  const ToolError missing = not_found(kind, ref, items);
  throw ToolException(bad_argument(
      field, missing.message, "Create it first, or use one of: " + json::serialize(missing.extra.at("known")) + "."));
}

// The value to send for one argument: "" means null (clear); ids resolved from names.
boost::asio::awaitable<json::value> value_for(ToolEnv& env, const ha::Snapshot& snap, Args& args, const Field& f) {
  json::value v = *args.get(f.arg);
  if (v.is_string() && v.get_string().empty()) v = nullptr;
  if (f.ha == "area_id" && v.is_string()) {
    auto resolving = resolve(env, snap, Kind::area, std::string(f.arg), std::string(v.get_string()));
    v = co_await std::move(resolving);
  } else if (f.ha == "floor_id" && v.is_string()) {
    auto resolving = resolve(env, snap, Kind::floor, std::string(f.arg), std::string(v.get_string()));
    v = co_await std::move(resolving);
  } else if (f.ha == "labels") {
    json::array ids;
    for (const std::string& l : args.list(f.arg)) {
      auto resolving = resolve(env, snap, Kind::label, std::string(f.arg), l);
      std::string id = co_await std::move(resolving);
      ids.emplace_back(id);
    }
    v = std::move(ids);
  } else if (f.ha == "aliases") {
    v = json::value_from(args.list(f.arg));
  }
  co_return v;
}

// ha-mcp's ha_config_set_label areas=[...]: the label added to those areas.
boost::asio::awaitable<json::array> label_areas(ToolEnv& env, const ha::Snapshot& snap, Args& args,
                                                const std::string& label_id) {
  json::array labelled;
  for (const std::string& ref : args.list("areas")) {
    auto resolving = resolve(env, snap, Kind::area, "areas", ref);
    const std::string area_id = co_await std::move(resolving);
    const ha::RegistryItem area = snap.registry(ha::RegistryKind::area).find(area_id);
    json::array labels;
    if (area && area->contains("labels")) labels = area->at("labels").as_array();
    if (std::find(labels.begin(), labels.end(), json::value(label_id)) == labels.end()) labels.emplace_back(label_id);
    json::object msg{{"type", "config/area_registry/update"}, {"area_id", area_id}, {"labels", std::move(labels)}};
    auto writing = write(env, std::move(msg));
    co_await std::move(writing);
    labelled.emplace_back(area_id);
  }
  co_return labelled;
}

// Each written field whose value differs from before: {field, before, after}.
json::array changes(const json::object& msg, Kind kind, const json::object* before, const json::value& after) {
  json::array out;
  const json::object* a = after.if_object();
  for (const auto& kv : msg) {
    if (kv.key() == "type" || kv.key() == "scope" || kv.key() == info(kind).id_param) continue;
    const json::value old = before && before->contains(kv.key()) ? before->at(kv.key()) : json::value(nullptr);
    const json::value now = a && a->contains(kv.key()) ? a->at(kv.key()) : kv.value();
    if (before && old == now) continue;
    out.push_back(json::object{{"field", kv.key()}, {"before", old}, {"after", now}});
  }
  return out;
}

void check_create(Kind kind, Args& args) {
  if (kind == Kind::device)
    throw ToolException(bad_argument("id", "missing: devices are created by their integrations",
                                     "Pass the device id (ha_get_registry kind=device lists them)."));
  if (!args.has("name"))
    throw ToolException(bad_argument("name", "required to create a " + std::string(info(kind).name),
                                     "Pass name, or id to update an existing one."));
  if (kind == Kind::zone && (!args.has("latitude") || !args.has("longitude")))
    throw ToolException(bad_argument("latitude", "a new zone needs latitude and longitude", "Pass both."));
  if (kind == Kind::category && !args.has("scope"))
    throw ToolException(bad_argument("scope", "required for a category", "Use automation, script, scene or helpers."));
}

boost::asio::awaitable<json::object> build_message(ToolEnv& env, const ha::Snapshot& snap, Args& args, Kind kind,
                                                   const json::object* existing) {
  const KindInfo& k = info(kind);
  json::object msg{{"type", std::string(k.prefix) + (existing ? "/update" : "/create")}};
  if (existing) msg[k.id_param] = key_of(*existing, kind);
  if (kind == Kind::category) msg["scope"] = existing ? str_of(existing, "scope") : args.str("scope");
  bool any = false;
  for (const Field& f : fields_of(kind)) {
    if (!args.get(f.arg)) continue;
    auto valuing = value_for(env, snap, args, f);  // named: GCC 12 coroutine temporaries
    msg[f.ha] = co_await std::move(valuing);
    any = true;
  }
  if (!any && existing && !args.has("areas"))
    throw ToolException(bad_argument("id", "nothing to change", "Pass at least one field to set."));
  // A storage collection's update may replace the whole item: send the zone's other fields as they are.
  if (kind == Kind::zone && existing)
    for (const Field& f : fields_of(kind))
      if (!msg.contains(f.ha) && existing->contains(f.ha)) msg[f.ha] = existing->at(f.ha);
  co_return msg;
}

boost::asio::awaitable<mcp::ToolResult> run_set_registry(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const Kind kind = kind_of(args, {Kind::device, Kind::area, Kind::floor, Kind::label, Kind::category, Kind::zone});
  ha::SnapshotPtr snap = co_await env.snapshot();
  auto listing = list_items(env, *snap, kind, args.str("scope"));
  const std::vector<json::object> items = co_await std::move(listing);
  const std::string ref = args.str("id");
  const json::object* existing = ref.empty() ? nullptr : find_item(items, kind, ref);
  if (!ref.empty() && !existing) throw ToolException(not_found(kind, ref, items));
  if (!existing) check_create(kind, args);
  auto building = build_message(env, *snap, args, kind, existing);
  json::object msg = co_await std::move(building);
  const json::object sent = msg;
  auto writing = write(env, std::move(msg));
  json::value answer = co_await std::move(writing);
  const json::object* after = answer.if_object();
  const std::string key = after ? key_of(*after, kind) : ref;
  json::object body{{"kind", info(kind).name}, {"id", key}, {"action", existing ? "update" : "create"}};
  body["changed"] = changes(sent, kind, existing, answer);
  if (kind == Kind::label && args.has("areas")) {
    auto labelling = label_areas(env, *snap, args, key);
    body["labelled_areas"] = co_await std::move(labelling);
  }
  helpers::journal(env, body, std::string(info(kind).name), key, "", existing ? "update" : "create",
                   existing ? json::value(list_view(*existing, kind)) : json::value(nullptr), answer);
  json::object expect;
  for (const auto& kv : sent)
    if (after && after->contains(kv.key()) && kv.key() != "type") expect[kv.key()] = after->at(kv.key());
  auto waiting = wait_mirror(env, kind, key, expect, false);
  json::object waited = co_await std::move(waiting);
  if (!waited.empty()) body["mirror"] = std::move(waited);
  if (after) body["item"] = list_view(*after, kind);
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_set_registry_spec() {
  ToolSpec s;
  s.name = "ha_set_registry";
  s.title = "Create or update an area, floor, label, category, zone or device";
  s.description =
      "Without id: create (name required). With id (or exact name): update only the given fields; \"\" clears. "
      "device: name, area_id, labels, disabled_by. Exposure: ha_set_entity expose.";
  s.input_schema = R"J({"type":"object","properties":{
"kind":{"type":"string","enum":["device","area","floor","label","category","zone"]},
"id":{"type":"string"},"name":{"type":"string"},"icon":{"type":"string"},
"aliases":{"type":"array","items":{"type":"string"}},"labels":{"type":"array","items":{"type":"string"}},
"area_id":{"type":"string"},"floor_id":{"type":"string"},"disabled_by":{"type":"string","enum":["user",""]},
"level":{"type":"integer"},"picture":{"type":"string"},
"temperature_entity_id":{"type":"string"},"humidity_entity_id":{"type":"string"},
"color":{"type":"string"},"description":{"type":"string"},"scope":{"type":"string"},
"latitude":{"type":"number"},"longitude":{"type":"number"},"radius":{"type":"number"},"passive":{"type":"boolean"}},
"required":["kind"]})J";
  s.output_schema = R"J({"type":"object","properties":{"id":{"type":"string"},"changed":{"type":"array"}}})J";
  s.annotations = writes(false, false);
  s.legacy_args = {{"device_id", "id"}, {"label_id", "id"}, {"category_id", "id"}, {"zone_id", "id"}};
  s.hidden_args = {"areas"};
  const char* nullable = R"J({"type":["string","null"]})J";
  s.also_accepts = {{"name", nullable},
                    {"icon", nullable},
                    {"area_id", nullable},
                    {"floor_id", nullable},
                    {"picture", nullable},
                    {"disabled_by", R"J({"type":["string","null"],"enum":["user","",null]})J"},
                    {"level", R"J({"type":["integer","null"]})J"},
                    {"labels", R"J({"type":["string","array"]})J"},
                    {"aliases", R"J({"type":["string","array"]})J"}};
  s.alias_args = {{"ha_set_device", R"({"kind":"device"})"},
                  {"ha_config_set_label", R"({"kind":"label"})"},
                  {"ha_config_set_category", R"({"kind":"category"})"},
                  {"ha_set_zone", R"({"kind":"zone"})"}};
  s.aliases = {"ha_set_area_or_floor"};
  s.run = run_set_registry;
  return s;
}

}  // namespace hamcp::tools
