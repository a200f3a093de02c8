// The updates family against the demo sim: update entities listed by
// category (skipped ones only on request), release notes, install refused
// without confirm and where the entity cannot, install with progress
// notifications until the new version is installed, skip / clear_skipped,
// repairs through ha_manage_updates; HACS: search, info by full name, download
// (preview, then confirm), add a custom repository, remove, refresh, and the
// clear answer of a Home Assistant without HACS.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

constexpr const char* kGarage = "update.garage_door_controller_firmware";
constexpr const char* kPump = "update.garden_pump_plug_firmware";

std::string str(const json::object& o, std::string_view key) { return std::string(o.at(key).as_string()); }

std::vector<std::string> listed_ids(const json::object& body) {
  std::vector<std::string> out;
  for (const auto& group : body.at("updates").as_object())
    for (const auto& item : group.value().as_array()) out.push_back(str(item.as_object(), "entity_id"));
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

class UpdatesToolsTest : public ToolsTest {
 protected:
  template <class F>
  auto with_sim_home(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(sim->store().home());
  }
  std::string attribute(const std::string& entity_id, std::string_view key) {
    const auto s = sim->store().get(entity_id);
    const json::value* v = s ? s->attributes.if_contains(key) : nullptr;
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
  }
};

TEST_F(UpdatesToolsTest, ListGroupsAvailableUpdatesByCategory) {
  start();
  CallResult r = call("ha_manage_updates", R"({"action":"list"})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& groups = r.structured.at("updates").as_object();
  for (const char* category : {"core", "os", "addons", "devices", "hacs"})
    EXPECT_TRUE(groups.contains(category)) << category << ": " << r.text;
  EXPECT_EQ(str(groups.at("core").as_array()[0].as_object(), "entity_id"), "update.home_assistant_core_update");
  EXPECT_EQ(str(groups.at("os").as_array()[0].as_object(), "entity_id"),
            "update.home_assistant_operating_system_update");
  EXPECT_EQ(str(groups.at("hacs").as_array()[0].as_object(), "entity_id"), "update.mushroom_update");
  const auto ids = listed_ids(r.structured);
  EXPECT_TRUE(contains(ids, kGarage));
  EXPECT_FALSE(contains(ids, kPump)) << "a skipped update is hidden by default";
  EXPECT_FALSE(contains(ids, "update.home_assistant_supervisor_update")) << "up to date";
  EXPECT_GE(r.structured.at("skipped").as_int64(), 1);

  CallResult skipped = call("ha_manage_updates", R"({"action":"list","include_skipped":true,"categories":"firmware"})");
  ASSERT_FALSE(skipped.is_error) << skipped.text;
  const auto fw = listed_ids(skipped.structured);
  EXPECT_TRUE(contains(fw, kPump));
  EXPECT_EQ(skipped.structured.at("updates").as_object().size(), 1u) << skipped.text;
}

TEST_F(UpdatesToolsTest, ReleaseNotesOnRequestAndErrorsNameTheField) {
  start();
  CallResult r = call("ha_manage_updates", R"({"action":"get","entity_ids":["update.mosquitto_broker_update"]})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& item = r.structured.at("updates").as_array()[0].as_object();
  EXPECT_NE(str(item, "release_notes").find("authentication plugin"), std::string::npos) << r.text;
  EXPECT_EQ(str(item, "category"), "addons");

  CallResult unknown = call("ha_manage_updates", R"({"action":"get","entity_ids":["update.nope"]})");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.code(), "entity_not_found") << unknown.text;
  CallResult not_update = call("ha_manage_updates", R"({"action":"get","entity_ids":["light.porch_light"]})");
  EXPECT_EQ(not_update.code(), "invalid_argument") << not_update.text;
  EXPECT_NE(not_update.text.find("entity_ids"), std::string::npos);
  CallResult bad_category = call("ha_manage_updates", R"({"action":"list","categories":["kernels"]})");
  EXPECT_NE(bad_category.text.find("categories"), std::string::npos) << bad_category.text;
}

TEST_F(UpdatesToolsTest, InstallNeedsConfirmAndRefusesWhatTheEntityCannot) {
  start();
  CallResult preview =
      call("ha_manage_updates", std::string(R"({"action":"install","entity_ids":[")") + kGarage + "\"]}");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_FALSE(preview.structured.at("installed").as_bool());
  EXPECT_EQ(str(preview.structured.at("would_change").as_array()[0].as_object(), "to"), "2025.12.0");
  EXPECT_EQ(attribute(kGarage, "installed_version"), "2025.11.4") << "a preview installs nothing";

  CallResult no_version = call(
      "ha_manage_updates",
      std::string(R"({"action":"install","confirm":true,"version":"2025.12.0","entity_ids":[")") + kGarage + "\"]}");
  EXPECT_EQ(no_version.code(), "install_refused") << no_version.text;
  EXPECT_NE(no_version.text.find("cannot install a chosen version"), std::string::npos);
  EXPECT_EQ(attribute(kGarage, "installed_version"), "2025.11.4");

  // backup=true backs up where the entity can; the plan says where it cannot.
  CallResult backup = call("ha_manage_updates",
                           R"({"action":"install","backup":true,"entity_ids":["update.mosquitto_broker_update",")" +
                               std::string(kGarage) + "\"]}");
  ASSERT_FALSE(backup.is_error) << backup.text;
  const json::array& plans = backup.structured.at("would_change").as_array();
  EXPECT_TRUE(plans[0].at("backup").as_bool());
  EXPECT_FALSE(plans[1].at("backup").as_bool());
  EXPECT_TRUE(plans[1].as_object().contains("backup_note"));

  // Batch by category: the pending ones of the category; core/os/supervisor only by id.
  CallResult batch = call("ha_manage_updates", R"({"action":"install","categories":["addons","hacs"]})");
  ASSERT_FALSE(batch.is_error) << batch.text;
  EXPECT_EQ(batch.structured.at("would_change").as_array().size(), 2u) << batch.text;
  CallResult core = call("ha_manage_updates", R"({"action":"install","categories":["core"]})");
  EXPECT_EQ(core.code(), "invalid_argument") << core.text;
  CallResult both = call("ha_manage_updates",
                         std::string(R"({"action":"install","categories":["hacs"],"entity_ids":")") + kGarage + "\"}");
  EXPECT_EQ(both.code(), "invalid_argument") << both.text;
}

TEST_F(UpdatesToolsTest, InstallReportsProgressUntilInstalled) {
  start();
  json::object req{
      {"jsonrpc", "2.0"},
      {"id", 7},
      {"method", "tools/call"},
      {"params",
       json::object{
           {"name", "ha_manage_updates"},
           {"arguments", json::object{{"action", "install"}, {"confirm", true}, {"entity_ids", json::array{kGarage}}}},
           {"_meta", json::object{{"progressToken", "upd-1"}}}}}};
  auto channel = std::make_shared<mcp::testing::MemoryChannel>();
  h.session->deliver(json::value(std::move(req)), channel);
  ASSERT_TRUE(h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(30000)));
  const auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  ASSERT_FALSE(mcp::testing::is_error_result(responses[0])) << json::serialize(responses[0]);
  const json::object& result =
      responses[0].at("result").at("structuredContent").at("results").as_array()[0].as_object();
  EXPECT_TRUE(result.at("installed").as_bool()) << json::serialize(result);
  EXPECT_EQ(str(result, "installed_version"), "2025.12.0");
  EXPECT_EQ(attribute(kGarage, "installed_version"), "2025.12.0");
  const auto progress = channel->with_method("notifications/progress");
  ASSERT_GE(progress.size(), 2u);
  EXPECT_EQ(progress.back().at("params").at("progressToken").as_string(), "upd-1");
  EXPECT_GT(progress.back().at("params").at("progress").as_double(), 0.0);
  // Installed: no longer listed as available.
  CallResult after = call("ha_manage_updates", R"({"action":"list","categories":["firmware"]})");
  EXPECT_FALSE(contains(listed_ids(after.structured), kGarage)) << after.text;
}

