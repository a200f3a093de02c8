#include "mcp/methods.hpp"

#include <algorithm>
#include <charconv>
#include <mutex>

#include "common/join.hpp"
#include "mcp/echo.hpp"
#include "mcp/echo_filter.hpp"
#include "mcp/errors.hpp"

namespace hamcp::mcp::methods {
namespace {

// Cursors are "<list>:<offset>": opaque to clients, checked on the way back in
// so a cursor of another list (or garbage) is a clear -32602.
std::size_t decode_cursor(const json::object& params, std::string_view list, std::size_t size) {
  const json::value* cursor = params.if_contains("cursor");
  if (!cursor || cursor->is_null()) return 0;
  auto bad = [&] {
    return McpError(error_code::invalid_params, "Invalid params: cursor is not one this server issued for " +
                                                    std::string(list) + "; omit it to start from the first page");
  };
  if (!cursor->is_string()) throw bad();
  std::string_view text = cursor->get_string();
  if (text.size() <= list.size() + 1 || text.substr(0, list.size()) != list || text[list.size()] != ':') throw bad();
  std::string_view digits = text.substr(list.size() + 1);
  std::size_t offset = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), offset);
  if (ec != std::errc() || end != digits.data() + digits.size() || offset == 0 || offset > size) throw bad();
  return offset;
}

template <class Items, class ToJson>
json::object page(const Items& items, const json::object& params, std::string_view list, std::string_view key,
                  std::size_t page_size, ToJson&& to_json) {
  std::size_t offset = decode_cursor(params, list, items.size());
  std::size_t end = std::min(items.size(), offset + std::max<std::size_t>(page_size, 1));
  json::array out;
  out.reserve(end - offset);
  for (std::size_t i = offset; i < end; ++i) out.emplace_back(to_json(*items[i]));
  json::object result;
  result.emplace(key, std::move(out));
  if (end < items.size()) result.emplace("nextCursor", std::string(list) + ":" + std::to_string(end));
  return result;
}

void put_if(json::object& o, std::string_view key, const std::string& value) {
  if (!value.empty()) o.emplace(key, value);
}

std::string required_string(const json::object& params, std::string_view key) {
  const json::value* v = params.if_contains(key);
  if (!v || !v->is_string() || v->get_string().empty())
    throw McpError(error_code::invalid_params,
                   "Invalid params: \"" + std::string(key) + "\" must be a non-empty string");
  return std::string(v->get_string());
}

// Tool names are at most this long (Registry refuses longer ones), so a longer
// requested name cannot match and needs no suggestion.
constexpr std::size_t kMaxToolNameBytes = 128;

// Levenshtein distance for "did you mean" on an unknown tool name, bounded:
// returns limit + 1 as soon as the distance must exceed `limit`, so the cost
// stays O(|a| * |b|) with both names at most kMaxToolNameBytes.
std::size_t bounded_edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > limit) return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    std::size_t row_min = row[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
      row_min = std::min(row_min, row[j]);
    }
    if (row_min > limit) return limit + 1;  // every later row is at least this
  }
  return row[b.size()];
}

std::string unknown_tool_message(const Registry& registry, std::string_view name) {
  if (name.size() > kMaxToolNameBytes)
    return "Unknown tool: " + echo_excerpt(name) + " (tool names are at most " + std::to_string(kMaxToolNameBytes) +
           " bytes); tools/list shows the available tools";
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (const auto& t : registry.tools()) {
    std::size_t d = bounded_edit_distance(name, t->tool.name, best_distance - 1);
    if (d < best_distance) {
      best_distance = d;
      best = t->tool.name;
    }
  }
  std::string message = "Unknown tool: " + echo_excerpt(name);
  if (!best.empty()) message += " (did you mean " + best + "?)";
  return message + "; tools/list shows the available tools";
}

}  // namespace

