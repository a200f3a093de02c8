// An entry's diagnostics (GET /api/diagnostics/config_entry/<id>): the
// payload's `data` (HA's own wrapper of versions and manifest is left out),
// secrets redacted by key as well as the token scrub every result gets, then
// one part of it (a dotted path, an array or object page) cut to a byte budget.
#include <algorithm>
#include <cctype>

#include "tools/helpers/helper_ha.hpp"
#include "tools/integrations/integration_tools.hpp"

namespace hamcp::tools::integrations {

namespace {

bool secret_key(std::string_view key) {
  std::string k(key);
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::string_view kParts[] = {"password", "token",      "secret",      "api_key",
                                                "apikey",   "passphrase", "private_key", "credentials"};
  return std::any_of(std::begin(kParts), std::end(kParts), [&](std::string_view p) { return k.find(p) != k.npos; });
}

// Iterative: diagnostics can nest deeply.
int redact(json::value& root) {
  int count = 0;
  std::vector<json::value*> todo{&root};
  while (!todo.empty()) {
    json::value* v = todo.back();
    todo.pop_back();
    if (json::object* o = v->if_object()) {
      for (auto& kv : *o) {
        if (secret_key(kv.key()) && (kv.value().is_string() || kv.value().is_number()) &&
            kv.value() != json::value("**REDACTED**")) {
          kv.value() = "**REDACTED**";
          ++count;
        } else {
          todo.push_back(&kv.value());
        }
      }
    } else if (json::array* a = v->if_array()) {
      for (auto& x : *a) todo.push_back(&x);
    }
  }
  return count;
}

const json::value* at_path(const json::value& root, const std::string& path) {
  const json::value* v = &root;
  std::size_t start = 0;
  while (v && start < path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string part = path.substr(start, dot - start);
    if (const json::object* o = v->if_object()) {
      v = o->if_contains(part);
    } else if (const json::array* a = v->if_array()) {
      const bool digits = !part.empty() && std::all_of(part.begin(), part.end(), ::isdigit);
      const std::size_t i = digits ? std::stoul(part) : a->size();
      v = i < a->size() ? &(*a)[i] : nullptr;
    } else {
      v = nullptr;
    }
    start = dot + 1;
  }
  return v;
}

// One page of an array (or of an object's keys).
json::value page(const json::value& v, std::int64_t offset, std::int64_t limit, json::object& meta) {
  const auto from = static_cast<std::size_t>(std::max<std::int64_t>(offset, 0));
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(limit, 1));
  if (const json::array* a = v.if_array()) {
    json::array out;
    for (std::size_t i = from; i < a->size() && out.size() < count; ++i) out.push_back((*a)[i]);
    meta["total"] = a->size();
    meta["has_more"] = from + out.size() < a->size();
    return out;
  }
  if (const json::object* o = v.if_object()) {
    json::object out;
    std::size_t i = 0;
    for (const auto& kv : *o)
      if (i++ >= from && out.size() < count) out[kv.key()] = kv.value();
    meta["total"] = o->size();
    meta["has_more"] = from + out.size() < o->size();
    return out;
  }
  return v;
}

ToolError no_diagnostics(const std::string& entry_id, const std::string& device_id) {
  const std::string of = device_id.empty() ? "config entry '" + entry_id + "'"
                                           : "device '" + device_id + "' of config entry '" + entry_id + "'";
  return ToolError{
      "diagnostics_not_available",
      "Home Assistant has no diagnostics for " + of + " (its integration provides none, or it does not exist).",
      "Read the entry without include_diagnostics; ha_get_logs shows its log lines.",
      {}};
}

}  // namespace

boost::asio::awaitable<json::object> read_diagnostics(ToolEnv& env, const std::string& entry_id, DiagnosticsView view) {
  std::string path = "/api/diagnostics/config_entry/" + entry_id;
  if (!view.device_id.empty()) path += "/device/" + view.device_id;
  auto getting = helpers::rest_call(env, "GET", std::move(path), nullptr, false);
  const helpers::RestAnswer answer = co_await std::move(getting);
  if (answer.status == 404 || answer.status == 400) throw ToolException(no_diagnostics(entry_id, view.device_id));
  if (answer.status >= 400) throw_http_failure(answer.status, json::serialize(answer.body));
  const json::object* payload = answer.body.if_object();
  json::value data = payload && payload->contains("data") ? payload->at("data") : answer.body;
  json::object out;
  out["redacted_keys"] = redact(data);
  if (!view.fields.empty() && data.is_object()) {
    json::object kept;
    for (const auto& f : view.fields)
      if (const json::value* v = data.as_object().if_contains(f)) kept[f] = *v;
    data = std::move(kept);
  }
  if (!view.path.empty()) {
    const json::value* found = at_path(data, view.path);
    if (!found)
      throw ToolException(
          bad_argument("diagnostics_data_path", "'" + view.path + "' is not in the diagnostics",
                       "Use dotted keys of the data shown without a path, e.g. bridge.radio_channels."));
    out["path"] = view.path;
    data = *found;
  }
  if (data.is_array() || (!view.path.empty() && data.is_object())) {
    out["offset"] = view.offset;
    data = page(data, view.offset, view.limit, out);
  }
  std::string text = json::serialize(data);
  out["bytes"] = text.size();
  if (static_cast<std::int64_t>(text.size()) > view.budget) {
    out["truncated"] = true;
    std::size_t cut = static_cast<std::size_t>(std::max<std::int64_t>(view.budget, 0));
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    out["data_text"] = text.substr(0, cut);
    out["note"] = "Cut at diagnostics_truncate_at_bytes; narrow with diagnostics_data_path / _offset / _limit.";
  } else {
    out["truncated"] = false;
    out["data"] = std::move(data);
  }
  if (payload)
    if (const json::value* issues = payload->if_contains("issues")) out["issues"] = *issues;
  co_return out;
}

}  // namespace hamcp::tools::integrations
