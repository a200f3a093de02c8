#include "ha/scrub.hpp"

#include <boost/container/small_vector.hpp>

namespace hamcp::ha {
namespace json = boost::json;

namespace {

bool contains(std::string_view text, const Secret& secret) {
  return secret.reveal().size() >= 4 && text.find(secret.reveal()) != std::string_view::npos;
}

bool scrub_string(json::string& s, const Secret& secret) {
  if (!contains(s, secret)) return false;
  s = secret.scrub(std::string(s));
  return true;
}

}  // namespace

bool scrub_json(json::value& value, const Secret& secret) {
  if (secret.reveal().size() < 4) return false;  // Secret::scrub's own minimum
  bool redacted = false;
  boost::container::small_vector<json::value*, 32> todo{&value};  // inline: no allocation per result
  while (!todo.empty()) {
    json::value* v = todo.back();
    todo.pop_back();
    if (json::string* s = v->if_string()) {
      redacted = scrub_string(*s, secret) || redacted;
    } else if (json::array* a = v->if_array()) {
      for (auto& item : *a) todo.push_back(&item);
    } else if (json::object* o = v->if_object()) {
      bool key_leaks = false;
      for (const auto& kv : *o) key_leaks = key_leaks || contains(kv.key(), secret);
      if (key_leaks) {
        redacted = true;
        // Keys are immutable in place: rebuild the object (rare; values moved).
        json::object rebuilt(o->storage());
        for (auto& kv : *o) rebuilt[secret.scrub(std::string(kv.key()))] = std::move(kv.value());
        *o = std::move(rebuilt);
      }
      for (auto& kv : *o) todo.push_back(&kv.value());
    }
  }
  return redacted;
}

bool absent_from_json_text(std::string_view json_text, const Secret& secret) {
  const std::string_view token = secret.reveal();
  if (token.size() < 4) return true;  // never scrubbed (Secret::scrub's own minimum)
  for (const char c : token)
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;  // escaped in the text: walk the value
  return json_text.find(token) == std::string_view::npos;
}

void scrub_error(HaError& error, const Secret& secret) {
  error.detail = secret.scrub(std::move(error.detail));
  error.target = secret.scrub(std::move(error.target));
}

}  // namespace hamcp::ha
