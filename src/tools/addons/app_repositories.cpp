// ha_manage_app add_repository / remove_repository: the Supervisor's store
// repositories (POST /store/repositories, DELETE /store/repositories/<slug>).
#include "tools/addons/addons_tools.hpp"
#include "tools/addons/manage_app_parts.hpp"
#include "tools/confirmation.hpp"
#include "tools/response.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools::addons {
namespace {

const json::object* find_repository(const json::value& list, const std::string& wanted) {
  if (const json::array* a = list.if_array())
    for (const auto& r : *a)
      if (const json::object* o = r.if_object())
        for (const char* k : {"slug", "source", "url"})
          if (const json::value* v = o->if_contains(k); v && v->is_string() && v->get_string() == wanted) return o;
  return nullptr;
}

}  // namespace

boost::asio::awaitable<mcp::ToolResult> repository_action(Args& args, ToolEnv& env, mcp::RequestContext& ctx,
                                                          const std::string& action) {
  const std::string repository = args.str("repository");
  if (repository.empty() || repository.size() > 500)
    throw ToolException(bad_argument("repository", "is required: a git URL (add) or a repository slug or URL (remove)",
                                     "E.g. repository=\"https://github.com/hassio-addons/repository\"."));
  if (action == "add_repository") {
    auto adding = supervisor(env, "post", "/store/repositories", json::object{{"repository", repository}});
    co_await std::move(adding);
    json::object body{{"action", action},
                      {"repository", repository},
                      {"done", true},
                      {"next", "ha_get_app source=\"available\" lists its add-ons."}};
    co_return ok(std::move(body));
  }
  auto listing = supervisor(env, "get", "/store/repositories");
  const json::value list = co_await std::move(listing);
  const json::object* found = find_repository(list, repository);
  if (!found)
    throw ToolException(ToolError{"repository_not_found",
                                  "No store repository has the slug or URL " + repository + ".",
                                  "ha_get_app source=\"available\" lists the repositories.",
                                  {{"written", false}}});
  json::object repo = *found;
  const std::string slug(repo.at("slug").as_string());
  json::object fields{{"repository", repo}, {"written", false}};
  auto asking = confirm_or_preview(args, env, ctx,
                                   Preview{action, json::string(slug), json::object{{"removes_repository", repo}},
                                           "add it back later with its source URL", std::move(fields)});
  std::optional<mcp::ToolResult> preview = co_await std::move(asking);
  if (preview) co_return std::move(*preview);
  auto removing = supervisor(env, "delete", "/store/repositories/" + slug);
  co_await std::move(removing);
  json::object body{{"action", action}, {"removed", std::move(repo)}, {"done", true}};
  co_return ok(std::move(body));
}

}  // namespace hamcp::tools::addons
