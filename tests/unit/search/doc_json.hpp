#pragma once
// EntityDoc <-> one JSON object per line, for the search fixtures
// (tests/unit/search/fixtures/*.jsonl) that the labelled query set is written
// against. A frozen snapshot keeps the labels valid when the simulator evolves.
#include <boost/json.hpp>
#include <istream>
#include <string>
#include <vector>

#include "search/types.hpp"

namespace hamcp::search::testing {

inline boost::json::object doc_to_json(const EntityDoc& d) {
  boost::json::object o;
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) o[k] = v;
  };
  auto put_list = [&](const char* k, const std::vector<std::string>& v) {
    if (v.empty()) return;
    boost::json::array a;
    for (const auto& s : v) a.emplace_back(s);
    o[k] = std::move(a);
  };
  put("entity_id", d.entity_id);
  put("domain", d.domain);
  put("friendly_name", d.friendly_name);
  put("registry_name", d.registry_name);
  put("original_name", d.original_name);
  put_list("aliases", d.aliases);
  put("area_id", d.area_id);
  put("area_name", d.area_name);
  put_list("area_aliases", d.area_aliases);
  put("floor_id", d.floor_id);
  put("floor_name", d.floor_name);
  put_list("floor_aliases", d.floor_aliases);
  put("device_id", d.device_id);
  put("device_name", d.device_name);
  put("manufacturer", d.manufacturer);
  put("model", d.model);
  put_list("labels", d.labels);
  put("device_class", d.device_class);
  put("state", d.state);
  if (d.hidden) o["hidden"] = true;
  if (d.disabled) o["disabled"] = true;
  return o;
}

inline EntityDoc doc_from_json(const boost::json::object& o) {
  EntityDoc d;
  auto get = [&](const char* k, std::string& out) {
    if (auto* v = o.if_contains(k); v && v->is_string()) out = std::string(v->get_string());
  };
  auto get_list = [&](const char* k, std::vector<std::string>& out) {
    if (auto* v = o.if_contains(k); v && v->is_array())
      for (const auto& s : v->get_array())
        if (s.is_string()) out.emplace_back(s.get_string());
  };
  get("entity_id", d.entity_id);
  get("domain", d.domain);
  get("friendly_name", d.friendly_name);
  get("registry_name", d.registry_name);
  get("original_name", d.original_name);
  get_list("aliases", d.aliases);
  get("area_id", d.area_id);
  get("area_name", d.area_name);
  get_list("area_aliases", d.area_aliases);
  get("floor_id", d.floor_id);
  get("floor_name", d.floor_name);
  get_list("floor_aliases", d.floor_aliases);
  get("device_id", d.device_id);
  get("device_name", d.device_name);
  get("manufacturer", d.manufacturer);
  get("model", d.model);
  get_list("labels", d.labels);
  get("device_class", d.device_class);
  get("state", d.state);
  if (auto* v = o.if_contains("hidden"); v && v->is_bool()) d.hidden = v->get_bool();
  if (auto* v = o.if_contains("disabled"); v && v->is_bool()) d.disabled = v->get_bool();
  return d;
}

inline std::vector<EntityDoc> read_docs_jsonl(std::istream& in) {
  std::vector<EntityDoc> docs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    docs.push_back(doc_from_json(boost::json::parse(line).as_object()));
  }
  return docs;
}

}  // namespace hamcp::search::testing
