#include "tools/response.hpp"

#include "json/json_text.hpp"

namespace hamcp::tools {

void drop_nulls(json::value& v) {
  if (v.is_object()) {
    json::object& o = v.get_object();
    for (auto it = o.begin(); it != o.end();) {
      if (it->value().is_null()) {
        it = o.erase(it);
      } else {
        drop_nulls(it->value());
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (auto& e : v.get_array()) drop_nulls(e);
  }
}

json::object project(const json::object& item, const std::vector<std::string>& fields) {
  json::object out;
  for (const std::string& f : fields) {
    const auto dot = f.find('.');
    if (dot == std::string::npos) {
      if (const json::value* v = item.if_contains(f)) out[f] = *v;
      continue;
    }
    const std::string head = f.substr(0, dot), tail = f.substr(dot + 1);
    const json::value* parent = item.if_contains(head);
    if (!parent || !parent->is_object()) continue;
    const json::value* v = parent->get_object().if_contains(tail);
    if (!v) continue;
    json::value& slot = out[head];
    if (!slot.is_object()) slot = json::object();
    slot.get_object()[tail] = *v;
  }
  return out;
}

std::vector<std::string> string_list(const json::value* v) {
  std::vector<std::string> out;
  if (!v) return out;
  if (v->is_string()) {
    out.emplace_back(v->get_string());
  } else if (v->is_array()) {
    for (const auto& e : v->get_array())
      if (e.is_string()) out.emplace_back(e.get_string());
  }
  return out;
}

std::size_t json_size(const json::value& v) {
  // serialize() is the simplest exact measure; items are small (one entity).
  return json_text(v).size();
}

bool PageWriter::add(json::value item) {
  if (cut_) return false;
  const std::size_t size = json_size(item) + 1;  // + separating comma
  if (!items_.empty() && used_ + size > budget_) {
    cut_ = true;
    return false;
  }
  used_ += size;
  items_.emplace_back(std::move(item));
  return true;
}

void put_page_info(json::object& body, std::size_t offset, std::size_t returned, std::size_t total, bool budget_cut) {
  body["total"] = total;
  if (offset > 0) body["offset"] = offset;
  const bool more = offset + returned < total;
  body["has_more"] = more;
  if (more) body["next_offset"] = offset + returned;
  if (budget_cut) {
    body["truncated"] = true;
    body["notice"] = "Response size limit reached after " + std::to_string(returned) +
                     " items; call again with offset=" + std::to_string(offset + returned) +
                     " for the rest, or narrow the query / use fields.";
  }
}

mcp::ToolResult ok(json::object body) {
  json::value v(std::move(body));
  drop_nulls(v);
  return mcp::ToolResult::structured(std::move(v.get_object()));
}

}  // namespace hamcp::tools
