#include "home/config_json.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/json_fields.hpp"

namespace hamcp::home {

namespace {

using Ordered = nlohmann::ordered_json;

void write_canonical(const json::value& v, std::string& out) {
  if (const json::object* o = v.if_object()) {
    std::vector<const json::key_value_pair*> members;
    members.reserve(o->size());
    for (const auto& kv : *o) members.push_back(&kv);
    std::sort(members.begin(), members.end(),
              [](const json::key_value_pair* a, const json::key_value_pair* b) { return a->key() < b->key(); });
    out += '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      out += json::serialize(json::string_view(members[i]->key()));
      out += ':';
      write_canonical(members[i]->value(), out);
    }
    out += '}';
  } else if (const json::array* a = v.if_array()) {
    out += '[';
    for (std::size_t i = 0; i < a->size(); ++i) {
      if (i) out += ',';
      write_canonical((*a)[i], out);
    }
    out += ']';
  } else {
    out += json::serialize(v);
  }
}

Ordered to_ordered(const json::value& v) { return Ordered::parse(json::serialize(v)); }
json::value from_ordered(const Ordered& v) { return json::parse(v.dump()); }

// Checks the shape of one operation so the error says what is missing,
// before the library's terser messages.
void check_operation(std::size_t index, const json::value& raw) {
  const json::object* op = raw.if_object();
  if (!op)
    throw PatchError(index, "",
                     "each operation must be an object like {\"op\":\"replace\",\"path\":\"/alias\",\"value\":\"x\"}");
  const std::string name = string_or_empty(*op, "op");
  const json::value* path = op->if_contains("path");
  if (!path || !path->is_string())
    throw PatchError(index, "", "\"path\" (a JSON Pointer such as \"/actions/0\") is required");
  const std::string where(path->get_string());
  if (!where.empty() && where.front() != '/')
    throw PatchError(index, where, "a JSON Pointer starts with \"/\" (e.g. \"/triggers/0/at\")");
  static const std::vector<std::string> kOps = {"add", "remove", "replace", "move", "copy", "test"};
  if (std::find(kOps.begin(), kOps.end(), name) == kOps.end())
    throw PatchError(index, where, "\"op\" must be one of add, remove, replace, move, copy, test");
  if ((name == "add" || name == "replace" || name == "test") && !op->contains("value"))
    throw PatchError(index, where, "\"" + name + "\" needs a \"value\"");
  if ((name == "move" || name == "copy") && !op->if_contains("from"))
    throw PatchError(index, where, "\"" + name + "\" needs a \"from\" pointer");
}

// The library's exception as a sentence about the config.
std::string reason_of(const json::object& op, const nlohmann::json::exception& e) {
  const std::string name = string_or_empty(op, "op");
  if (e.id == 501 && name == "test") return "test failed: the current value differs";
  if (e.id == 401 || e.id == 402) return "array index out of range in the current config";
  if (e.id == 403 || e.id == 404) return "no such member in the current config";
  if (e.id == 106 || e.id == 107 || e.id == 108 || e.id == 109) return "malformed JSON Pointer";
  std::string what = e.what();
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

std::string excerpt(const json::value& v, std::size_t max_bytes) {
  std::string text = json::serialize(v);
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return text.substr(0, cut) + "…";
}

}  // namespace

PatchError::PatchError(std::size_t index, std::string where, const std::string& reason)
    : std::runtime_error("patch operation " + std::to_string(index) + (where.empty() ? "" : " (" + where + ")") + ": " +
                         reason),
      op_index(index),
      path(std::move(where)) {}

std::string canonical_json(const json::value& value) {
  std::string out;
  write_canonical(value, out);
  return out;
}

std::string config_hash(const json::value& value) {
  const std::string text = canonical_json(value);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (int i = 0; i < 8; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0x0f];
  }
  return hex;
}

json::value apply_json_patch(const json::value& document, const json::array& operations) {
  for (std::size_t i = 0; i < operations.size(); ++i) check_operation(i, operations[i]);
  Ordered current = to_ordered(document);
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const json::object& op = operations[i].get_object();
    try {
      Ordered one = Ordered::array({to_ordered(op)});
      current = current.patch(one);
    } catch (const nlohmann::json::exception& e) {
      throw PatchError(i, string_or_empty(op, "path"), reason_of(op, e));
    }
  }
  return from_ordered(current);
}

json::array json_diff(const json::value& from, const json::value& to) {
  const json::value ops = from_ordered(Ordered::diff(to_ordered(from), to_ordered(to)));
  return ops.as_array();
}

json::array short_diff(const json::value& from, const json::value& to, std::size_t max_ops,
                       std::size_t max_value_bytes) {
  json::array all = json_diff(from, to);
  json::array out;
  for (std::size_t i = 0; i < all.size() && i < max_ops; ++i) {
    json::object& op = all[i].as_object();
    if (json::value* v = op.if_contains("value")) {
      const std::string text = excerpt(*v, max_value_bytes);
      if (text.size() != json::serialize(*v).size()) *v = text;
    }
    out.push_back(std::move(op));
  }
  if (all.size() > max_ops)
    out.push_back(json::object{{"op", "…"}, {"more", static_cast<std::int64_t>(all.size() - max_ops)}});
  return out;
}

}  // namespace hamcp::home
