#pragma once
// Traces of automation and script runs with Home Assistant's shapes
// (components/trace): a run records its trigger and each action as steps
// under their node paths ("trigger", "action/0", "sequence/1"); finished runs
// are kept per item (the last kStoredTraces, like HA's default) in the
// home model for trace/list and trace/get.

#include <boost/json/object.hpp>
#include <string>

#include "sim/home/home_model.hpp"

namespace hamcp::sim {

namespace json = boost::json;

inline constexpr std::size_t kStoredTraces = 5;

class TraceRecorder {
 public:
  TraceRecorder(std::string domain, std::string item_id, const Context& context, json::object config,
                std::string trigger);
  // One step at `path` (e.g. "action/0"); result/error as HA records them.
  void step(const std::string& path, json::object result, const std::string& error = {});
  // Variables the run was given: shown as the next step's changed_variables, as HA does.
  void variables(json::object vars) { pending_variables_ = std::move(vars); }
  // Ends the run ("finished", "error", ...) and keeps it in `home`.
  void finish(Home& home, const std::string& execution);

 private:
  json::object trace_;
  json::object steps_;
  std::string last_step_;
  std::string error_;
  json::object pending_variables_;
};

// The short form trace/list returns for a full trace.
json::object short_trace(const json::object& full);

}  // namespace hamcp::sim
