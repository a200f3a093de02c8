// Old-style groups (group.<object_id>, made by group.set or YAML):
// ha_config_list_groups, ha_config_set_group (members, or members added /
// removed, name, icon, all) and ha_config_remove_group. Each write is one
// group.set / group.remove call, journaled, with a bounded wait until the
// mirror shows the result.
#include <algorithm>

#include "tools/confirmation.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/helpers/helper_tools.hpp"

namespace hamcp::tools {

namespace {

using namespace helpers;

}  // namespace

namespace helpers {

// {name, icon, entities, all} of group.<object_id>; null when there is none.
json::value group_view(const ha::Snapshot& snap, const std::string& object_id) {
  ha::EntityStatePtr s = snap.states.find("group." + object_id);
  if (!s) return nullptr;
  const json::object attrs = s->attributes.parse();
  json::object out{{"object_id", object_id}, {"entity_id", s->entity_id}, {"state", s->state}};
  for (const auto& [from, to] : {std::pair{"friendly_name", "name"}, std::pair{"icon", "icon"},
                                 std::pair{"entity_id", "entities"}, std::pair{"all", "all"}})
    if (const json::value* v = attrs.if_contains(from)) out[to] = *v;
  return out;
}

}  // namespace helpers

namespace {

using namespace helpers;

std::string object_id_of(const Args& args) {
  std::string id = args.str("object_id");
  if (id.rfind("group.", 0) == 0) id.erase(0, 6);
  const bool slug = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!slug)
    throw ToolException(
        bad_argument("object_id", "must be lowercase letters, digits and underscores",
                     "Pass e.g. object_id=\"downstairs_lights\" (the group becomes group.<object_id>)."));
  return id;
}

json::array members_after(const Args& args, const json::value& before) {
  std::vector<std::string> members;
  if (args.has("entities")) {
    members = args.list("entities");
  } else if (before.is_object() && before.as_object().contains("entities")) {
    for (const auto& m : before.at("entities").as_array()) members.emplace_back(m.as_string());
  }
  for (const auto& m : args.list("add_entities"))
    if (std::find(members.begin(), members.end(), m) == members.end()) members.push_back(m);
  for (const auto& m : args.list("remove_entities"))
    members.erase(std::remove(members.begin(), members.end(), m), members.end());
  json::array out;
  for (const auto& m : members) out.emplace_back(m);
  return out;
}

boost::asio::awaitable<mcp::ToolResult> run_list_groups(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  std::vector<std::string> ids;
  snap->states.for_each([&](const ha::EntityStatePtr& s) {
    if (s->entity_id.rfind("group.", 0) == 0) ids.push_back(s->entity_id.substr(6));
  });
  std::sort(ids.begin(), ids.end());
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(0, args.integer("offset", 0)));
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(1, args.integer("limit", 50)));
  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < ids.size() && page.count() < limit; ++i)
    if (!page.add(group_view(*snap, ids[i]))) break;
  json::object body;
  const std::size_t returned = page.count();
  body["groups"] = page.take();
  put_page_info(body, offset, returned, ids.size(), page.budget_cut());
  co_return ok(std::move(body));
}

}  // namespace

namespace helpers {

boost::asio::awaitable<json::object> wait_group(ToolEnv& env, const std::string& object_id, json::value expected) {
  // HA keeps the members of an add/remove as a set: compare them in any order.
  auto sorted = [](const json::value& v) {
    std::vector<std::string> out;
    if (v.is_array())
      for (const auto& m : v.as_array()) out.emplace_back(m.is_string() ? m.get_string() : "");
    std::sort(out.begin(), out.end());
    return out;
  };
  auto done = [object_id, expected, sorted](const ha::Snapshot& s) {
    const json::value now = group_view(s, object_id);
    if (expected.is_null()) return now.is_null();
    return now.is_object() && now.as_object().contains("entities") && sorted(now.at("entities")) == sorted(expected);
  };
  auto waiting = wait_for(env, done, env.options.default_wait);
  co_return co_await std::move(waiting);
}

}  // namespace helpers

