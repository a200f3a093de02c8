#include "mcp/tool.hpp"

#include "json/json_text.hpp"

namespace hamcp::mcp {

namespace content {

json::object text(std::string_view text) {
  json::object block;
  block.reserve(2);
  block.emplace("type", "text");
  block.emplace("text", text);
  return block;
}

json::object image(std::string_view base64_data, std::string_view mime_type) {
  json::object block;
  block.emplace("type", "image");
  block.emplace("data", base64_data);
  block.emplace("mimeType", mime_type);
  return block;
}

json::object audio(std::string_view base64_data, std::string_view mime_type) {
  json::object block;
  block.emplace("type", "audio");
  block.emplace("data", base64_data);
  block.emplace("mimeType", mime_type);
  return block;
}

json::object resource_link(std::string_view uri, std::string_view name, std::string_view mime_type,
                           std::string_view description) {
  json::object block;
  block.emplace("type", "resource_link");
  block.emplace("uri", uri);
  block.emplace("name", name);
  if (!mime_type.empty()) block.emplace("mimeType", mime_type);
  if (!description.empty()) block.emplace("description", description);
  return block;
}

json::object embedded_text(std::string_view uri, std::string_view text, std::string_view mime_type) {
  json::object resource;
  resource.emplace("uri", uri);
  if (!mime_type.empty()) resource.emplace("mimeType", mime_type);
  resource.emplace("text", text);
  json::object block;
  block.emplace("type", "resource");
  block.emplace("resource", std::move(resource));
  return block;
}

json::object embedded_blob(std::string_view uri, std::string_view base64_data, std::string_view mime_type) {
  json::object resource;
  resource.emplace("uri", uri);
  if (!mime_type.empty()) resource.emplace("mimeType", mime_type);
  resource.emplace("blob", base64_data);
  json::object block;
  block.emplace("type", "resource");
  block.emplace("resource", std::move(resource));
  return block;
}

}  // namespace content

ToolResult ToolResult::text(std::string_view text) {
  ToolResult result;
  result.content.emplace_back(content::text(text));
  return result;
}

ToolResult ToolResult::structured(json::object value) {
  ToolResult result;
  result.content.emplace_back(content::text(json_text(value)));
  result.structured_content = std::move(value);
  result.text_is_structured = true;
  return result;
}

ToolResult ToolResult::error(std::string_view message, std::optional<json::object> structured) {
  ToolResult result;
  result.content.emplace_back(content::text(message));
  result.structured_content = std::move(structured);
  result.is_error = true;
  return result;
}

json::object ToolResult::to_json() && {
  json::object out;
  out.reserve(3);
  out.emplace("content", std::move(content));
  if (structured_content) out.emplace("structuredContent", std::move(*structured_content));
  if (is_error) out.emplace("isError", true);
  return out;
}

void ToolResult::write_json(std::string& out) const {
  out += R"({"content":)";
  append_json_text(out, content);
  if (structured_content) {
    out += R"(,"structuredContent":)";
    const json::value* text = nullptr;
    if (text_is_structured && content.size() == 1 && content.front().is_object())
      text = content.front().get_object().if_contains("text");
    if (text && text->is_string())
      out.append(text->get_string().data(), text->get_string().size());
    else
      append_json_text(out, *structured_content);  // json::value(object) would copy it
  }
  if (is_error) out += R"(,"isError":true)";
  out += '}';
}

}  // namespace hamcp::mcp
