// ha_manage_pipeline (ha-mcp's name and arguments): Assist pipelines listed,
// read (no pipeline_id: the preferred one), created (fields from
// base_pipeline_id, else Home Assistant's own conversation agent in the
// preferred pipeline's language), updated (HA wants every field: the
// pipeline's current ones with the given ones on top), set preferred; and a
// sentence processed (assist_process.cpp). Writes are sent once and
// journaled.
#include "tools/edit_record.hpp"
#include "tools/voice/voice_tools.hpp"

namespace hamcp::tools {

namespace {

using namespace voice;

// The fields the caller passed, on top of `base`.
json::object merged_fields(Args& args, json::object base) {
  for (const auto& key : pipeline_fields()) {
    const json::value* v = args.get(key);
    if (v) base[key] = *v;
  }
  if (args.has("agent_id") && !args.has("conversation_engine")) base["conversation_engine"] = args.str("agent_id");
  return base;
}

boost::asio::awaitable<json::object> create_base(Args& args, ToolEnv& env) {
  if (args.has("base_pipeline_id")) {
    auto reading = get_pipeline(env, args.str("base_pipeline_id"));
    const json::object base = co_await std::move(reading);
    co_return fields_of(base);
  }
  auto reading = get_pipeline(env, "");
  const json::object preferred = co_await std::move(reading);
  const json::value* lang = preferred.if_contains("language");
  const json::value language = lang && lang->is_string() ? *lang : json::value("en");
  json::object base{{"conversation_engine", "conversation.home_assistant"},
                    {"conversation_language", language},
                    {"language", language}};
  for (const char* key :
       {"stt_engine", "stt_language", "tts_engine", "tts_language", "tts_voice", "wake_word_entity", "wake_word_id"})
    base[key] = nullptr;
  co_return base;
}

boost::asio::awaitable<void> set_preferred(ToolEnv& env, std::string pipeline_id, json::object& body) {
  auto listing = list_pipelines(env);
  const json::object listed = co_await std::move(listing);
  const json::value* was = listed.if_contains("preferred_pipeline");
  auto setting =
      write(env, json::object{{"type", "assist_pipeline/pipeline/set_preferred"}, {"pipeline_id", pipeline_id}},
            "setting the preferred pipeline");
  co_await std::move(setting);
  body["preferred_pipeline"] = pipeline_id;
  home::EditRecord entry;
  entry.kind = "pipeline_preferred";
  entry.key = "preferred";
  entry.action = "update";
  entry.before = json::object{{"preferred_pipeline", was ? *was : json::value(nullptr)}};
  entry.after = json::object{{"preferred_pipeline", pipeline_id}};
  json::object journaled;
  record_edit(env, journaled, std::move(entry));
  body["preferred_edit_id"] = journaled.at("edit_id");
}

std::string id_of(const json::value& item) {
  const json::value* id = item.is_object() ? item.get_object().if_contains("id") : nullptr;
  return id && id->is_string() ? std::string(id->get_string()) : std::string();
}

boost::asio::awaitable<json::object> create_or_update(Args& args, ToolEnv& env, bool create) {
  json::object before;
  json::object message;
  if (create) {
    if (!args.has("name")) throw ToolException(bad_argument("name", "create needs a name", "Pass name=\"...\"."));
    auto basing = create_base(args, env);
    message = merged_fields(args, co_await std::move(basing));
    if (args.has("language") && !args.has("conversation_language"))
      message["conversation_language"] = args.str("language");
    message["type"] = "assist_pipeline/pipeline/create";
  } else {
    if (!args.has("pipeline_id"))
      throw ToolException(bad_argument("pipeline_id", "update needs it", "List the pipelines with action=list."));
    auto reading = get_pipeline(env, args.str("pipeline_id"));
    before = co_await std::move(reading);
    message = merged_fields(args, fields_of(before));
    message["type"] = "assist_pipeline/pipeline/update";
    message["pipeline_id"] = args.str("pipeline_id");
  }
  auto writing = write(env, std::move(message), create ? "creating the pipeline" : "updating the pipeline");
  const json::value item = co_await std::move(writing);
  json::object body{{"action", create ? "created" : "updated"}, {"pipeline", item}};
  home::EditRecord entry;
  entry.kind = "pipeline";
  entry.key = id_of(item);
  entry.action = create ? "create" : "update";
  entry.before = create ? json::value(nullptr) : json::value(before);
  entry.after = item;
  record_edit(env, body, std::move(entry));
  if (args.flag("make_preferred", false)) {
    auto setting = set_preferred(env, id_of(item), body);
    co_await std::move(setting);
  }
  co_return body;
}

boost::asio::awaitable<mcp::ToolResult> run_pipeline(Args& args, ToolEnv& env, mcp::RequestContext&) {
  const std::string action = args.str("action", "list");
  json::object body;
  if (action == "list") {
    auto listing = list_pipelines(env);
    body = co_await std::move(listing);
  } else if (action == "get") {
    auto reading = get_pipeline(env, args.str("pipeline_id"));
    json::object item = co_await std::move(reading);
    body["pipeline"] = std::move(item);
  } else if (action == "create" || action == "update") {
    auto writing = create_or_update(args, env, action == "create");
    body = co_await std::move(writing);
  } else if (action == "set_preferred") {
    if (!args.has("pipeline_id"))
      throw ToolException(
          bad_argument("pipeline_id", "set_preferred needs it", "List the pipelines with action=list."));
    auto checking = get_pipeline(env, args.str("pipeline_id"));  // an unknown id: pipeline_not_found
    co_await std::move(checking);
    auto setting = set_preferred(env, args.str("pipeline_id"), body);
    co_await std::move(setting);
    body["edit_id"] = body["preferred_edit_id"];
    body.erase("preferred_edit_id");
  } else {
    auto processing = process(args, env);
    body = co_await std::move(processing);
  }
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_pipeline_spec() {
  ToolSpec s;
  s.name = "ha_manage_pipeline";
  s.title = "Assist pipelines and sentences";
  s.description =
      "Assist pipelines: create (name; from base_pipeline_id), update (the fields given), set_preferred "
      "(make_preferred on create/update); process runs a sentence through Assist and says what it did.";
  s.input_schema = R"J({"type":"object","properties":{
"action":{"type":"string","enum":["list","get","create","update","set_preferred","process"]},
"pipeline_id":{"type":"string"},"sentence":{"type":"string"},"conversation_id":{"type":"string"},
"agent_id":{"type":"string"},"name":{"type":"string"},"conversation_engine":{"type":"string"},
"base_pipeline_id":{"type":"string"},"conversation_language":{"type":"string"},"language":{"type":"string"},
"stt_engine":{"type":"string"},"stt_language":{"type":"string"},"tts_engine":{"type":"string"},
"tts_language":{"type":"string"},"tts_voice":{"type":"string"},"wake_word_entity":{"type":"string"},
"wake_word_id":{"type":"string"},"prefer_local_intents":{"type":"boolean"},"make_preferred":{"type":"boolean"}},
"required":["action"]})J";
  s.output_schema = R"J({"type":"object"})J";
  for (const char* nullable :
       {"stt_engine", "stt_language", "tts_engine", "tts_language", "tts_voice", "wake_word_entity", "wake_word_id"})
    s.also_accepts.emplace_back(nullable, R"J({"type":["string","null"]})J");  // null: none
  s.annotations = writes(true, false);
  s.mixed = true;
  s.run = run_pipeline;
  return s;
}

void register_voice_tools(mcp::Registry& registry, std::shared_ptr<ToolEnv> env) {
  registry.add_tool(build_tool(make_pipeline_spec(), env));
}

}  // namespace hamcp::tools