namespace {

using namespace helpers;

boost::asio::awaitable<mcp::ToolResult> run_set_group(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string object_id = object_id_of(args);
  if (args.has("entities") && (args.has("add_entities") || args.has("remove_entities")))
    throw ToolException(bad_argument("entities", "given with add_entities/remove_entities",
                                     "Pass entities (the whole member list) or add_entities/remove_entities."));
  ha::SnapshotPtr snap = co_await env.snapshot();
  const json::value before = group_view(*snap, object_id);
  json::object data{{"object_id", object_id}};
  for (const char* k : {"name", "icon", "all"})
    if (const json::value* v = args.get(k); v && !v->is_null()) data[k] = *v;
  for (const char* k : {"entities", "add_entities", "remove_entities"}) {
    json::array list;
    for (const auto& m : args.list(k)) list.emplace_back(m);
    if (args.has(k)) data[k] = std::move(list);
  }
  const json::array members = members_after(args, before);
  json::object msg{
      {"type", "call_service"}, {"domain", "group"}, {"service", "set"}, {"service_data", std::move(data)}};
  auto writing = ws_write(env, std::move(msg), "group.set");
  co_await std::move(writing);
  json::object body{
      {"entity_id", "group." + object_id}, {"result", before.is_null() ? "created" : "updated"}, {"entities", members}};
  json::object after{{"object_id", object_id}, {"entities", members}};
  journal(env, body, "group", object_id, "group." + object_id, before.is_null() ? "create" : "update", before,
          std::move(after));
  if (args.flag("wait", true)) {
    auto waiting = wait_group(env, object_id, members);
    body["wait"] = co_await std::move(waiting);
    const json::value now = group_view(*env.ha.snapshot(), object_id);  // in HA's order
    if (now.is_object() && now.as_object().contains("entities")) body["entities"] = now.at("entities");
  }
  co_return ok(std::move(body));
}

boost::asio::awaitable<mcp::ToolResult> run_remove_group(Args& args, ToolEnv& env, mcp::RequestContext& ctx) {
  const std::string object_id = object_id_of(args);
  ha::SnapshotPtr snap = co_await env.snapshot();
  const json::value before = group_view(*snap, object_id);
  if (before.is_null())
    throw ToolException(ToolError{"group_not_found",
                                  "There is no group." + object_id + ". Nothing was removed.",
                                  "List the groups with ha_config_list_groups.",
                                  {{"written", false}}});
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{"remove",
                                           json::string("group." + object_id),
                                           json::object{{"removes", before}},
                                           "journaled: ha_config_set restore=<edit_id> brings it back",
                                           {}});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  json::object msg{{"type", "call_service"},
                   {"domain", "group"},
                   {"service", "remove"},
                   {"service_data", json::object{{"object_id", object_id}}}};
  auto writing = ws_write(env, std::move(msg), "group.remove");
  co_await std::move(writing);
  json::object body{{"entity_id", "group." + object_id}, {"result", "removed"}};
  journal(env, body, "group", object_id, "group." + object_id, "remove", before, nullptr);
  if (args.flag("wait", true)) {
    auto waiting = wait_group(env, object_id, nullptr);
    body["wait"] = co_await std::move(waiting);
  }
  co_return ok(std::move(body));
}

constexpr const char* kGroupOutput = R"J({"type":"object","properties":{"edit_id":{"type":"string"}}})J";

}  // namespace

ToolSpec make_list_groups_spec() {
  ToolSpec s;
  s.name = "ha_config_list_groups";
  s.title = "List old-style groups";
  s.description = "Old-style groups (group.*) and their members.";
  s.input_schema = R"J({"type":"object","properties":{"limit":{"type":"integer","minimum":1},
"offset":{"type":"integer","minimum":0}}})J";
  s.output_schema = R"J({"type":"object","properties":{"groups":{"type":"array"}}})J";
  s.annotations = read_only();
  s.run = run_list_groups;
  return s;
}

ToolSpec make_set_group_spec() {
  ToolSpec s;
  s.name = "ha_config_set_group";
  s.title = "Set old-style group";
  s.description = "group.set: create/update group.<object_id> (entities, or add_entities/remove_entities). Journaled.";
  s.input_schema = R"J({"type":"object","properties":{"object_id":{"type":"string"},
"entities":{"type":"array","items":{"type":"string"}},"add_entities":{"type":"array","items":{"type":"string"}},
"remove_entities":{"type":"array","items":{"type":"string"}},"name":{"type":"string"},"icon":{"type":"string"},
"all":{"type":"boolean"},"wait":{"type":"boolean"}},"required":["object_id"]})J";
  s.output_schema = kGroupOutput;
  s.annotations = writes(true, false);
  s.run = run_set_group;
  return s;
}

ToolSpec make_remove_group_spec() {
  ToolSpec s;
  s.name = "ha_config_remove_group";
  s.title = "Remove old-style group";
  s.description = "group.remove: delete group.<object_id>; without confirm=true a preview. Journaled.";
  s.input_schema = R"J({"type":"object","properties":{"object_id":{"type":"string"},"wait":{"type":"boolean"},
"confirm":{"type":"boolean"}},"required":["object_id"]})J";
  s.output_schema = kGroupOutput;
  s.annotations = writes(true, true);
  s.run = run_remove_group;
  return s;
}

}  // namespace hamcp::tools