json::object list_tools(const Registry& registry, const json::object& params, std::size_t page_size, bool read_only,
                        std::string_view protocol_version) {
  // "2024-11-05" and "2025-03-26" sort before "2025-06-18", the first revision with a top-level title.
  const bool annotation_titles = !protocol_version.empty() && protocol_version < "2025-06-18";
  auto entry = [annotation_titles](const RegisteredTool& t) {
    if (!annotation_titles || t.tool.title.empty()) return t.listing;
    json::object listed = t.listing;
    json::value& annotations = listed["annotations"];
    if (!annotations.is_object()) annotations = json::object();
    annotations.as_object().emplace("title", t.tool.title);
    return listed;
  };
  const auto& all = registry.tools();
  const bool everything =
      std::all_of(all.begin(), all.end(), [&](const auto& t) { return t->tool.listed_in(read_only); });
  if (everything) return page(all, params, "tools", "tools", page_size, entry);
  std::vector<std::shared_ptr<const RegisteredTool>> shown;
  for (const auto& t : all)
    if (t->tool.listed_in(read_only)) shown.push_back(t);
  return page(shown, params, "tools", "tools", page_size, entry);
}

json::object list_resources(const Registry& registry, const json::object& params, std::size_t page_size) {
  return page(registry.resources(), params, "resources", "resources", page_size, [](const Resource& r) {
    json::object o;
    o.emplace("uri", r.uri);
    o.emplace("name", r.name);
    put_if(o, "title", r.title);
    put_if(o, "description", r.description);
    put_if(o, "mimeType", r.mime_type);
    if (r.size) o.emplace("size", *r.size);
    return o;
  });
}

json::object list_resource_templates(const Registry& registry, const json::object& params, std::size_t page_size) {
  return page(registry.resource_templates(), params, "templates", "resourceTemplates", page_size,
              [](const RegisteredTemplate& t) {
                json::object o;
                o.emplace("uriTemplate", t.tmpl.uri_template);
                o.emplace("name", t.tmpl.name);
                put_if(o, "title", t.tmpl.title);
                put_if(o, "description", t.tmpl.description);
                put_if(o, "mimeType", t.tmpl.mime_type);
                return o;
              });
}

json::object list_prompts(const Registry& registry, const json::object& params, std::size_t page_size) {
  return page(registry.prompts(), params, "prompts", "prompts", page_size, [](const Prompt& p) {
    json::object o;
    o.emplace("name", p.name);
    put_if(o, "title", p.title);
    put_if(o, "description", p.description);
    if (!p.arguments.empty()) {
      json::array args;
      for (const auto& a : p.arguments) {
        json::object arg;
        arg.emplace("name", a.name);
        put_if(arg, "title", a.title);
        put_if(arg, "description", a.description);
        arg.emplace("required", a.required);
        args.emplace_back(std::move(arg));
      }
      o.emplace("arguments", std::move(args));
    }
    return o;
  });
}

namespace {

// An invalid-arguments answer: its text content through the echo filter.
void filter_echo(ToolResult& result) {
  for (auto& item : result.content)
    if (json::object* o = item.if_object())
      if (json::value* text = o->if_contains("text"); text && text->is_string()) {
        std::string t(text->get_string());
        apply_echo_filter(t);
        *text = t;
      }
}
}  // namespace

