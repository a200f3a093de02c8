#pragma once
// Blueprint edits in the edit journal. HA has no API that returns a blueprint
// file's text, so the `before` of a save or delete is the text hamcp itself
// last wrote at that path (its own newest journal entry there); when hamcp
// never wrote it, `before` and the tool's answer say so plainly.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "tools/tool_env.hpp"

namespace hamcp::tools::config {

inline constexpr std::string_view kTextUnknown = "previous text unknown: not written by hamcp";

// {"yaml": the text hamcp last wrote at `key`} or {"yaml": null, "note": kTextUnknown}.
json::object previous_text(const ToolEnv& env, const std::string& key);

// The journal key of a blueprint file, "<domain>/<path>" with HA's ".yaml" added when missing.
std::string journal_key(const std::string& domain, const std::string& path);

// Records a blueprint edit; puts edit_id (and previous_text when `before` has no text) in `body`.
void journal_blueprint(ToolEnv& env, json::object& body, std::string key, std::string action, json::value before,
                       json::value after);

}  // namespace hamcp::tools::config