TEST_F(UpdatesToolsTest, BatchInstallByCategoryReportsIncreasingProgress) {
  start();
  json::object req{{"jsonrpc", "2.0"},
                   {"id", 8},
                   {"method", "tools/call"},
                   {"params", json::object{{"name", "ha_manage_updates"},
                                           {"arguments", json::object{{"action", "install"},
                                                                      {"confirm", true},
                                                                      {"backup", true},
                                                                      {"categories", json::array{"addons", "hacs"}}}},
                                           {"_meta", json::object{{"progressToken", "batch"}}}}}};
  auto channel = std::make_shared<mcp::testing::MemoryChannel>();
  h.session->deliver(json::value(std::move(req)), channel);
  ASSERT_TRUE(h.run_until([&] { return channel->closed > 0; }, std::chrono::milliseconds(30000)));
  const auto responses = channel->responses();
  ASSERT_EQ(responses.size(), 1u);
  ASSERT_FALSE(mcp::testing::is_error_result(responses[0])) << json::serialize(responses[0]);
  const json::array& results = responses[0].at("result").at("structuredContent").at("results").as_array();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].at("backup").as_bool()) << "the add-on backs up first";
  EXPECT_FALSE(results[1].at("backup").as_bool()) << "HACS has no backup step";
  EXPECT_EQ(attribute("update.mosquitto_broker_update", "installed_version"), "6.5.2");
  EXPECT_EQ(attribute("update.mushroom_update", "installed_version"), "4.3.0");
  const auto progress = channel->with_method("notifications/progress");
  ASSERT_GE(progress.size(), 2u);
  for (std::size_t i = 1; i < progress.size(); ++i)
    EXPECT_GT(progress[i].at("params").at("progress").as_double(),
              progress[i - 1].at("params").at("progress").as_double());
  EXPECT_EQ(progress.back().at("params").at("total").as_double(), 200.0);
}