asio::awaitable<ToolResult> call_tool_result(const Registry& registry, json::object params, RequestContext& ctx) {
  std::string name = required_string(params, "name");
  std::shared_ptr<const RegisteredTool> tool = registry.find_tool(name);
  if (!tool) throw McpError(error_code::invalid_params, unknown_tool_message(registry, name));
  const std::string called = name;
  name = tool->tool.name;  // messages name the tool, even when called by an alias

  json::object arguments;
  if (json::value* args = params.if_contains("arguments"); args && !args->is_null()) {
    if (!args->is_object()) {
      ToolResult refused =
          ToolResult::error("Invalid arguments for tool " + name + ": arguments: expected object, got " +
                            std::string(args->is_array() ? "an array" : echo_excerpt(json::serialize(*args))));
      filter_echo(refused);
      co_return refused;
    }
    arguments = std::move(args->get_object());
  }
  for (const auto& [alias, fixed] : tool->tool.alias_args)
    if (alias == called)
      for (const auto& kv : fixed) arguments[kv.key()] = kv.value();
  json::value arguments_value(std::move(arguments));
  std::vector<std::string> problems = tool->input.validate(arguments_value, "arguments");
  if (!problems.empty()) {
    ToolResult refused = ToolResult::error("Invalid arguments for tool " + name + ": " + join(problems, "; "));
    filter_echo(refused);
    co_return refused;
  }

  std::optional<ToolResult> outcome;
  std::string failure;
  try {
    json::object handler_args = std::move(arguments_value.get_object());
    auto running = tool->tool.handler(std::move(handler_args), ctx);  // named: GCC 12 coroutine temporaries
    outcome = co_await std::move(running);
  } catch (const McpError&) {
    throw;  // the handler asked for a JSON-RPC error
  } catch (const InputRequired&) {
    throw;  // the handler asks the client first (2026-07-28 multi round-trip)
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown error";
  }
  if (!outcome) {
    if (ctx.cancelled()) throw boost::system::system_error(asio::error::operation_aborted);
    co_return ToolResult::error("Tool " + name + " failed: " + failure);
  }
  ToolResult& result = *outcome;
  if (!result.is_error && tool->output) {
    if (!result.structured_content) {
      co_return ToolResult::error("Tool " + name + " declares an outputSchema but returned no structuredContent");
    }
    // Validate in place; wrapping in a json::value would copy a possibly large object.
    json::value structured(std::move(*result.structured_content));
    std::vector<std::string> bad = tool->output->validate(structured, "structuredContent");
    if (!bad.empty())
      co_return ToolResult::error("Tool " + name +
                                  " returned structuredContent that violates its outputSchema: " + join(bad, "; "));
    result.structured_content = std::move(structured.get_object());
  }
  co_return std::move(result);
}

asio::awaitable<json::value> call_tool(const Registry& registry, json::object params, RequestContext& ctx) {
  auto calling = call_tool_result(registry, std::move(params), ctx);  // named: GCC 12 coroutine temporaries
  ToolResult result = co_await std::move(calling);
  co_return json::value(std::move(result).to_json());
}

asio::awaitable<json::value> read_resource(const Registry& registry, json::object params, RequestContext& ctx) {
  std::string uri = required_string(params, "uri");
  json::array contents;
  if (auto resource = registry.find_resource(uri)) {
    auto reading = resource->reader(uri, ctx);
    contents = co_await std::move(reading);
  } else {
    std::shared_ptr<const RegisteredTemplate> matched;
    std::map<std::string, std::string> variables;
    for (const auto& t : registry.resource_templates()) {
      if (t->match(uri, variables)) {
        matched = t;
        break;
      }
    }
    if (!matched) {
      json::object data;
      data.emplace("uri", echo_excerpt(uri, 2048));  // the spec names the uri; not 4 MB of it
      throw McpError(error_code::resource_not_found, "Resource not found: " + echo_excerpt(uri),
                     json::value(std::move(data)));
    }
    auto reading = matched->tmpl.reader(uri, std::move(variables), ctx);
    contents = co_await std::move(reading);
  }
  json::object result;
  result.emplace("contents", std::move(contents));
  co_return json::value(std::move(result));
}

