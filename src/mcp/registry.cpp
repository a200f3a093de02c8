#include "mcp/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace hamcp::mcp {
namespace {

bool valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

[[noreturn]] void bad_definition(std::string_view what, std::string_view name, std::string_view why) {
  throw std::invalid_argument(std::string(what) + " \"" + std::string(name) + "\": " + std::string(why));
}

// Compiles a tool's schema, prefixing errors with the tool and field.
SchemaValidator compile_object_schema(const json::object& schema, std::string_view tool, std::string_view field) {
  const json::value* type = schema.if_contains("type");
  if (!type || !type->is_string() || type->get_string() != "object")
    bad_definition("tool", tool, std::string(field) + " must be a JSON Schema with \"type\": \"object\"");
  try {
    return SchemaValidator(schema);
  } catch (const std::invalid_argument& e) {
    bad_definition("tool", tool, std::string(field) + ": " + e.what());
  }
}

json::object build_listing(const Tool& tool) {
  json::object entry;
  entry.reserve(6);
  entry.emplace("name", tool.name);
  if (!tool.title.empty()) entry.emplace("title", tool.title);
  entry.emplace("description", tool.description);
  entry.emplace("inputSchema", tool.input_schema);
  if (tool.output_schema) entry.emplace("outputSchema", *tool.output_schema);
  // No annotations.title: from 2025-06-18 clients read the top-level title, and
  // the copy cost every listed tool ~7 tokens. methods::list_tools adds it for
  // the 2025-03-26 and 2024-11-05 clients that only know annotations.title.
  json::object annotations;
  const ToolAnnotations& a = tool.annotations;
  if (a.read_only_hint) annotations.emplace("readOnlyHint", *a.read_only_hint);
  if (a.destructive_hint) annotations.emplace("destructiveHint", *a.destructive_hint);
  if (a.idempotent_hint) annotations.emplace("idempotentHint", *a.idempotent_hint);
  if (a.open_world_hint) annotations.emplace("openWorldHint", *a.open_world_hint);
  if (!annotations.empty()) entry.emplace("annotations", std::move(annotations));
  if (tool.task_support != TaskSupport::forbidden)
    entry.emplace("execution",
                  json::object{{"taskSupport", tool.task_support == TaskSupport::required ? "required" : "optional"}});
  return entry;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size()) {
      int hi = hex_value(in[i + 1]), lo = hex_value(in[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += in[i];
  }
  return out;
}

}  // namespace

json::object text_contents(std::string_view uri, std::string_view text, std::string_view mime_type) {
  json::object c;
  c.reserve(3);
  c.emplace("uri", uri);
  if (!mime_type.empty()) c.emplace("mimeType", mime_type);
  c.emplace("text", text);
  return c;
}

json::object blob_contents(std::string_view uri, std::string_view base64_data, std::string_view mime_type) {
  json::object c;
  c.reserve(3);
  c.emplace("uri", uri);
  if (!mime_type.empty()) c.emplace("mimeType", mime_type);
  c.emplace("blob", base64_data);
  return c;
}

// A template variable is "{name}" (one path segment, no '/') or "{+name}"
// (reserved expansion: may contain '/').
bool RegisteredTemplate::match(std::string_view uri, std::map<std::string, std::string>& out) const {
  std::string_view rest = uri;
  if (rest.substr(0, literals[0].size()) != literals[0]) return false;
  rest.remove_prefix(literals[0].size());
  std::map<std::string, std::string> found;
  for (std::size_t i = 0; i < variables.size(); ++i) {
    const std::string& next = literals[i + 1];
    bool reserved = variables[i][0] == '+';
    std::string_view value;
    if (next.empty()) {
      if (i + 1 != variables.size()) return false;  // adjacent variables: ambiguous, rejected at registration
      value = rest;
      rest = {};
    } else {
      std::size_t at = rest.find(next, 1);
      if (at == std::string_view::npos) return false;
      value = rest.substr(0, at);
      rest.remove_prefix(at);
    }
    if (value.empty()) return false;
    if (!reserved && value.find('/') != std::string_view::npos) return false;
    std::string name = reserved ? variables[i].substr(1) : variables[i];
    found[name] = percent_decode(value);
    if (!next.empty()) {
      if (rest.substr(0, next.size()) != next) return false;
      rest.remove_prefix(next.size());
    }
  }
  if (!rest.empty()) return false;
  out = std::move(found);
  return true;
}

void Registry::add_tool(Tool tool) {
  if (!valid_tool_name(tool.name))
    bad_definition("tool", tool.name, "name must be 1-128 characters of A-Z a-z 0-9 _ - .");
  if (tool.description.empty()) bad_definition("tool", tool.name, "description is required");
  if (!tool.handler) bad_definition("tool", tool.name, "handler is required");
  if (tool_index_.count(tool.name)) bad_definition("tool", tool.name, "a tool or alias with this name exists");
  for (const std::string& alias : tool.aliases) {
    if (!valid_tool_name(alias)) bad_definition("tool", tool.name, "alias \"" + alias + "\" is not a valid tool name");
    if (tool_index_.count(alias) || alias == tool.name)
      bad_definition("tool", tool.name, "alias \"" + alias + "\" is already taken");
  }
  SchemaValidator input = compile_object_schema(
      tool.accepted_input_schema ? *tool.accepted_input_schema : tool.input_schema, tool.name, "input_schema");
  std::optional<SchemaValidator> output;
  if (tool.output_schema) output.emplace(compile_object_schema(*tool.output_schema, tool.name, "output_schema"));
  json::object listing = build_listing(tool);
  auto entry = std::make_shared<const RegisteredTool>(
      RegisteredTool{std::move(tool), std::move(input), std::move(output), std::move(listing)});
  tool_index_.emplace(entry->tool.name, entry);
  for (const std::string& alias : entry->tool.aliases) tool_index_.emplace(alias, entry);
  tools_.push_back(std::move(entry));
}

bool Registry::has_task_tools() const {
  return std::any_of(tools_.begin(), tools_.end(),
                     [](const auto& t) { return t->tool.task_support != TaskSupport::forbidden; });
}

bool Registry::remove_tool(std::string_view name) {
  auto it = std::find_if(tools_.begin(), tools_.end(), [&](const auto& t) { return t->tool.name == name; });
  if (it == tools_.end()) return false;
  tool_index_.erase((*it)->tool.name);
  for (const std::string& alias : (*it)->tool.aliases) tool_index_.erase(alias);
  tools_.erase(it);
  return true;
}

bool Registry::replace_tool(Tool tool) {
  auto it = std::find_if(tools_.begin(), tools_.end(), [&](const auto& t) { return t->tool.name == tool.name; });
  if (it == tools_.end()) return false;
  const std::size_t at = static_cast<std::size_t>(it - tools_.begin());
  std::shared_ptr<const RegisteredTool> old = *it;
  remove_tool(tool.name);
  try {
    add_tool(std::move(tool));
  } catch (...) {
    tool_index_.emplace(old->tool.name, old);
    for (const std::string& alias : old->tool.aliases) tool_index_.emplace(alias, old);
    tools_.insert(tools_.begin() + static_cast<std::ptrdiff_t>(at), old);
    throw;
  }
  std::rotate(tools_.begin() + static_cast<std::ptrdiff_t>(at), tools_.end() - 1, tools_.end());
  return true;
}

std::shared_ptr<const RegisteredTool> Registry::find_tool(std::string_view name_or_alias) const {
  auto it = tool_index_.find(std::string(name_or_alias));
  return it == tool_index_.end() ? nullptr : it->second;
}

void Registry::add_resource(Resource resource) {
  if (resource.uri.empty()) bad_definition("resource", resource.name, "uri is required");
  if (resource.name.empty()) bad_definition("resource", resource.uri, "name is required");
  if (!resource.reader) bad_definition("resource", resource.uri, "reader is required");
  if (resource_index_.count(resource.uri)) bad_definition("resource", resource.uri, "already registered");
  auto entry = std::make_shared<const Resource>(std::move(resource));
  resource_index_.emplace(entry->uri, entry);
  resources_.push_back(std::move(entry));
}

void Registry::add_resource_template(ResourceTemplate tmpl) {
  if (tmpl.name.empty()) bad_definition("resource template", tmpl.uri_template, "name is required");
  if (!tmpl.reader) bad_definition("resource template", tmpl.uri_template, "reader is required");
  RegisteredTemplate entry{std::move(tmpl), {}, {}};
  const std::string& text = entry.tmpl.uri_template;
  std::string literal;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') bad_definition("resource template", text, "unbalanced '}'");
    if (text[i] != '{') {
      literal += text[i];
      continue;
    }
    std::size_t close = text.find('}', i);
    if (close == std::string::npos) bad_definition("resource template", text, "unbalanced '{'");
    std::string var = text.substr(i + 1, close - i - 1);
    std::string bare = !var.empty() && var[0] == '+' ? var.substr(1) : var;
    if (bare.empty() ||
        bare.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      bad_definition("resource template", text, "unsupported expression {" + var + "} (use {name} or {+name})");
    if (!entry.variables.empty() && literal.empty())
      bad_definition("resource template", text, "two variables need a literal between them");
    entry.literals.push_back(std::move(literal));
    literal.clear();
    entry.variables.push_back(std::move(var));
    i = close;
  }
  entry.literals.push_back(std::move(literal));
  if (entry.variables.empty()) bad_definition("resource template", text, "has no {variable}; register a resource");
  templates_.push_back(std::make_shared<const RegisteredTemplate>(std::move(entry)));
}