TEST_F(UpdatesToolsTest, SkipAndClearSkipped) {
  start();
  CallResult skip = call("ha_manage_updates", std::string(R"({"action":"skip","entity_ids":")") + kGarage + "\"}");
  ASSERT_FALSE(skip.is_error) << skip.text;
  EXPECT_EQ(str(skip.structured.at("results").as_array()[0].as_object(), "skipped_version"), "2025.12.0");
  EXPECT_EQ(attribute(kGarage, "skipped_version"), "2025.12.0");
  CallResult clear =
      call("ha_manage_updates", std::string(R"({"action":"clear_skipped","entity_ids":")") + kPump + "\"}");
  ASSERT_FALSE(clear.is_error) << clear.text;
  EXPECT_EQ(attribute(kPump, "skipped_version"), "");
  EXPECT_EQ(sim->store().get(kPump)->state, "on");
  CallResult up_to_date =
      call("ha_manage_updates", R"({"action":"skip","entity_ids":"update.home_assistant_supervisor_update"})");
  EXPECT_TRUE(up_to_date.is_error);
  EXPECT_NE(up_to_date.text.find("No update available to skip"), std::string::npos) << up_to_date.text;
}

TEST_F(UpdatesToolsTest, IgnoreAndUnignoreRepairs) {
  start();
  const auto [domain, issue] = with_sim_home([](sim::Home& home) {
    const json::object& first = home.system.repairs.front();
    return std::pair{str(first, "domain"), str(first, "issue_id")};
  });
  const std::string repairs = R"([{"domain":")" + domain + R"(","issue_id":")" + issue + R"("}])";
  CallResult ignore = call("ha_manage_updates", R"({"action":"ignore_repair","repairs":)" + repairs + "}");
  ASSERT_FALSE(ignore.is_error) << ignore.text;
  EXPECT_TRUE(ignore.structured.at("results").as_array()[0].at("ignored").as_bool());
  CallResult unignore = call("ha_manage_updates", R"({"action":"unignore_repair","repairs":)" + repairs + "}");
  ASSERT_FALSE(unignore.is_error) << unignore.text;
  EXPECT_FALSE(unignore.structured.at("results").as_array()[0].at("ignored").as_bool());
  CallResult missing = call("ha_manage_updates", R"({"action":"ignore_repair"})");
  EXPECT_NE(missing.text.find("repairs"), std::string::npos) << missing.text;
}

