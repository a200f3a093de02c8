// Fixtures the conformance suite's tasks scenarios call (SEP-2663, the
// io.modelcontextprotocol/tasks extension; tasks-*): a sync-only greeting, a
// cancellable sleep, a tool error and a protocol error from a task, and tasks
// that wait for the user's answers. Names, arguments and texts follow the
// scenario descriptions.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <string>

#include "conformance/fixtures.hpp"
#include "mcp/errors.hpp"
#include "mcp/server.hpp"

namespace hamcp::conformance {
namespace {

namespace json = mcp::json;
namespace asio = mcp::asio;
using mcp::RequestContext;
using mcp::TaskSupport;
using mcp::ToolResult;

mcp::Tool task_tool(std::string name, std::string description, const char* schema, TaskSupport support,
                    mcp::ToolHandler handler) {
  mcp::Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = json::parse(schema).as_object();
  t.handler = std::move(handler);
  t.task_support = support;
  return t;
}

asio::awaitable<void> sleep_ms(std::int64_t ms) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(std::chrono::milliseconds(ms));
  co_await timer.async_wait(asio::use_awaitable);  // a cancelled task aborts here
}

std::string string_arg(const json::object& args, std::string_view key, std::string_view fallback) {
  const json::value* v = args.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string(fallback);
}

asio::awaitable<ToolResult> greet(json::object args, RequestContext&) {
  co_return ToolResult::text("Hello, " + string_arg(args, "name", "World") + "!");
}

asio::awaitable<ToolResult> slow_compute(json::object args, RequestContext&) {
  const json::value* seconds = args.if_contains("seconds");
  const double s = seconds && seconds->is_number() ? seconds->to_number<double>() : 0.0;
  auto sleeping = sleep_ms(static_cast<std::int64_t>(s * 1000));  // named before co_await (GCC 12)
  co_await std::move(sleeping);
  co_return ToolResult::text("Computed " + string_arg(args, "label", "result") + " after " +
                             std::to_string(static_cast<int>(s)) + "s");
}

asio::awaitable<ToolResult> failing_job(json::object, RequestContext&) {
  auto sleeping = sleep_ms(1000);
  co_await std::move(sleeping);
  co_return ToolResult::error("failing_job failed as designed");
}

asio::awaitable<ToolResult> protocol_error_job(json::object, RequestContext&) {
  throw mcp::McpError(mcp::error_code::internal_error, "protocol_error_job: internal failure as designed");
  co_return ToolResult::text("never");
}

json::object confirm_question(const std::string& message) {
  json::object params;
  params.emplace("message", message);
  params.emplace("requestedSchema", json::parse(R"({"type":"object","properties":{"confirm":{"type":"boolean"}},)"
                                                R"("required":["confirm"]})"));
  json::object request;
  request.emplace("method", "elicitation/create");
  request.emplace("params", std::move(params));
  return request;
}

bool accepted(const json::value* response) {
  if (!response || !response->is_object()) return false;
  const json::value* action = response->get_object().if_contains("action");
  return action && action->is_string() && action->get_string() == "accept";
}

// Asks once (a task parks in input_required until tasks/update answers).
asio::awaitable<ToolResult> confirm_delete(json::object args, RequestContext& ctx) {
  const std::string file = string_arg(args, "filename", "file");
  json::object question = confirm_question("Delete " + file + "?");
  auto asking = ctx.request("elicitation/create", question.at("params").as_object());  // named (GCC 12)
  json::value answer = co_await std::move(asking);
  co_return ToolResult::text(accepted(&answer) ? "Deleted " + file : "Kept " + file);
}

// Asks two questions at once: both keys are pending together.
asio::awaitable<ToolResult> multi_input(json::object, RequestContext& ctx) {
  const json::object* answers = ctx.input_responses();
  const json::value* first = answers ? answers->if_contains("first") : nullptr;
  const json::value* second = answers ? answers->if_contains("second") : nullptr;
  if (first && second)
    co_return ToolResult::text(std::string("first: ") + (accepted(first) ? "yes" : "no") +
                               ", second: " + (accepted(second) ? "yes" : "no"));
  json::object requests;
  requests.emplace("first", confirm_question("First question?"));
  requests.emplace("second", confirm_question("Second question?"));
  throw mcp::InputRequired(std::move(requests));
}

// Asks for the user's name first (an ordinary multi round-trip), then goes on as a task.
asio::awaitable<ToolResult> tool_with_task(json::object, RequestContext& ctx) {
  const json::object* answers = ctx.input_responses();
  const json::value* answer = answers && !answers->empty() ? &answers->begin()->value() : nullptr;
  if (!answer) {
    json::object params;
    params.emplace("message", "What is your name?");
    params.emplace("requestedSchema", json::parse(R"({"type":"object","properties":{"name":{"type":"string"}},)"
                                                  R"("required":["name"]})"));
    json::object request;
    request.emplace("method", "elicitation/create");
    request.emplace("params", std::move(params));
    json::object requests;
    requests.emplace("user_name", std::move(request));
    throw mcp::InputRequired(std::move(requests));
  }
  std::string name = "unknown";
  if (const json::value* content = answer->is_object() ? answer->get_object().if_contains("content") : nullptr;
      content && content->is_object())
    name = string_arg(content->get_object(), "name", name);
  ctx.continue_as_task();  // the answer is in: the rest runs as a task
  auto sleeping = sleep_ms(300);
  co_await std::move(sleeping);
  co_return ToolResult::text("Hello, " + name + "! (finished as a task)");
}

}  // namespace

void register_task_fixtures(mcp::Server& server) {
  mcp::Registry& registry = server.registry();
  registry.add_tool(task_tool("greet", "Says hello (sync only)",
                              R"({"type":"object","properties":{"name":{"type":"string"}}})", TaskSupport::forbidden,
                              greet));
  registry.add_tool(
      task_tool("slow_compute", "Sleeps `seconds` then answers (task-supporting)",
                R"({"type":"object","properties":{"seconds":{"type":"number"},"label":{"type":"string"}}})",
                TaskSupport::optional, slow_compute));
  registry.add_tool(task_tool("failing_job", "Returns a tool error after about a second (task required)",
                              R"({"type":"object","properties":{}})", TaskSupport::required, failing_job));
  registry.add_tool(task_tool("protocol_error_job", "Fails with a protocol error (task-supporting)",
                              R"({"type":"object","properties":{}})", TaskSupport::optional, protocol_error_job));
  registry.add_tool(task_tool("confirm_delete", "Asks the user to confirm, then deletes (task-supporting)",
                              R"({"type":"object","properties":{"filename":{"type":"string"}}})", TaskSupport::optional,
                              confirm_delete));
  mcp::Tool with_task = task_tool("test_tool_with_task", "Asks for a name, then continues as a task (task required)",
                                  R"({"type":"object","properties":{}})", TaskSupport::required, tool_with_task);
  with_task.task_for = [](const json::object&) { return false; };  // it becomes a task by itself
  registry.add_tool(std::move(with_task));
  registry.add_tool(task_tool("multi_input", "Asks two questions at once (task-supporting)",
                              R"({"type":"object","properties":{}})", TaskSupport::optional, multi_input));
}

}  // namespace hamcp::conformance