asio::awaitable<json::value> get_prompt(const Registry& registry, json::object params, RequestContext& ctx) {
  std::string name = required_string(params, "name");
  auto prompt = registry.find_prompt(name);
  if (!prompt)
    throw McpError(error_code::invalid_params, "Unknown prompt: " + echo_excerpt(name) + " (see prompts/list)");
  std::map<std::string, std::string> arguments;
  if (const json::value* args = params.if_contains("arguments"); args && !args->is_null()) {
    if (!args->is_object())
      throw McpError(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
    for (const auto& [key, value] : args->get_object()) {
      if (!value.is_string())
        throw McpError(error_code::invalid_params,
                       "Invalid params: arguments." + std::string(key) + " must be a string");
      arguments.emplace(std::string(key), std::string(value.get_string()));
    }
  }
  for (const auto& arg : prompt->arguments)
    if (arg.required && !arguments.count(arg.name))
      throw McpError(error_code::invalid_params,
                     "Invalid params: prompt " + name + " needs argument \"" + arg.name + "\"");
  auto getting = prompt->getter(std::move(arguments), ctx);
  json::object result = co_await std::move(getting);
  co_return json::value(std::move(result));
}

asio::awaitable<json::value> call_extension(const Registry& registry, const std::string& method, json::object params,
                                            RequestContext& ctx) {
  const ExtensionMethod* handler = registry.find_extension_method(method);
  if (!handler) throw McpError(error_code::method_not_found, "Method not found: " + echo_excerpt(method));
  auto calling = (*handler)(std::move(params), ctx);
  json::object result = co_await std::move(calling);
  co_return json::value(std::move(result));
}

asio::awaitable<json::value> complete(const Registry& registry, json::object params, RequestContext& ctx) {
  CompletionRequest request;
  const json::value* ref = params.if_contains("ref");
  if (!ref || !ref->is_object())
    throw McpError(error_code::invalid_params, "Invalid params: \"ref\" must be an object");
  request.ref = ref->get_object();
  const json::value* argument = params.if_contains("argument");
  if (!argument || !argument->is_object())
    throw McpError(error_code::invalid_params, "Invalid params: \"argument\" must be an object {name, value}");
  const json::object& arg = argument->get_object();
  const json::value* arg_name = arg.if_contains("name");
  const json::value* arg_value = arg.if_contains("value");
  if (!arg_name || !arg_name->is_string() || !arg_value || !arg_value->is_string())
    throw McpError(error_code::invalid_params, "Invalid params: argument.name and argument.value must be strings");
  request.argument_name = std::string(arg_name->get_string());
  request.argument_value = std::string(arg_value->get_string());
  if (const json::value* context = params.if_contains("context"); context && context->is_object()) {
    if (const json::value* args = context->get_object().if_contains("arguments"); args && args->is_object())
      for (const auto& [key, value] : args->get_object())
        if (value.is_string()) request.context_arguments.emplace(std::string(key), std::string(value.get_string()));
  }
  const json::value* ref_type = request.ref.if_contains("type");
  std::string type = ref_type && ref_type->is_string() ? std::string(ref_type->get_string()) : std::string();
  const CompletionHandler& handler = registry.completion(type);
  Completion completion;
  if (handler) {
    auto completing = handler(std::move(request), ctx);
    completion = co_await std::move(completing);
  }
  json::array values;
  const std::size_t n = std::min<std::size_t>(completion.values.size(), 100);
  values.reserve(n);
  for (std::size_t i = 0; i < n; ++i) values.emplace_back(completion.values[i]);
  json::object body;
  body.emplace("values", std::move(values));
  if (completion.total) body.emplace("total", *completion.total);
  body.emplace("hasMore", completion.has_more || completion.values.size() > 100);
  json::object result;
  result.emplace("completion", std::move(body));
  co_return json::value(std::move(result));
}

}  // namespace hamcp::mcp::methods

namespace hamcp::mcp {
namespace {
std::mutex echo_filter_mutex;
EchoFilter echo_filter;  // guarded by echo_filter_mutex
}  // namespace

void set_echo_filter(EchoFilter filter) {
  const std::lock_guard lock(echo_filter_mutex);
  echo_filter = std::move(filter);
}

void apply_echo_filter(std::string& text) {
  EchoFilter filter;
  {
    const std::lock_guard lock(echo_filter_mutex);
    filter = echo_filter;
  }
  if (filter) filter(text);
}

}  // namespace hamcp::mcp
