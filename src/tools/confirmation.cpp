#include "tools/confirmation.hpp"

#include <atomic>
#include <boost/json.hpp>
#include <cctype>
#include <utility>

#include "common/json_fields.hpp"
#include "mcp/errors.hpp"
#include "tools/response.hpp"

namespace hamcp::tools {

namespace {

std::atomic<bool> g_elicit_confirm{true};

constexpr std::size_t kMaxQuestionChars = 1500;  // a dialog, not a document: the preview has the rest

// Form-mode elicitation: an empty capability object means form mode (2025-11-25),
// otherwise the client names the modes it has.
bool client_can_be_asked(const mcp::SessionInfo& session) {
  if (!session.client_supports("elicitation")) return false;
  const json::value& cap = session.client_capabilities.at("elicitation");
  const json::object* modes = cap.if_object();
  return !modes || modes->empty() || modes->contains("form");
}

std::string target_text(const json::value& target) {
  if (const json::string* s = target.if_string()) return std::string(*s);
  return json::serialize(target);
}

// "accept" with confirm not explicitly false: the user said yes.
bool accepted(const json::value& answer) {
  const json::object* o = answer.if_object();
  if (!o) return false;
  const json::value* action = o->if_contains("action");
  if (!action || !action->is_string() || action->get_string() != "accept") return false;
  const json::value* content = o->if_contains("content");
  const json::value* confirm = content && content->is_object() ? content->get_object().if_contains("confirm") : nullptr;
  return !(confirm && confirm->is_bool() && !confirm->get_bool());
}

std::string answer_word(const json::value& answer) {
  const json::object* o = answer.if_object();
  const json::value* action = o ? o->if_contains("action") : nullptr;
  if (action && action->is_string()) return std::string(action->get_string());
  return "no answer";
}

}  // namespace

void set_elicit_confirm(bool on) { g_elicit_confirm.store(on); }
bool elicit_confirm() { return g_elicit_confirm.load(); }

json::object preview_body(Preview preview) {
  json::object body{{"result", "preview"},
                    {"confirm_required", true},
                    {"action", std::move(preview.action)},
                    {"target", std::move(preview.target)},
                    {"would_change", std::move(preview.would_change)}};
  if (!preview.note.empty()) body["note"] = std::move(preview.note);
  body["next"] = kPreviewNext;
  for (auto& [key, value] : preview.fields)
    if (!body.contains(key)) body[key] = std::move(value);
  return body;
}

mcp::ToolResult preview_result(Preview preview) { return ok(preview_body(std::move(preview))); }

bool is_preview_body(const json::object& body) {
  const json::value* result = body.if_contains("result");
  return result && result->is_string() && result->get_string() == "preview";
}

json::object confirmation_request(const json::object& preview) {
  const std::string action = string_or_empty(preview, "action");
  std::string question = action + " " + target_text(preview.contains("target") ? preview.at("target") : nullptr) + "?";
  if (const std::string note = string_or_empty(preview, "note"); !note.empty()) question += " (" + note + ")";
  if (const json::value* change = preview.if_contains("would_change"))
    question += " What would change: " + json::serialize(*change);
  if (question.size() > kMaxQuestionChars) question = question.substr(0, kMaxQuestionChars) + "...";
  question[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(question[0])));
  json::object confirm{{"type", "boolean"},
                       {"title", "Confirm"},
                       {"description", "Yes, " + action + " it. This cannot be undone by hamcp alone."},
                       {"default", false}};
  json::object schema{{"type", "object"},
                      {"properties", json::object{{"confirm", std::move(confirm)}}},
                      {"required", json::array{"confirm"}}};
  return json::object{{"mode", "form"}, {"message", std::move(question)}, {"requestedSchema", std::move(schema)}};
}

boost::asio::awaitable<std::optional<json::object>> ask_user(ToolEnv& env, mcp::RequestContext& ctx,
                                                             json::object preview) {
  // Read-only: the write would be refused anyway, so nobody is asked.
  if (env.read_only() || !elicit_confirm() || !client_can_be_asked(ctx.session())) co_return preview;
  json::value answer;
  try {
    json::object question = confirmation_request(preview);
    auto asking = ctx.request("elicitation/create", std::move(question));
    answer = co_await std::move(asking);
  } catch (const mcp::McpError& e) {  // the client failed or did not answer in time: nothing is done
    preview["asked"] = true;
    preview["answer"] = std::string("no answer (") + e.what() + ")";
    co_return preview;
  }
  if (accepted(answer)) co_return std::nullopt;
  preview["asked"] = true;
  preview["declined"] = true;
  preview["answer"] = answer_word(answer);
  const std::string note = string_or_empty(preview, "note");
  preview["note"] =
      note.empty() ? "the user declined; nothing was done" : "the user declined; nothing was done. " + note;
  co_return preview;
}

boost::asio::awaitable<std::optional<json::object>> confirm_or_preview_body(const Args& args, ToolEnv& env,
                                                                            mcp::RequestContext& ctx, Preview preview) {
  if (args.flag("confirm", false)) co_return std::nullopt;
  auto asking = ask_user(env, ctx, preview_body(std::move(preview)));
  std::optional<json::object> shown = co_await std::move(asking);
  co_return shown;
}

boost::asio::awaitable<std::optional<mcp::ToolResult>> confirm_or_preview(const Args& args, ToolEnv& env,
                                                                          mcp::RequestContext& ctx, Preview preview) {
  auto asking = confirm_or_preview_body(args, env, ctx, std::move(preview));
  std::optional<json::object> body = co_await std::move(asking);
  if (!body) co_return std::nullopt;
  co_return ok(std::move(*body));
}

}  // namespace hamcp::tools
