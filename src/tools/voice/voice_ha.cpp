// The voice family's calls to Home Assistant, and the restore of its edits: a
// pipeline update is undone by writing the fields before it, a create by
// deleting the pipeline (refused while it is the preferred one), a
// set_preferred by preferring the earlier pipeline again.
#include "tools/edit_record.hpp"
#include "tools/everyday/everyday_tools.hpp"
#include "tools/helpers/helper_ha.hpp"
#include "tools/voice/voice_tools.hpp"

namespace hamcp::tools::voice {

const std::vector<std::string>& pipeline_fields() {
  static const std::vector<std::string> fields = {
      "conversation_engine", "conversation_language", "language",     "name",
      "stt_engine",          "stt_language",          "tts_engine",   "tts_language",
      "tts_voice",           "wake_word_entity",      "wake_word_id", "prefer_local_intents"};
  return fields;
}

json::object fields_of(const json::object& item) {
  json::object out;
  for (const auto& key : pipeline_fields())
    if (const json::value* v = item.if_contains(key)) out[key] = *v;
  return out;
}

boost::asio::awaitable<json::object> get_pipeline(ToolEnv& env, std::string pipeline_id) {
  json::object message{{"type", "assist_pipeline/pipeline/get"}};
  if (!pipeline_id.empty()) message["pipeline_id"] = pipeline_id;
  ha::HaError failure;
  try {
    auto reading = env.ha.command(std::move(message));
    json::value item = co_await std::move(reading);
    co_return item.is_object() ? item.get_object() : json::object();
  } catch (const ha::HaException& e) {
    failure = e.error();
  }
  if (failure.ha_code != "not_found") throw ToolException(from_ha_error(failure));
  ToolError err = bad_argument("pipeline_id", "no pipeline '" + pipeline_id + "'", "List them with action=list.");
  err.code = "pipeline_not_found";
  throw ToolException(std::move(err));
}

boost::asio::awaitable<json::object> list_pipelines(ToolEnv& env) {
  auto reading = helpers::ws_read(env, json::object{{"type", "assist_pipeline/pipeline/list"}});
  json::value listed = co_await std::move(reading);
  co_return listed.is_object() ? listed.get_object() : json::object();
}

boost::asio::awaitable<json::value> write(ToolEnv& env, json::object message, std::string what) {
  auto writing = everyday::ws_write(env, std::move(message), std::move(what));
  json::value result = co_await std::move(writing);
  co_return result;
}

bool is_voice_kind(std::string_view kind) { return kind == "pipeline" || kind == "pipeline_preferred"; }

namespace {

boost::asio::awaitable<json::object> restore_pipeline(ToolEnv& env, const home::EditRecord& rec) {
  json::object body{{"pipeline_id", rec.key}};
  home::EditRecord entry;
  entry.kind = "pipeline";
  entry.key = rec.key;
  entry.action = "restore";
  entry.before = rec.after;
  if (rec.before.is_null()) {  // undo a create
    auto deleting = write(env, json::object{{"type", "assist_pipeline/pipeline/delete"}, {"pipeline_id", rec.key}},
                          "deleting the pipeline");
    co_await std::move(deleting);
    body["result"] = "deleted";
    entry.after = nullptr;
  } else {
    json::object message = fields_of(rec.before.get_object());
    message["type"] = "assist_pipeline/pipeline/update";
    message["pipeline_id"] = rec.key;
    auto updating = write(env, std::move(message), "updating the pipeline");
    entry.after = co_await std::move(updating);
    body["result"] = "restored";
    body["pipeline"] = entry.after;
  }
  record_edit(env, body, std::move(entry));
  co_return body;
}

boost::asio::awaitable<json::object> restore_preferred(ToolEnv& env, const home::EditRecord& rec) {
  const json::value& was = rec.before.as_object().at("preferred_pipeline");
  auto setting = write(env, json::object{{"type", "assist_pipeline/pipeline/set_preferred"}, {"pipeline_id", was}},
                       "setting the preferred pipeline");
  co_await std::move(setting);
  json::object body{{"result", "restored"}, {"preferred_pipeline", was}};
  home::EditRecord entry;
  entry.kind = "pipeline_preferred";
  entry.key = "preferred";
  entry.action = "restore";
  entry.before = rec.after;
  entry.after = rec.before;
  record_edit(env, body, std::move(entry));
  co_return body;
}

}  // namespace

boost::asio::awaitable<json::object> restore_voice_edit(ToolEnv& env, const home::EditRecord& rec) {
  json::object body;
  if (rec.kind == "pipeline") {
    auto restoring = restore_pipeline(env, rec);
    body = co_await std::move(restoring);
  } else {
    auto restoring = restore_preferred(env, rec);
    body = co_await std::move(restoring);
  }
  body["kind"] = rec.kind;
  body["restored_edit"] = rec.id;
  co_return body;
}

}  // namespace hamcp::tools::voice
