// WebSocket commands of HA's Assist pipelines and conversation, with HA
// 2026.2's shapes (components/assist_pipeline/pipeline.py: the storage
// collection with PIPELINE_FIELDS, all required on create and update;
// get without pipeline_id: the preferred one; deleting the preferred one is
// not_allowed; conversation/http.py: conversation/process, answered by the
// sim's small agent in core/assist_intents.cpp).
#include <algorithm>
#include <cctype>

#include "sim/core/assist_intents.hpp"
#include "sim/ws/ws_command_util.hpp"

namespace hamcp::sim {
namespace {

using namespace ws_util;

constexpr std::string_view kRequired[] = {"conversation_engine", "conversation_language", "language",    "name",
                                          "stt_engine",          "stt_language",          "tts_engine",  "tts_language",
                                          "tts_voice",           "wake_word_entity",      "wake_word_id"};
constexpr std::string_view kNullable[] = {"stt_engine", "stt_language",     "tts_engine",  "tts_language",
                                          "tts_voice",  "wake_word_entity", "wake_word_id"};

bool nullable_field(std::string_view key) {
  return std::find(std::begin(kNullable), std::end(kNullable), key) != std::end(kNullable);
}

// PIPELINE_FIELDS checked as voluptuous does; returns the stored item without its id.
json::object pipeline_fields(const json::object& msg) {
  json::object out;
  for (std::string_view key : kRequired) {
    const json::value* v = msg.if_contains(key);
    if (!v) throw BadMessage{"required key not provided @ data['" + std::string(key) + "']. Got None"};
    if (!v->is_string() && !(v->is_null() && nullable_field(key)))
      throw BadMessage{"expected str for dictionary value @ data['" + std::string(key) + "']"};
    out[key] = *v;
  }
  out["prefer_local_intents"] = false;
  if (const json::value* p = msg.if_contains("prefer_local_intents")) {
    if (!p->is_bool()) throw BadMessage{"expected bool for dictionary value @ data['prefer_local_intents']"};
    out["prefer_local_intents"] = *p;
  }
  for (const auto& kv : msg) {
    const std::string_view k = kv.key();
    const bool known = k == "id" || k == "type" || k == "pipeline_id" || k == "prefer_local_intents" ||
                       k == "acknowledge_media_id" ||
                       std::find(std::begin(kRequired), std::end(kRequired), k) != std::end(kRequired);
    if (!known) throw BadMessage{"extra keys not allowed @ data['" + std::string(k) + "']"};
  }
  return out;
}

// A storage collection id as HA's IDManager makes it from a ULID: slugified, lower case.
std::string lower_ulid(WsConnection& c) {
  std::string id = c.core().store().new_context().id;
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return id;
}

json::object* find_pipeline(WsConnection& c, const std::string& id) {
  for (auto& p : home(c).voice.pipelines)
    if (p.at("id").as_string() == id) return &p;
  return nullptr;
}

void pipeline_list(WsConnection& c, int64_t id, const json::object&) {
  json::array items;
  for (const auto& p : home(c).voice.pipelines) items.push_back(p);
  c.send_result(id, json::object{{"pipelines", std::move(items)}, {"preferred_pipeline", home(c).voice.preferred}});
}

void pipeline_get(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string pid = opt_string(msg, "pipeline_id").value_or(home(c).voice.preferred);
  const json::object* p = find_pipeline(c, pid);
  if (!p) return c.send_error(id, "not_found", "Unable to find pipeline_id " + pid);
  c.send_result(id, *p);
}

void pipeline_create(WsConnection& c, int64_t id, const json::object& msg) {
  json::object item = pipeline_fields(msg);
  item["id"] = lower_ulid(c);  // last, as HA's to_json has it
  home(c).voice.pipelines.push_back(item);
  c.send_result(id, item);
}

void pipeline_update(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string pid = req_string(msg, "pipeline_id");
  json::object fields = pipeline_fields(msg);
  json::object* p = find_pipeline(c, pid);
  if (!p) return c.send_error(id, "not_found", "Unable to find pipeline_id " + pid);
  for (auto& kv : fields) (*p)[kv.key()] = kv.value();
  c.send_result(id, *p);
}

void pipeline_delete(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string pid = req_string(msg, "pipeline_id");
  auto& items = home(c).voice.pipelines;
  auto it =
      std::find_if(items.begin(), items.end(), [&](const json::object& p) { return p.at("id").as_string() == pid; });
  if (it == items.end()) return c.send_error(id, "not_found", "Unable to find pipeline_id " + pid);
  if (pid == home(c).voice.preferred) return c.send_error(id, "not_allowed", "Item " + pid + " preferred.");
  items.erase(it);
  c.send_result(id, nullptr);
}

void pipeline_set_preferred(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string pid = req_string(msg, "pipeline_id");
  if (!find_pipeline(c, pid)) return c.send_error(id, "not_found", "unknown item");
  home(c).voice.preferred = pid;
  c.send_result(id, nullptr);
}

void conversation_process(WsConnection& c, int64_t id, const json::object& msg) {
  const std::string text = req_string(msg, "text");
  const std::string language = opt_string(msg, "language").value_or(home(c).config.language);
  const auto [has_conversation, conversation_id] = nullable(msg, "conversation_id");
  (void)has_conversation;
  c.send_result(id, converse(c.core(), text, conversation_id, language));
}

}  // namespace

void register_assist_commands(Table& t) {
  t["assist_pipeline/pipeline/list"] = pipeline_list;
  t["assist_pipeline/pipeline/get"] = pipeline_get;
  t["assist_pipeline/pipeline/create"] = pipeline_create;
  t["assist_pipeline/pipeline/update"] = pipeline_update;
  t["assist_pipeline/pipeline/delete"] = pipeline_delete;
  t["assist_pipeline/pipeline/set_preferred"] = pipeline_set_preferred;
  t["conversation/process"] = conversation_process;
}

}  // namespace hamcp::sim
