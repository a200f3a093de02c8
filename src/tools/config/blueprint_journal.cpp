// The edit journal's memory of blueprint files (see blueprint_journal.hpp).
#include "tools/config/blueprint_journal.hpp"

#include "tools/edit_record.hpp"

namespace hamcp::tools::config {

// The text of hamcp's newest journal entry at `key`; a note when there is none
// or that entry removed the file. (A change made outside hamcp since cannot be
// seen: HA returns no blueprint text.)
json::object previous_text(const ToolEnv& env, const std::string& key) {
  const auto edits = env.journal.list("blueprint", key, 1);
  if (!edits.empty())
    if (auto rec = env.journal.get(edits.front().id))
      if (const json::object* o = rec->after.if_object(); o && o->contains("yaml") && o->at("yaml").is_string())
        return json::object{{"yaml", o->at("yaml")}};
  return json::object{{"yaml", nullptr}, {"note", kTextUnknown}};
}

// The journal key of a blueprint file: HA adds ".yaml" to a path without it.
std::string journal_key(const std::string& domain, const std::string& path) {
  constexpr std::string_view kExt = ".yaml";
  const bool has_ext = path.size() >= kExt.size() && path.compare(path.size() - kExt.size(), kExt.size(), kExt) == 0;
  return domain + "/" + path + (has_ext ? "" : std::string(kExt));
}

// Journals a blueprint write; a `before` without text is named in the answer.
void journal_blueprint(ToolEnv& env, json::object& body, std::string key, std::string action, json::value before,
                       json::value after) {
  if (const json::object* b = before.if_object(); b && b->contains("note")) body["previous_text"] = b->at("note");
  home::EditRecord rec;
  rec.kind = "blueprint";
  rec.key = std::move(key);
  rec.action = std::move(action);
  rec.before = std::move(before);
  rec.after = std::move(after);
  record_edit(env, body, std::move(rec));
}

}  // namespace hamcp::tools::config
