#include "tools/addons/addon_config.hpp"

#include <regex>

#include "tools/addons/addons_tools.hpp"

namespace hamcp::tools::addons {

json::object current_config(const json::value& info) {
  json::object out;
  if (const json::object* o = info.if_object())
    for (const char* k : {"options", "network", "boot", "auto_update", "watchdog"})
      if (const json::value* v = o->if_contains(k)) out[k] = *v;
  return out;
}

json::value merge_options(const json::value& current, const json::value& given) {
  if (given.is_string() && given.get_string() == kMask) return current;
  const json::object* g = given.if_object();
  const json::object* c = current.if_object();
  if (!g || !c) {
    // A list of secrets read back masked keeps its current items where they are masked.
    const json::array* ga = given.if_array();
    const json::array* ca = current.if_array();
    if (!ga || !ca) return given;
    json::array out;
    for (std::size_t i = 0; i < ga->size(); ++i)
      out.push_back(i < ca->size() ? merge_options((*ca)[i], (*ga)[i]) : (*ga)[i]);
    return out;
  }
  json::object out = *c;
  for (const auto& [k, v] : *g) {
    if (v.is_null()) {
      out.erase(k);
      continue;
    }
    const json::value* old = c->if_contains(k);
    out[k] = old ? merge_options(*old, v) : v;
  }
  return out;
}

json::array field_errors(const std::string& message) {
  static const std::regex option_name(R"(option '([^']+)')");
  static const std::regex data_path(R"(@ data((?:\['[^']+'\])+))");
  static const std::regex segment(R"(\['([^']+)'\])");
  json::array out;
  std::size_t pos = 0;
  while (pos < message.size()) {
    std::size_t nl = message.find('\n', pos);
    if (nl == std::string::npos) nl = message.size();
    const std::string line = message.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    std::smatch m;
    std::string field;
    if (std::regex_search(line, m, data_path)) {
      const std::string path = m[1];
      for (std::sregex_iterator it(path.begin(), path.end(), segment), end; it != end; ++it)
        field += (field.empty() ? "" : ".") + (*it)[1].str();
    } else if (std::regex_search(line, m, option_name)) {
      field = m[1];
    }
    out.push_back(json::object{{"field", field}, {"problem", line}});
  }
  return out;
}

}  // namespace hamcp::tools::addons
