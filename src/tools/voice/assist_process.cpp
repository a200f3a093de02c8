// action=process of ha_manage_pipeline: one sentence through Assist
// (conversation/process, sent once: Assist may switch devices). The answer
// names what Assist said, the intent's targets, which entities it acted on
// (success) or failed on, and their states now (GET /api/states/<id>).
#include "tools/voice/voice_tools.hpp"

namespace hamcp::tools::voice {

namespace {

json::value member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v ? *v : json::value(nullptr);
}

std::string speech_of(const json::object& response) {
  const json::value* speech = response.if_contains("speech");
  const json::value* plain = speech && speech->is_object() ? speech->get_object().if_contains("plain") : nullptr;
  const json::value* text = plain && plain->is_object() ? plain->get_object().if_contains("speech") : nullptr;
  return text && text->is_string() ? std::string(text->get_string()) : std::string();
}

// The states of the entities Assist acted on (at most 10). By value: a
// coroutine's reference parameter would outlive the caller's temporary.
boost::asio::awaitable<json::object> states_of(ToolEnv& env, json::value success) {
  json::object states;
  if (!success.is_array()) co_return states;
  for (const auto& t : success.get_array()) {
    const json::object& target = t.as_object();
    const json::value* id = target.if_contains("id");
    const json::value* type = target.if_contains("type");
    const bool entity = type && type->is_string() && type->get_string() == "entity";
    if (states.size() >= 10 || !entity || !id || !id->is_string()) continue;
    try {
      auto reading = env.ha.rest_get_json("/api/states/" + std::string(id->get_string()));
      json::value s = co_await std::move(reading);
      if (s.is_object()) states[id->get_string()] = member(s.get_object(), "state");
    } catch (const ha::HaException&) {
      // the state is extra information; the answer stands without it
    }
  }
  co_return states;
}

}  // namespace

boost::asio::awaitable<json::object> process(Args& args, ToolEnv& env) {
  const std::string sentence = args.str("sentence");
  if (sentence.empty())
    throw ToolException(
        bad_argument("sentence", "process needs a sentence", "e.g. sentence=\"turn on the kitchen light\"."));
  json::object message{{"type", "conversation/process"}, {"text", sentence}};
  for (const char* key : {"conversation_id", "language", "agent_id"})
    if (args.has(key)) message[key] = args.str(key);
  auto sending = write(env, std::move(message), "conversation/process");
  const json::value answer = co_await std::move(sending);
  const json::object result = answer.is_object() ? answer.get_object() : json::object();
  const json::value response_value = member(result, "response");
  const json::object response = response_value.is_object() ? response_value.get_object() : json::object();
  const json::value data_value = member(response, "data");
  const json::object data = data_value.is_object() ? data_value.get_object() : json::object();
  json::object body{{"speech", speech_of(response)},
                    {"response_type", member(response, "response_type")},
                    {"conversation_id", member(result, "conversation_id")},
                    {"continue_conversation", member(result, "continue_conversation")}};
  if (data.contains("code")) body["error_code"] = data.at("code");
  for (const char* key : {"targets", "success", "failed"})
    if (data.contains(key)) body[key] = data.at(key);
  json::value success = member(data, "success");
  auto reading = states_of(env, std::move(success));
  json::object states = co_await std::move(reading);
  if (!states.empty()) body["states_now"] = std::move(states);
  co_return body;
}

}  // namespace hamcp::tools::voice