void Registry::add_prompt(Prompt prompt) {
  if (prompt.name.empty()) bad_definition("prompt", prompt.name, "name is required");
  if (!prompt.getter) bad_definition("prompt", prompt.name, "getter is required");
  if (prompt_index_.count(prompt.name)) bad_definition("prompt", prompt.name, "already registered");
  for (const auto& arg : prompt.arguments)
    if (arg.name.empty()) bad_definition("prompt", prompt.name, "an argument has no name");
  auto entry = std::make_shared<const Prompt>(std::move(prompt));
  prompt_index_.emplace(entry->name, entry);
  prompts_.push_back(std::move(entry));
}

void Registry::add_extension(std::string id, json::object settings) {
  if (id.empty()) bad_definition("extension", id, "id is required");
  extensions_[std::move(id)] = std::move(settings);
}

void Registry::add_extension_method(std::string method, ExtensionMethod handler) {
  if (method.empty() || !handler) bad_definition("extension method", method, "name and handler are required");
  if (extension_methods_.count(method)) bad_definition("extension method", method, "already registered");
  extension_methods_.emplace(std::move(method), std::move(handler));
}

const ExtensionMethod* Registry::find_extension_method(std::string_view method) const {
  auto it = extension_methods_.find(method);
  return it == extension_methods_.end() ? nullptr : &it->second;
}

void Registry::set_completion(CompletionHandler handler) { completion_ = std::move(handler); }

void Registry::set_completion_for(std::string ref_type, CompletionHandler handler) {
  completion_by_ref_[std::move(ref_type)] = std::move(handler);
}

const CompletionHandler& Registry::completion(std::string_view ref_type) const {
  auto it = completion_by_ref_.find(ref_type);
  return it == completion_by_ref_.end() ? completion_ : it->second;
}

std::shared_ptr<const Resource> Registry::find_resource(std::string_view uri) const {
  auto it = resource_index_.find(std::string(uri));
  return it == resource_index_.end() ? nullptr : it->second;
}

std::shared_ptr<const Prompt> Registry::find_prompt(std::string_view name) const {
  auto it = prompt_index_.find(std::string(name));
  return it == prompt_index_.end() ? nullptr : it->second;
}

}  // namespace hamcp::mcp
