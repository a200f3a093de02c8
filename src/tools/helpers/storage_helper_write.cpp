// ha_config_set_helper for storage collections: <type>/create, <type>/update
// (HA replaces the whole item: the stored fields are sent again with the
// caller's changes on top) and <type>/delete, each sent once and journaled.
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_write.hpp"

namespace hamcp::tools::helpers {

namespace {

std::string id_of(const json::value& item) {
  const json::object* o = item.if_object();
  const json::value* id = o ? o->if_contains("id") : nullptr;
  return id && id->is_string() ? std::string(id->get_string()) : std::string();
}

// The stored item `id` of `type` (HA's own fields), or throws helper_not_found.
boost::asio::awaitable<json::object> stored_item(ToolEnv& env, const std::string& type, const std::string& id) {
  auto reading = ws_read(env, json::object{{"type", type + "/list"}});
  json::value listed = co_await std::move(reading);
  if (const json::object* o = listed.if_object(); o && o->contains("storage")) listed = o->at("storage");  // person
  std::string known;
  if (listed.is_array())
    for (const auto& item : listed.as_array()) {
      if (id_of(item) == id) co_return item.as_object();
      known += (known.empty() ? "" : ", ") + id_of(item);
    }
  throw ToolException(ToolError{"helper_not_found",
                                "No " + type + " with id '" + id + "'. Nothing was written.",
                                "Pass helper_id as one of: " + (known.empty() ? std::string("(none)") : known) +
                                    " (ha_config_list_helpers helper_type=" + type + ").",
                                {{"written", false}}});
}

json::object fields_from(const HelperCall& call) {
  json::object msg = call.config;
  if (call.name) msg["name"] = *call.name;
  if (call.icon) msg["icon"] = *call.icon;
  return msg;
}

boost::asio::awaitable<json::object> wait_entity(ToolEnv& env, const std::string& eid, bool present) {
  auto waiting = wait_for(
      env, [eid, present](const ha::Snapshot& s) { return static_cast<bool>(s.states.find(eid)) == present; },
      env.options.default_wait);
  json::object report = co_await std::move(waiting);
  json::object out{
      {present ? "appeared" : "removed", report.at("done")}, {"entity_id", eid}, {"waited_ms", report.at("waited_ms")}};
  co_return out;
}

}  // namespace

boost::asio::awaitable<json::object> write_storage_helper(ToolEnv& env, const HelperCall& call) {
  const std::string& type = call.type;
  json::object body{{"helper_type", type}};
  json::object before;
  json::object msg = fields_from(call);
  if (call.action != "create") {
    auto reading = stored_item(env, type, call.id);
    before = co_await std::move(reading);
  }
  if (call.action == "create") {
    if (!msg.contains("name") && type != "tag")
      throw ToolException(bad_argument("name", "required to create a " + type, "Pass name (or config.name)."));
    msg["type"] = type + "/create";
  } else if (call.action == "update") {
    json::object merged = call.replace ? json::object{} : before;
    merged.erase("id");
    for (const auto& kv : msg) merged[kv.key()] = kv.value();
    if (type == "tag") merged.erase("tag_id");  // the tag's key (helper_id): HA's tag/update refuses it as a field
    msg = std::move(merged);
    msg["type"] = type + "/update";
    msg[type + "_id"] = call.id;
  } else {
    msg = json::object{{"type", type + "/delete"}, {type + "_id", call.id}};
  }
  auto writing = ws_write(env, std::move(msg), "the " + type + " " + call.action);
  json::value result = co_await std::move(writing);
  const std::string id = call.action == "create" ? id_of(result) : call.id;
  // A tag's entity is named after the tag's name (tag.<name>), not its id:
  // no entity id to report or wait for.
  const bool named_entity = type != "tag";
  const std::string eid = named_entity ? type + "." + id : std::string();
  body["id"] = id;
  if (named_entity) body["entity_id"] = eid;
  body["result"] = call.action == "create" ? "created" : call.action == "update" ? "updated" : "removed";
  if (call.action != "remove") body["item"] = result;
  json::value journal_before = call.action == "create" ? json::value(nullptr) : json::value(before);
  json::value journal_after = call.action == "remove" ? json::value(nullptr) : result;
  const std::string action = call.journal_action.empty() ? call.action : call.journal_action;
  journal(env, body, "helper", type + "/" + id, eid, action, std::move(journal_before), std::move(journal_after));
  if (call.wait && call.action != "update" && named_entity) {
    auto waiting = wait_entity(env, eid, call.action == "create");
    body["wait"] = co_await std::move(waiting);
  }
  co_return body;
}

}  // namespace hamcp::tools::helpers
