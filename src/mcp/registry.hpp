#pragma once
// Everything a server offers: tools, resources, resource templates, prompts and
// the completion handler. Registration validates definitions (names, schemas)
// and throws std::invalid_argument on a bad one, so mistakes fail at startup.
// Capabilities are declared only for what is registered.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/schema_validator.hpp"
#include "mcp/tool.hpp"

namespace hamcp::mcp {

// ---- resources ---------------------------------------------------------------
// Contents entries: {uri, mimeType?, text} or {uri, mimeType?, blob(base64)}.
json::object text_contents(std::string_view uri, std::string_view text, std::string_view mime_type = "text/plain");
json::object blob_contents(std::string_view uri, std::string_view base64_data, std::string_view mime_type);

// Returns the `contents` array. Throw McpError(error_code::resource_not_found, ...)
// for a uri that does not exist.
using ResourceReader = std::function<asio::awaitable<json::array>(std::string uri, RequestContext& ctx)>;

struct Resource {
  std::string uri, name, title, description, mime_type;
  std::optional<std::uint64_t> size;
  ResourceReader reader;
};

// RFC 6570 level-1 templates ("ha://entity/{entity_id}"): each {var} matches
// one or more characters other than '/'.
using TemplateReader = std::function<asio::awaitable<json::array>(
    std::string uri, std::map<std::string, std::string> variables, RequestContext& ctx)>;

struct ResourceTemplate {
  std::string uri_template, name, title, description, mime_type;
  TemplateReader reader;
};

// ---- prompts -------------------------------------------------------------------
struct PromptArgument {
  std::string name, title, description;
  bool required = false;
};

// Returns a GetPromptResult: {description?, messages:[{role, content}]}.
// Required arguments are checked by the core before the getter runs.
using PromptGetter =
    std::function<asio::awaitable<json::object>(std::map<std::string, std::string> arguments, RequestContext& ctx)>;

struct Prompt {
  std::string name, title, description;
  std::vector<PromptArgument> arguments;
  PromptGetter getter;
};

// ---- completion ------------------------------------------------------------------
struct CompletionRequest {
  json::object ref;  // {"type":"ref/prompt","name":..} or {"type":"ref/resource","uri":..}
  std::string argument_name;
  std::string argument_value;
  std::map<std::string, std::string> context_arguments;  // params.context.arguments
};
struct Completion {
  std::vector<std::string> values;  // at most 100 are sent
  std::optional<std::uint64_t> total;
  bool has_more = false;
};
using CompletionHandler = std::function<asio::awaitable<Completion>(CompletionRequest, RequestContext& ctx)>;

// ---- extensions ------------------------------------------------------------------
// A request method an extension adds (e.g. the skills extension's skills/list):
// returns the result object; throws McpError for a JSON-RPC error.
using ExtensionMethod = std::function<asio::awaitable<json::object>(json::object params, RequestContext& ctx)>;

// A tool as the core keeps it: the definition, its compiled schemas and its
// pre-built tools/list entry.
struct RegisteredTool {
  Tool tool;
  SchemaValidator input;
  std::optional<SchemaValidator> output;
  json::object listing;  // the tools/list entry, built once
};

struct RegisteredTemplate {
  ResourceTemplate tmpl;
  std::vector<std::string> literals;  // n+1 literal pieces around n variables
  std::vector<std::string> variables;
  bool match(std::string_view uri, std::map<std::string, std::string>& out) const;
};

class Registry {
 public:
  void add_tool(Tool tool);
  bool remove_tool(std::string_view name);
  // Replaces the tool of the same name where it stands (order kept); false if
  // there is none. Throws like add_tool for a bad definition (nothing changed).
  bool replace_tool(Tool tool);
  // By name or alias; nullptr if unknown.
  std::shared_ptr<const RegisteredTool> find_tool(std::string_view name_or_alias) const;
  // Registration order; aliases excluded.
  const std::vector<std::shared_ptr<const RegisteredTool>>& tools() const { return tools_; }

  void add_resource(Resource resource);
  void add_resource_template(ResourceTemplate tmpl);
  void add_prompt(Prompt prompt);
  // One handler for every completion/complete, or one per ref type ("ref/prompt",
  // "ref/resource") so prompts and resources are completed by their own owners; a
  // per-type handler wins over the catch-all; a ref with neither completes to nothing.
  void set_completion(CompletionHandler handler);
  void set_completion_for(std::string ref_type, CompletionHandler handler);

  // An extension (SEP-2133): its settings go to capabilities.extensions[id];
  // its methods are served like the core's. Throws for a method already taken.
  void add_extension(std::string id, json::object settings);
  void add_extension_method(std::string method, ExtensionMethod handler);
  const ExtensionMethod* find_extension_method(std::string_view method) const;
  const std::map<std::string, json::object, std::less<>>& extensions() const { return extensions_; }

  const std::vector<std::shared_ptr<const Resource>>& resources() const { return resources_; }
  const std::vector<std::shared_ptr<const RegisteredTemplate>>& resource_templates() const { return templates_; }
  const std::vector<std::shared_ptr<const Prompt>>& prompts() const { return prompts_; }
  std::shared_ptr<const Resource> find_resource(std::string_view uri) const;
  std::shared_ptr<const Prompt> find_prompt(std::string_view name) const;
  // The handler for a ref type (see set_completion_for); nullptr-like if none.
  const CompletionHandler& completion(std::string_view ref_type) const;

  bool has_tools() const { return !tools_.empty(); }
  bool has_resources() const { return !resources_.empty() || !templates_.empty(); }
  bool has_prompts() const { return !prompts_.empty(); }
  bool has_task_tools() const;  // any tool with task_support other than forbidden
  bool has_completion() const { return static_cast<bool>(completion_) || !completion_by_ref_.empty(); }

 private:
  std::vector<std::shared_ptr<const RegisteredTool>> tools_;
  std::unordered_map<std::string, std::shared_ptr<const RegisteredTool>> tool_index_;  // names + aliases
  std::vector<std::shared_ptr<const Resource>> resources_;
  std::unordered_map<std::string, std::shared_ptr<const Resource>> resource_index_;
  std::vector<std::shared_ptr<const RegisteredTemplate>> templates_;
  std::vector<std::shared_ptr<const Prompt>> prompts_;
  std::unordered_map<std::string, std::shared_ptr<const Prompt>> prompt_index_;
  CompletionHandler completion_;
  std::map<std::string, CompletionHandler, std::less<>> completion_by_ref_;
  std::map<std::string, json::object, std::less<>> extensions_;
  std::map<std::string, ExtensionMethod, std::less<>> extension_methods_;
};

}  // namespace hamcp::mcp
