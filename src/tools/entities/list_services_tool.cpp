// ha_list_services: the service catalogue from the mirror, filtered and
// paginated (the peer's unfiltered list was 260 KB).
#include <algorithm>
#include <cctype>

#include "common/ascii.hpp"
#include "home/entity_docs.hpp"
#include "tools/entities/entity_tools.hpp"
#include "tools/tool_error.hpp"

namespace hamcp::tools {

namespace {

// Field descriptions shortened: name, required, example, and selector type.
json::object compact_fields(const json::object& fields) {
  json::object out;
  for (const auto& kv : fields) {
    const json::object* f = kv.value().if_object();
    if (!f) continue;
    if (const json::value* nested = f->if_contains("fields"); nested && nested->is_object()) {
      // Sections ("advanced_fields") hold more fields: flatten them.
      for (auto& inner : compact_fields(nested->get_object())) out.emplace(inner.key(), inner.value());
      continue;
    }
    json::object c;
    if (std::string d = str_of(f, "description"); !d.empty()) c.emplace("description", d);
    if (const json::value* r = f->if_contains("required"); r && r->is_bool() && r->get_bool())
      c.emplace("required", true);
    if (const json::value* e = f->if_contains("example")) c.emplace("example", *e);
    if (const json::value* sel = f->if_contains("selector"); sel && sel->is_object() && !sel->get_object().empty())
      c.emplace("type", sel->get_object().begin()->key());
    out.emplace(kv.key(), std::move(c));
  }
  return out;
}

boost::asio::awaitable<mcp::ToolResult> run_list_services(Args& args, ToolEnv& env, mcp::RequestContext&) {
  ha::SnapshotPtr snap = co_await env.snapshot();
  const std::string domain = args.str("domain");
  const std::string query = ascii_lower(args.str("query"));
  const bool full = args.str("detail", "minimal") == "full";
  const auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.integer("limit", full ? 10 : 50), 1, 500));
  const auto offset = static_cast<std::size_t>(std::max<std::int64_t>(args.integer("offset", 0), 0));
  if (!snap->services)
    throw ToolException("services_unavailable", "Home Assistant's service list has not been loaded yet.",
                        "Retry in a few seconds.");
  if (!domain.empty() && !snap->services->contains(domain)) {
    ToolError e{"domain_not_found",
                "No service domain " + domain + ".",
                "Call ha_list_services without domain to see all.",
                {}};
    throw ToolException(std::move(e));
  }

  std::vector<std::pair<std::string, const json::object*>> matches;
  for (const auto& d : *snap->services) {
    if (!domain.empty() && d.key() != domain) continue;
    const json::object* svcs = d.value().if_object();
    if (!svcs) continue;
    for (const auto& s : *svcs) {
      std::string name = std::string(d.key()) + "." + std::string(s.key());
      const json::object* desc = s.value().if_object();
      if (!query.empty()) {
        const std::string hay = ascii_lower(name + " " + str_of(desc, "name") + " " + str_of(desc, "description"));
        if (hay.find(query) == std::string::npos) continue;
      }
      matches.emplace_back(std::move(name), desc);
    }
  }
  std::sort(matches.begin(), matches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  PageWriter page(env.options.response_budget);
  for (std::size_t i = offset; i < matches.size() && page.count() < limit; ++i) {
    json::object item;
    item.emplace("service", matches[i].first);
    const json::object* desc = matches[i].second;
    if (std::string n = str_of(desc, "name"); !n.empty()) item.emplace("name", n);
    if (full) {
      if (std::string d = str_of(desc, "description"); !d.empty()) item.emplace("description", d);
      if (const json::value* f = desc ? desc->if_contains("fields") : nullptr;
          f && f->is_object() && !f->get_object().empty())
        item.emplace("fields", compact_fields(f->get_object()));
      if (desc && desc->contains("target")) item.emplace("takes_target", true);
      if (const json::value* r = desc ? desc->if_contains("response") : nullptr; r && !r->is_null())
        item.emplace("response", *r);
    }
    if (!page.add(std::move(item))) break;
  }
  json::object body;
  const std::size_t returned = page.count();
  body.emplace("services", page.take());
  put_page_info(body, offset, returned, matches.size(), page.budget_cut());
  co_return ok(std::move(body));
}

}  // namespace

ToolSpec make_list_services_spec() {
  ToolSpec s;
  s.name = "ha_list_services";
  s.title = "List services";
  s.description =
      "Services Home Assistant offers, filtered by domain and/or a text query, paginated. detail=full adds "
      "descriptions and data fields (what ha_call_service data accepts).";
  s.input_schema = R"J({"type":"object","properties":{
"domain":{"type":"string"},"query":{"type":"string"},"detail":{"enum":["minimal","full"]},
"limit":{"type":"integer","minimum":1,"maximum":500},"offset":{"type":"integer","minimum":0,"maximum":1000000000}}})J";
  s.output_schema =
      R"J({"type":"object","properties":{"services":{"type":"array"},"total":{"type":"integer"},"has_more":{"type":"boolean"}}})J";
  s.annotations = read_only();
  s.legacy_args = {{"detail_level", "detail"}};
  s.run = run_list_services;
  return s;
}

}  // namespace hamcp::tools
