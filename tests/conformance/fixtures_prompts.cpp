// The conformance suite's resources (static text and binary, a watched one, a
// URI template), its four prompts and the completion of test_prompt_with_arguments.
#include <map>
#include <string>

#include "conformance/fixtures.hpp"
#include "mcp/errors.hpp"

namespace hamcp::conformance {
namespace {

namespace json = mcp::json;
namespace asio = mcp::asio;
using mcp::RequestContext;

asio::awaitable<json::array> read_static_text(std::string uri, RequestContext&) {
  json::array contents;
  contents.emplace_back(mcp::text_contents(uri, "This is the content of the static text resource.", "text/plain"));
  co_return contents;
}

asio::awaitable<json::array> read_static_binary(std::string uri, RequestContext&) {
  json::array contents;
  contents.emplace_back(mcp::blob_contents(uri, kRedPixelPng, "image/png"));
  co_return contents;
}

asio::awaitable<json::array> read_watched(std::string uri, RequestContext&) {
  json::array contents;
  contents.emplace_back(mcp::text_contents(uri, "Watched resource content", "text/plain"));
  co_return contents;
}

asio::awaitable<json::array> read_template(std::string uri, std::map<std::string, std::string> vars, RequestContext&) {
  json::object data;
  data["id"] = vars["id"];
  data["templateTest"] = true;
  data["data"] = "Data for ID: " + vars["id"];
  json::array contents;
  contents.emplace_back(mcp::text_contents(uri, json::serialize(data), "application/json"));
  co_return contents;
}

json::object user_message(json::object content) {
  json::object message;
  message["role"] = "user";
  message["content"] = std::move(content);
  return message;
}

asio::awaitable<json::object> simple_prompt(std::map<std::string, std::string>, RequestContext&) {
  json::array messages;
  messages.emplace_back(user_message(mcp::content::text("This is a simple prompt for testing.")));
  json::object result;
  result["messages"] = std::move(messages);
  co_return result;
}

asio::awaitable<json::object> prompt_with_arguments(std::map<std::string, std::string> args, RequestContext&) {
  json::array messages;
  messages.emplace_back(user_message(
      mcp::content::text("Prompt with arguments: arg1='" + args["arg1"] + "', arg2='" + args["arg2"] + "'")));
  json::object result;
  result["messages"] = std::move(messages);
  co_return result;
}

asio::awaitable<json::object> prompt_with_embedded_resource(std::map<std::string, std::string> args, RequestContext&) {
  json::array messages;
  messages.emplace_back(user_message(
      mcp::content::embedded_text(args["resourceUri"], "Embedded resource content for testing.", "text/plain")));
  messages.emplace_back(user_message(mcp::content::text("Please process the embedded resource above.")));
  json::object result;
  result["messages"] = std::move(messages);
  co_return result;
}

asio::awaitable<json::object> prompt_with_image(std::map<std::string, std::string>, RequestContext&) {
  json::array messages;
  messages.emplace_back(user_message(mcp::content::image(kRedPixelPng, "image/png")));
  messages.emplace_back(user_message(mcp::content::text("Please analyze the image above.")));
  json::object result;
  result["messages"] = std::move(messages);
  co_return result;
}

asio::awaitable<mcp::Completion> complete(mcp::CompletionRequest request, RequestContext&) {
  mcp::Completion completion;
  const json::value* name = request.ref.if_contains("name");
  if (name && name->is_string() && name->as_string() == "test_prompt_with_arguments" &&
      request.argument_name == "arg1") {
    for (const char* candidate : {"paris", "park", "party"}) {
      if (std::string_view(candidate).starts_with(request.argument_value)) completion.values.emplace_back(candidate);
    }
    completion.total = completion.values.size();
  }
  co_return completion;
}

}  // namespace

void register_conformance_resources_and_prompts(mcp::Registry& registry) {
  registry.add_resource(mcp::Resource{"test://static-text", "Static Text Resource", "",
                                      "A static text resource for testing", "text/plain", std::nullopt,
                                      read_static_text});
  registry.add_resource(mcp::Resource{"test://static-binary", "Static Binary Resource", "",
                                      "A static binary resource (1x1 PNG) for testing", "image/png", std::nullopt,
                                      read_static_binary});
  registry.add_resource(mcp::Resource{"test://watched-resource", "Watched Resource", "",
                                      "A resource clients can subscribe to", "text/plain", std::nullopt, read_watched});
  registry.add_resource_template(mcp::ResourceTemplate{"test://template/{id}/data", "Template Data", "",
                                                       "Data for any id, from a URI template", "application/json",
                                                       read_template});

  registry.add_prompt(mcp::Prompt{"test_simple_prompt", "", "A simple prompt without arguments", {}, simple_prompt});
  registry.add_prompt(mcp::Prompt{"test_prompt_with_arguments",
                                  "",
                                  "A prompt with two required arguments",
                                  {mcp::PromptArgument{"arg1", "", "First test argument", true},
                                   mcp::PromptArgument{"arg2", "", "Second test argument", true}},
                                  prompt_with_arguments});
  registry.add_prompt(mcp::Prompt{"test_prompt_with_embedded_resource",
                                  "",
                                  "A prompt embedding a resource",
                                  {mcp::PromptArgument{"resourceUri", "", "URI of the resource to embed", true}},
                                  prompt_with_embedded_resource});
  registry.add_prompt(mcp::Prompt{"test_prompt_with_image", "", "A prompt with image content", {}, prompt_with_image});
  registry.set_completion(complete);
}

}  // namespace hamcp::conformance
