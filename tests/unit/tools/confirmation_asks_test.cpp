// The confirm paths that once answered a preview without asking (issue 14,
// review of item 5): the edit journal's delete and ha_set_integration's
// reconfigure (confirm_token). A client that can be asked is asked like at
// every other confirm: decline answers the preview (declined) and nothing
// changes; accept does what confirm=true (or the confirm_token) does.
// The blocked cases (a device an integration will not release, a backup
// younger than older_than_days, an update that cannot be installed as asked, a
// restart with an invalid configuration) are never asked: confirm=true would
// meet a refusal, so a question would only lead the user into it. They answer
// the preview with the reason, and nothing changes.

#include <boost/json.hpp>
#include <string>

#include "unit/tools/confirm_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

const json::value kAccept = json::parse(R"({"action":"accept","content":{"confirm":true}})");
const json::value kDecline = json::parse(R"({"action":"decline"})");

class ConfirmAsksTest : public AskingToolsTest {
 protected:
  // Declined: asked, the preview marked declined. Returns the preview.
  json::object expect_declined(mcp::Session& session, const std::string& tool, const std::string& args) {
    Asked a = call_answering(session, tool, args, kDecline);
    EXPECT_FALSE(a.question.empty()) << "not asked: " << tool << " " << args;
    if (a.response.empty()) return {};
    const json::object& s = structured_of(a.response);
    expect_one_shape(s, tool + " " + args);
    EXPECT_EQ(s.if_contains("declined") ? *s.if_contains("declined") : json::value(), true) << json::serialize(s);
    return s;
  }
  // Accepted: asked; the tools/call result.
  json::object accepted(mcp::Session& session, const std::string& tool, const std::string& args) {
    Asked a = call_answering(session, tool, args, kAccept);
    EXPECT_FALSE(a.question.empty()) << "not asked: " << tool << " " << args;
    return a.response.contains("result") ? a.response.at("result").as_object() : json::object{};
  }
  // Blocked: not asked although the client could answer; the preview says why.
  json::object expect_not_asked(mcp::Session& session, const std::string& tool, const std::string& args) {
    Asked a = call_answering(session, tool, args, kAccept);
    EXPECT_TRUE(a.question.empty()) << "asked about a blocked action: " << tool << " " << args;
    if (a.response.empty()) return {};
    const json::object& s = structured_of(a.response);
    expect_one_shape(s, tool + " " + args);
    EXPECT_FALSE(s.contains("declined")) << json::serialize(s);
    EXPECT_FALSE(s.contains("note") && s.at("note").as_string().empty()) << json::serialize(s);
    return s;
  }
  std::string journaled_edit() {
    CallResult r = call("ha_set_registry", R"({"kind":"label","name":"Asked label"})");
    EXPECT_TRUE(r.structured.contains("edit_id")) << r.text;
    return r.structured.contains("edit_id") ? std::string(r.structured.at("edit_id").as_string()) : "missing";
  }
};

TEST_F(ConfirmAsksTest, EditJournalDeleteIsAsked) {
  start();
  auto session = asking_session("asks-journal");
  const std::string edit = journaled_edit();
  const std::string args = R"({"scope":"edits","action":"delete","backup_id":")" + edit + R"("})";
  expect_declined(*session, "ha_manage_backup", args);
  EXPECT_TRUE(env->journal.get(edit).has_value()) << "a declined delete removed the edit";
  json::object done = accepted(*session, "ha_manage_backup", args);
  EXPECT_EQ(json::value(done).at_pointer("/structuredContent/deleted/0"), edit.c_str()) << json::serialize(done);
  EXPECT_FALSE(env->journal.get(edit).has_value());
}

TEST_F(ConfirmAsksTest, ReconfigureIsAskedAndAcceptRunsTheFlow) {
  start();
  CallResult entries = call("ha_get_integration", R"({"domain":"sim_bridge"})");
  const std::string entry(entries.structured.at("entries").at(0).at("entry_id").as_string());
  const std::string args = R"({"entry_id":")" + entry + R"(","reconfigure":true,"config":{"host":"192.168.1.41"}})";
  auto session = asking_session("asks-reconfigure");
  json::object declined = expect_declined(*session, "ha_set_integration", args);
  EXPECT_TRUE(declined.contains("confirm_token")) << "the two-step answer still works after a decline";
  json::object done = accepted(*session, "ha_set_integration", args);
  EXPECT_EQ(json::value(done).at_pointer("/structuredContent/result"), "reconfigured") << json::serialize(done);
  EXPECT_EQ(json::value(done).at_pointer("/structuredContent/before/host"), "192.168.1.40");
}

TEST_F(ConfirmAsksTest, BlockedDeviceRemovalIsNotAsked) {
  start();
  CallResult r = call("ha_get_registry", R"({"kind":"device","area":"Kitchen","limit":1})");
  ASSERT_FALSE(r.is_error) << r.text;
  const std::string device(r.structured.at("items").at(0).at("id").as_string());
  const bool blocked = with_sim_home([&](sim::Home& home) {  // its integration manages its devices itself
    for (const auto& d : home.devices)
      if (d.id == device)
        for (auto& e : home.config_entries)
          for (const auto& id : d.config_entries)
            if (e.at("entry").at("entry_id") == id.c_str()) e["entry"].as_object()["supports_remove_device"] = false;
    return true;
  });
  ASSERT_TRUE(blocked);
  const std::string args = R"({"kind":"device","id":")" + device + R"("})";
  auto session = asking_session("asks-blocked-device");
  json::object preview = expect_not_asked(*session, "ha_remove_registry", args);
  EXPECT_TRUE(preview.contains("blocked_by")) << json::serialize(preview);
  EXPECT_TRUE(ha->snapshot()->registry(ha::RegistryKind::device).find(device));
}

TEST_F(ConfirmAsksTest, TooNewBackupDeleteIsNotAsked) {
  start();
  CallResult made = call("ha_manage_backup", R"({"action":"create","name":"Fresh"})");
  ASSERT_FALSE(made.is_error) << made.text;
  const std::string fresh(made.structured.at("backup").at("backup_id").as_string());
  auto session = asking_session("asks-young-backup");
  json::object preview =
      expect_not_asked(*session, "ha_manage_backup", R"({"action":"delete","backup_id":")" + fresh + R"("})");
  EXPECT_NE(json::serialize(preview).find("older_than_days"), std::string::npos) << json::serialize(preview);
  CallResult listed = call("ha_manage_backup", R"({"action":"list"})");
  EXPECT_NE(listed.text.find(fresh), std::string::npos) << "the young backup was deleted";
}

TEST_F(ConfirmAsksTest, RefusedUpdateIsNotAsked) {
  start();
  const std::string args =
      R"({"action":"install","version":"2025.12.0","entity_ids":["update.garage_door_controller_firmware"]})";
  auto session = asking_session("asks-refused-update");
  json::object preview = expect_not_asked(*session, "ha_manage_updates", args);
  EXPECT_NE(json::serialize(preview).find("refused"), std::string::npos) << json::serialize(preview);
}

TEST_F(ConfirmAsksTest, RestartWithAnInvalidConfigIsNotAsked) {
  start();
  with_sim_home([](sim::Home& home) {
    home.system.config_errors = "line 12: broken";
    return 0;
  });
  auto session = asking_session("asks-invalid-restart");
  expect_not_asked(*session, "ha_restart", "{}");
  EXPECT_EQ(with_sim_home([](sim::Home& home) { return home.system.restarts; }), 0);
}

}  // namespace
}  // namespace hamcp::tools::testing