TEST_F(UpdatesToolsTest, HacsSearchInfoDownloadAddRemove) {
  start();
  CallResult search = call("ha_get_hacs_info", R"({"action":"search","category":"lovelace"})");
  ASSERT_FALSE(search.is_error) << search.text;
  const json::array& repos = search.structured.at("repositories").as_array();
  ASSERT_EQ(repos.size(), 2u) << search.text;
  EXPECT_EQ(str(repos[0].as_object(), "full_name"), "piitaya/lovelace-mushroom") << "installed first";
  CallResult installed = call("ha_get_hacs_info", R"({"action":"search","installed_only":true})");
  EXPECT_EQ(installed.structured.at("total").as_int64(), 2) << installed.text;

  CallResult info = call("ha_get_hacs_info", R"({"action":"info","repository_id":"custom-cards/button-card"})");
  ASSERT_FALSE(info.is_error) << info.text;
  EXPECT_EQ(str(info.structured, "id"), "146194325");

  const std::string dl = R"({"action":"download","repository_id":"146194325")";
  CallResult preview = call("ha_manage_hacs", dl + "}");
  EXPECT_FALSE(preview.structured.at("downloaded").as_bool()) << preview.text;
  CallResult done = call("ha_manage_hacs", dl + R"(,"version":"4.1.1","confirm":true})");
  ASSERT_FALSE(done.is_error) << done.text;
  EXPECT_EQ(str(done.structured, "installed_version_now"), "4.1.1");

  CallResult added =
      call("ha_manage_hacs",
           R"({"action":"add_repository","repository":"https://github.com/example/my-card","category":"lovelace"})");
  ASSERT_FALSE(added.is_error) << added.text;
  const std::string id = str(added.structured, "repository_id");
  CallResult bad_add =
      call("ha_manage_hacs", R"({"action":"add_repository","repository":"not a repo","category":"theme"})");
  EXPECT_EQ(bad_add.code(), "hacs_add_failed") << bad_add.text;

  CallResult remove_preview = call("ha_manage_hacs", R"({"action":"remove","repository_id":")" + id + "\"}");
  EXPECT_FALSE(remove_preview.structured.at("removed").as_bool()) << remove_preview.text;
  CallResult removed = call("ha_manage_hacs", R"({"action":"remove","confirm":true,"repository_id":")" + id + "\"}");
  ASSERT_FALSE(removed.is_error) << removed.text;
  CallResult gone = call("ha_get_hacs_info", R"({"action":"info","repository_id":"example/my-card"})");
  EXPECT_TRUE(gone.is_error);
  EXPECT_NE(gone.text.find("repository_id"), std::string::npos) << gone.text;

  CallResult refresh = call("ha_manage_hacs", R"({"action":"update_information","repository_id":"hacs/integration"})");
  EXPECT_FALSE(refresh.is_error) << refresh.text;
}

TEST_F(UpdatesToolsTest, WithoutHacsTheAnswerSaysHowToInstallIt) {
  start();
  with_sim_home([](sim::Home& home) {
    std::erase_if(home.config_entries, [](const json::object& e) { return e.at("entry").at("domain") == "hacs"; });
    return 0;
  });
  CallResult r = call("ha_get_hacs_info", R"({"action":"search"})");
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.code(), "hacs_not_installed") << r.text;
  EXPECT_NE(r.text.find("hacs.xyz"), std::string::npos);
  CallResult bad = call("ha_manage_hacs", R"({"action":"explode"})");
  EXPECT_NE(bad.text.find("action"), std::string::npos) << bad.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
