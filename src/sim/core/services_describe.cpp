// The services' descriptions as HA answers them: GET /api/services (a list
// per domain) and WebSocket get_services (an object per domain), with the
// field selectors HA derives from services.yaml.
#include "sim/core/service_spec.hpp"

namespace hamcp::sim {

using namespace svc;

namespace {

json::object describe(const Spec& s) {
  json::object fields;
  for (const auto& f : s.fields) {
    json::object sel;
    switch (f.type) {
      case FT::Int:
      case FT::Float: {
        json::object n;
        if (f.min) n["min"] = *f.min;
        if (f.max) n["max"] = *f.max;
        if (f.type == FT::Float) n["step"] = 0.1;
        sel["number"] = n;
        break;
      }
      case FT::Bool:
        sel["boolean"] = json::object{};
        break;
      case FT::Str:
        sel["text"] = json::object{};
        break;
      case FT::Rgb:
        sel["color_rgb"] = json::object{};
        break;
      case FT::Hs:  // an [h, s] pair: HA's selector for it is a plain object
      case FT::Any:
        sel["object"] = json::object{};
        break;
    }
    json::object fo{{"description", f.description}, {"selector", sel}};
    if (f.required) fo["required"] = true;
    fields[f.name] = std::move(fo);
  }
  json::object o{{"name", s.name}, {"description", s.description}, {"fields", std::move(fields)}};
  if (s.entity) {
    json::object ent;
    if (s.domain != "homeassistant") ent["domain"] = json::array{s.domain.c_str()};
    if (s.required_features) ent["supported_features"] = json::array{s.required_features};
    o["target"] = json::object{{"entity", json::array{ent}}};
  }
  if (s.response != ResponseSupport::none)
    o["response"] = json::object{{"optional", s.response == ResponseSupport::optional}};
  return o;
}

}  // namespace

json::array Services::describe_rest() const {
  std::lock_guard lock(store_.mutex());
  json::array out;
  for (const auto& [domain, services] : impl_->specs) {
    json::object svcs;
    for (const auto& [name, spec] : services) svcs[name] = describe(spec);
    out.push_back(json::object{{"domain", domain}, {"services", std::move(svcs)}});
  }
  return out;
}

json::object Services::describe_ws() const {
  std::lock_guard lock(store_.mutex());
  json::object out;
  for (const auto& [domain, services] : impl_->specs) {
    json::object svcs;
    for (const auto& [name, spec] : services) svcs[name] = describe(spec);
    out[domain] = std::move(svcs);
  }
  return out;
}

}  // namespace hamcp::sim
