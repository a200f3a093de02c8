#include "ha/scrub.hpp"

#include <vector>

namespace hamcp::ha {
namespace json = boost::json;

namespace {

bool contains(std::string_view text, const Secret& secret) {
  return secret.reveal().size() >= 4 && text.find(secret.reveal()) != std::string_view::npos;
}

void scrub_string(json::string& s, const Secret& secret) {
  if (contains(s, secret)) s = secret.scrub(std::string(s));
}

}  // namespace

void scrub_json(json::value& value, const Secret& secret) {
  if (secret.reveal().size() < 4) return;  // Secret::scrub's own minimum
  std::vector<json::value*> todo{&value};
  while (!todo.empty()) {
    json::value* v = todo.back();
    todo.pop_back();
    if (json::string* s = v->if_string()) {
      scrub_string(*s, secret);
    } else if (json::array* a = v->if_array()) {
      for (auto& item : *a) todo.push_back(&item);
    } else if (json::object* o = v->if_object()) {
      bool key_leaks = false;
      for (const auto& kv : *o) key_leaks = key_leaks || contains(kv.key(), secret);
      if (key_leaks) {
        // Keys are immutable in place: rebuild the object (rare; values moved).
        json::object rebuilt(o->storage());
        for (auto& kv : *o) rebuilt[secret.scrub(std::string(kv.key()))] = std::move(kv.value());
        *o = std::move(rebuilt);
      }
      for (auto& kv : *o) todo.push_back(&kv.value());
    }
  }
}

void scrub_error(HaError& error, const Secret& secret) {
  error.detail = secret.scrub(std::move(error.detail));
  error.target = secret.scrub(std::move(error.target));
}

}  // namespace hamcp::ha
