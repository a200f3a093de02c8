#pragma once
// Declarative tools, in the spirit of the TS SDK's registerTool: a name, a
// description, JSON Schemas and a coroutine handler. The core validates the
// arguments against input_schema before the handler runs, turns exceptions into
// isError results, and checks structured_content against output_schema.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/log_level.hpp"
#include "mcp/session.hpp"

namespace hamcp::mcp {

// Hints for clients (MCP "annotations"); unset = spec default
// (readOnly false, destructive true, idempotent false, openWorld true).
struct ToolAnnotations {
  std::optional<bool> read_only_hint, destructive_hint, idempotent_hint, open_world_hint;
};

// Whether a call may run as a task (task_store.hpp; tools/list execution.taskSupport):
// forbidden (the default: always answered in the call), optional (a client that
// supports tasks may leave it running and poll), required (only as a task).
enum class TaskSupport { forbidden, optional, required };

// Content blocks for ToolResult::content (and prompt messages).
namespace content {
json::object text(std::string_view text);
json::object image(std::string_view base64_data, std::string_view mime_type);
json::object audio(std::string_view base64_data, std::string_view mime_type);
json::object resource_link(std::string_view uri, std::string_view name, std::string_view mime_type = {},
                           std::string_view description = {});
json::object embedded_text(std::string_view uri, std::string_view text, std::string_view mime_type = "text/plain");
json::object embedded_blob(std::string_view uri, std::string_view base64_data, std::string_view mime_type);
}  // namespace content

struct ToolResult {
  json::array content;
  std::optional<json::object> structured_content;
  bool is_error = false;
  // content is one text block holding exactly the compact JSON of
  // structured_content (what structured() builds). The wire then writes that
  // text as structuredContent instead of serialising the object a second time.
  // Anything that changes content or structured_content afterwards must either
  // keep them in step or clear this.
  bool text_is_structured = false;

  static ToolResult text(std::string_view text);
  // structuredContent = value, plus one text block with its compact JSON
  // (clients without structured-content support read that).
  static ToolResult structured(json::object value);
  // isError result the model can read and act on. Say what was wrong and how to fix it.
  static ToolResult error(std::string_view message, std::optional<json::object> structured = {});

  // The CallToolResult object: {content, structuredContent?, isError?}.
  json::object to_json() &&;
  // The same object as compact JSON text (what json_text(to_json()) gives),
  // appended to `out`; a structured result is serialised once (see
  // text_is_structured).
  void write_json(std::string& out) const;
};

// Handed to every handler (tools, resources, prompts, completions); valid for
// the handler's whole run. Everything here is cheap and never throws except
// request().
class RequestContext {
 public:
  virtual ~RequestContext() = default;
  // notifications/cancelled arrived for this request (or the session shut down).
  // Awaited Asio operations are also aborted via the bound cancellation signal.
  virtual bool cancelled() const = 0;
  // notifications/progress; a no-op when the request had no _meta.progressToken.
  // Values that do not increase are dropped (the spec wants strictly increasing).
  virtual void progress(double progress, std::optional<double> total = {}, std::string_view message = {}) = 0;
  // notifications/message, sent only if `level` passes the session's logging/setLevel.
  virtual void log(LogLevel level, json::value data, std::string_view logger = {}) = 0;
  // Server->client request (sampling/createMessage, elicitation/create, roots/list)
  // sent on this request's channel. Returns the client's `result`; throws McpError
  // with the client's error, or error_code::request_timeout after `timeout`
  // (0 = ServerOptions::client_request_timeout; a notifications/cancelled is sent).
  // Check session().client_supports("elicitation") etc. first.
  virtual asio::awaitable<json::value> request(std::string method, json::object params,
                                               std::chrono::milliseconds timeout = {}) = 0;
  virtual const SessionInfo& session() const = 0;
  // The transport's session id (HTTP: stable across a server restart); empty
  // for stdio and stateless HTTP. Lets tools keep per-session state apart.
  virtual std::string_view session_id() const { return {}; }
  virtual const json::value& request_id() const = 0;
  // MCP 2026-07-28 multi round-trip: the client's answers to this request's
  // earlier InputRequiredResult (params.inputResponses; nullptr when none) and
  // the requestState it carried back (empty when none). Throw InputRequired
  // (errors.hpp) to ask; request() does that by itself in the 2026 era.
  virtual const json::object* input_responses() const { return nullptr; }
  virtual std::string_view request_state() const { return {}; }
  // Lets the transport close this request's connection while the work goes
  // on (Channel::release_connection): for long calls behind proxies that cut
  // long connections. False when the transport cannot resume it.
  virtual bool release_connection() { return false; }
  // 2026-07-28, the tasks extension declared: answer this tools/call now with a
  // CreateTaskResult and run the rest of the handler as that task (e.g. once
  // the user's answers are in, before the long work). False where the client
  // cannot take a task: the handler goes on and answers as usual.
  virtual bool continue_as_task() { return false; }
};

// Arguments arrive validated against input_schema; they are moved in.
using ToolHandler = std::function<asio::awaitable<ToolResult>(json::object arguments, RequestContext& ctx)>;

struct Tool {
  std::string name;                           // 1..128 chars of [A-Za-z0-9_.-]
  std::string title;                          // optional human title
  std::string description;                    // required: clients and the conformance suite need one
  json::object input_schema;                  // must be {"type":"object",...}
  std::optional<json::object> output_schema;  // if set, structured_content must match it
  ToolAnnotations annotations;
  ToolHandler handler;
  std::vector<std::string> aliases;  // old names: callable, never listed
  // What arguments are validated against, when wider than the advertised
  // input_schema (e.g. a lone string also accepted where an array is listed,
  // without a type union in tools/list). Unset = input_schema. Last, so that
  // positional initialisers of the fields above keep their meaning.
  std::optional<json::object> accepted_input_schema;
  // Callable but never listed (e.g. a tool switched off, whose handler says so).
  bool hidden = false;
  // Listed to read-only sessions although it may write (a mixed tool with read
  // actions; its writes are refused below the tool). Read-only tools always are.
  bool kept_in_read_only = false;

  bool listed_in(bool read_only_session) const {
    if (hidden) return false;
    return !read_only_session || annotations.read_only_hint.value_or(false) || kept_in_read_only;
  }
  // Arguments an alias fixes: a call by that alias gets these set (over the
  // caller's) before validation, e.g. an old per-kind name fixing `kind`.
  // Each alias here must also be in `aliases`.
  std::vector<std::pair<std::string, json::object>> alias_args;
  // Long-running work (backups, updates, installs) a client may run as a task.
  TaskSupport task_support = TaskSupport::forbidden;
  // Which calls the server makes tasks up front when the client lets it
  // choose (2026-07-28: the tasks extension declared); the rest run as
  // ordinary calls, which may still continue as a task
  // (RequestContext::continue_as_task). Unset: every call.
  std::function<bool(const json::object& arguments)> task_for;
};

}  // namespace hamcp::mcp
