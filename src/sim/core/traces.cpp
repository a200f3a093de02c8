#include "sim/core/traces.hpp"

#include <openssl/rand.h>

#include <utility>

#include "sim/core/state_store.hpp"
#include "sim/core/time_util.hpp"

namespace hamcp::sim {

namespace {

std::string run_id() {
  unsigned char bytes[16];
  RAND_bytes(bytes, sizeof bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 0x0f];
  }
  return id;
}

}  // namespace

TraceRecorder::TraceRecorder(std::string domain, std::string item_id, const Context& context, json::object config,
                             std::string trigger) {
  trace_["run_id"] = run_id();
  trace_["domain"] = domain;
  trace_["item_id"] = item_id;
  trace_["timestamp"] = json::object{{"start", iso_time(now_timestamp())}, {"finish", nullptr}};
  trace_["context"] = context_json(context);
  trace_["config"] = std::move(config);
  trace_["blueprint_inputs"] = nullptr;
  if (domain == "automation") {
    trace_["trigger"] = trigger;
    step("trigger", {}, {});
    steps_["trigger"].as_array().back().as_object()["changed_variables"] =
        json::object{{"trigger", json::object{{"platform", nullptr}, {"description", trigger}}}};
  }
}

void TraceRecorder::step(const std::string& path, json::object result, const std::string& error) {
  json::object s{{"path", path}, {"timestamp", iso_time(now_timestamp())}};
  if (!result.empty()) s["result"] = std::move(result);
  if (!pending_variables_.empty()) s["changed_variables"] = std::exchange(pending_variables_, {});
  if (!error.empty()) {
    s["error"] = error;
    error_ = error;
  }
  json::value& list = steps_[path];
  if (!list.is_array()) list = json::array();
  list.as_array().push_back(std::move(s));
  last_step_ = path;
}

void TraceRecorder::finish(Home& home, const std::string& execution) {
  trace_["state"] = "stopped";
  trace_["script_execution"] = execution;
  trace_["last_step"] = last_step_.empty() ? json::value(nullptr) : json::value(last_step_);
  trace_["timestamp"].as_object()["finish"] = iso_time(now_timestamp());
  if (!error_.empty()) trace_["error"] = error_;
  trace_["trace"] = std::move(steps_);
  const std::string key = std::string(trace_["domain"].as_string()) + "/" + std::string(trace_["item_id"].as_string());
  auto& kept = home.traces[key];
  kept.push_back(std::move(trace_));
  if (kept.size() > kStoredTraces) kept.erase(kept.begin());
}

json::object short_trace(const json::object& full) {
  json::object out;
  for (const char* key :
       {"last_step", "run_id", "state", "script_execution", "timestamp", "domain", "item_id", "error", "trigger"})
    if (const json::value* v = full.if_contains(key)) out[key] = *v;
  return out;
}

}  // namespace hamcp::sim
