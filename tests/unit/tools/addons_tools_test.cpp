// The add-ons family against the demo sim's Supervisor, through HA's
// supervisor/api proxy (the default) and directly as an add-on reaches it
// (SUPERVISOR_TOKEN, HAMCP_SUPERVISOR_ENDPOINT): lists, details with masked
// secrets, lifecycle with confirm previews, options validated per field and
// journaled, repositories, the Supervisor's logs, and the one clear answer
// on an install without a Supervisor.
#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& v, std::string_view key) { return std::string(v.at(key).as_string()); }

class AddonsToolsTest : public ToolsTest {
 protected:
  template <class F>
  auto with_supervisor(F fn) {
    std::lock_guard lock(sim->store().mutex());
    return fn(*sim->store().home().supervisor);
  }
  sim::SimAddon addon(const std::string& slug) {
    return with_supervisor([&](sim::SupervisorData& d) {
      for (const auto& a : d.addons)
        if (a.slug == slug) return a;
      return sim::SimAddon{};
    });
  }
  // hamcp as an add-on runs it: SUPERVISOR_TOKEN, the Supervisor (the sim) at a
  // test endpoint, requests recorded; the sim's port.
  uint16_t start_inside_an_addon() {
    sim = std::make_unique<sim::SimServer>(sim::demo_home(), sim::SimServerOptions{"127.0.0.1", 0, "sv-token"});
    const uint16_t port = sim->start();
    adjust_input = [port](ha::ConnectionInput& input) {
      input.url.clear();
      input.token.clear();
      input.supervisor_token = "sv-token";
      input.supervisor_endpoint = "127.0.0.1:" + std::to_string(port);
    };
    sim->core().record_requests(true);
    start({}, "http://unused", "sv-token");
    return port;
  }
  std::vector<std::string> slugs(const CallResult& r) {
    std::vector<std::string> out;
    for (const auto& a : r.structured.at("addons").as_array()) out.push_back(str(a, "slug"));
    return out;
  }
};

TEST_F(AddonsToolsTest, ListsInstalledAndStoreAddonsWithFilters) {
  start();
  CallResult installed = call("ha_get_app");
  ASSERT_FALSE(installed.is_error) << installed.text;
  EXPECT_EQ(slugs(installed),
            (std::vector<std::string>{"core_mosquitto", "45df7312_zigbee2mqtt", "core_configurator"}));
  EXPECT_EQ(str(installed.structured.at("addons").at(0), "state"), "started");

  CallResult store = call("ha_get_app", R"({"source":"available","repository":"core"})");
  ASSERT_FALSE(store.is_error) << store.text;
  EXPECT_EQ(slugs(store), (std::vector<std::string>{"core_mosquitto", "core_configurator", "core_samba", "core_ssh"}));
  EXPECT_FALSE(store.structured.at("repositories").as_array().empty());

  CallResult query = call("ha_get_addon", R"({"source":"available","query":"flow-based"})");
  ASSERT_FALSE(query.is_error) << query.text;
  EXPECT_EQ(slugs(query), std::vector<std::string>{"a0d7b954_nodered"});
}

TEST_F(AddonsToolsTest, DetailsMaskSecretsAndIncludeStats) {
  start();
  CallResult r = call("ha_get_app", R"({"slug":"45df7312_zigbee2mqtt","include_stats":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::object& a = r.structured.at("addon").as_object();
  EXPECT_EQ(str(a, "state"), "started");
  EXPECT_EQ(str(a.at("options").at("mqtt"), "password"), "**REDACTED**");
  EXPECT_EQ(str(a.at("options").at("mqtt"), "user"), "zigbee");
  EXPECT_EQ(r.text.find("zb-Secret-42"), std::string::npos) << "a secret leaked: " << r.text;
  EXPECT_FALSE(str(a, "config_hash").empty());
  EXPECT_TRUE(r.structured.at("stats").as_object().contains("memory_percent"));

  CallResult unknown = call("ha_get_app", R"({"slug":"nope"})");
  EXPECT_EQ(unknown.code(), "supervisor_refused") << unknown.text;
  EXPECT_NE(unknown.text.find("nope"), std::string::npos);
  CallResult bad = call("ha_get_app", R"({"slug":"../store"})");
  EXPECT_EQ(bad.code(), "invalid_argument") << bad.text;
}

TEST_F(AddonsToolsTest, LifecycleActionsAndConfirmPreviews) {
  start();
  CallResult started = call("ha_manage_app", R"({"action":"start","slug":"core_configurator"})");
  ASSERT_FALSE(started.is_error) << started.text;
  EXPECT_EQ(str(started.structured.at("addon"), "state"), "started");
  EXPECT_EQ(addon("core_configurator").state, "started");

  CallResult preview = call("ha_manage_app", R"({"action":"update","slug":"core_mosquitto"})");
  ASSERT_FALSE(preview.is_error) << preview.text;
  EXPECT_TRUE((preview.structured.at("result") == "preview"));
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.1");
  CallResult updated =
      call("ha_manage_addon", R"({"action":"update","slug":"core_mosquitto","confirm":true,"backup":true})");
  ASSERT_FALSE(updated.is_error) << updated.text;
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");

  CallResult uninstall = call("ha_manage_app", R"({"action":"uninstall","slug":"core_configurator"})");
  EXPECT_TRUE((uninstall.structured.at("result") == "preview")) << uninstall.text;
  EXPECT_TRUE(addon("core_configurator").installed());
  CallResult install = call("ha_manage_app", R"({"action":"install","slug":"core_ssh"})");
  ASSERT_FALSE(install.is_error) << install.text;
  EXPECT_TRUE(addon("core_ssh").installed());
  CallResult wrong = call("ha_manage_app", R"({"action":"explode","slug":"core_ssh"})");
  EXPECT_EQ(wrong.code(), "invalid_argument") << wrong.text;
}

// update with backup=true: the Supervisor's partial backup of the add-on is
// made first and the answer names its slug; while another backup runs the
// Supervisor refuses that backup and the update with it: one clear error, the
// add-on not updated.
TEST_F(AddonsToolsTest, AnUpdateWithBackupNamesItsBackupOrFailsWithoutUpdating) {
  start();
  with_supervisor([](sim::SupervisorData& d) {
    sim::SimJob busy;
    busy.uuid = "busy0000000000000000000000000001";
    busy.name = "backup_manager_full_backup";
    d.jobs[busy.uuid] = busy;
  });
  const std::string args = R"({"action":"update","slug":"core_mosquitto","confirm":true,"backup":true})";
  CallResult refused = call("ha_manage_app", args);
  EXPECT_EQ(refused.code(), "addon_backup_failed") << refused.text;
  EXPECT_NE(refused.text.find("was not updated"), std::string::npos) << refused.text;
  EXPECT_NE(refused.text.find("Another job is running"), std::string::npos) << refused.text;
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.1");

  const std::size_t backups = with_supervisor([](sim::SupervisorData& d) {
    d.jobs.at("busy0000000000000000000000000001").done = true;
    return d.backups.size();
  });
  CallResult updated = call("ha_manage_app", args);
  ASSERT_FALSE(updated.is_error) << updated.text;
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");
  const sim::SimBackup made = with_supervisor([](sim::SupervisorData& d) { return d.backups.back(); });
  EXPECT_EQ(with_supervisor([](sim::SupervisorData& d) { return d.backups.size(); }), backups + 1);
  EXPECT_EQ(made.name, "addon_core_mosquitto_6.5.1");
  const json::object& backup = updated.structured.at("backup").as_object();
  EXPECT_EQ(str(backup, "slug"), made.slug);
  EXPECT_EQ(backup.at("made"), true);
}

// A backup that fails while it is written does not stop the Supervisor's
// update: the answer says so, whether the backup was kept without the add-on
// (its archive could not be written) or not kept at all (the file could not).
TEST_F(AddonsToolsTest, AnUpdateWhoseBackupFailsBeingWrittenSaysWhatWasKept) {
  start();
  const std::string args = R"({"action":"update","slug":"core_mosquitto","confirm":true,"backup":true})";
  with_supervisor([](sim::SupervisorData& d) { d.backup_fault = "addon_save"; });
  CallResult kept = call("ha_manage_app", args);
  ASSERT_FALSE(kept.is_error) << kept.text;
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");
  const json::object& backup = kept.structured.at("backup").as_object();
  EXPECT_EQ(backup.at("made"), false);
  EXPECT_EQ(backup.at("kept"), true);
  EXPECT_EQ(backup.at("errors").at(0).at("job"), "backup_addon_save");
  EXPECT_EQ(backup.at("errors").at(0).at("reference"), "core_mosquitto");
  const std::string warning(kept.structured.at("warning").as_string());
  EXPECT_NE(warning.find("core_mosquitto's data could not be written into it (An unknown error occurred during "
                         "backup/restore"),
            std::string::npos)
      << warning;

  with_supervisor([](sim::SupervisorData& d) {
    d.backup_fault = "file";
    for (auto& a : d.addons)
      if (a.slug == "core_mosquitto") a.version = "6.5.1";
  });
  CallResult lost = call("ha_manage_app", args);
  ASSERT_FALSE(lost.is_error) << lost.text;
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");
  const std::string slug(lost.structured.at("backup").at("slug").as_string());
  EXPECT_EQ(lost.structured.at("backup").at("kept"), false);
  EXPECT_EQ(str(lost.structured, "warning"), "The Supervisor could not write backup " + slug + " (Backup " + slug +
                                                 " error, see supervisor logs) and updated core_mosquitto without a "
                                                 "backup, as it does when that backup fails.");
}

TEST_F(AddonsToolsTest, OptionsAreMergedKeepMaskedSecretsAndAreJournaled) {
  start();
  CallResult read = call("ha_get_app", R"({"slug":"45df7312_zigbee2mqtt"})");
  ASSERT_FALSE(read.is_error) << read.text;
  // Send back what was read (password masked) with one change: the secret stays.
  json::object options = read.structured.at("addon").at("options").as_object();
  options["serial"].as_object()["adapter"] = "ember";
  json::object args{{"slug", "45df7312_zigbee2mqtt"},
                    {"options", options},
                    {"config_hash", read.structured.at("addon").at("config_hash")},
                    {"watchdog", true}};
  CallResult set = call("ha_manage_app", json::serialize(args));
  ASSERT_FALSE(set.is_error) << set.text;
  const sim::SimAddon after = addon("45df7312_zigbee2mqtt");
  EXPECT_EQ(str(after.options.at("serial"), "adapter"), "ember");
  EXPECT_EQ(str(after.options.at("mqtt"), "password"), "zb-Secret-42");
  EXPECT_TRUE(after.watchdog);
  const json::array& changed = set.structured.at("changed").as_array();
  EXPECT_NE(std::find(changed.begin(), changed.end(), json::value("options.serial")), changed.end()) << set.text;
  EXPECT_EQ(set.text.find("zb-Secret-42"), std::string::npos);
  ASSERT_TRUE(set.structured.contains("edit_id"));
  auto rec = env->journal.get(str(set.structured, "edit_id"));
  ASSERT_TRUE(rec);
  EXPECT_EQ(str(rec->before.at("options").at("serial"), "adapter"), "zstack");

  // The same stale hash again: nothing written.
  args["options"] = json::object{{"data_path", "/tmp/x"}};
  CallResult stale = call("ha_manage_app", json::serialize(args));
  EXPECT_EQ(stale.code(), "stale_config_hash") << stale.text;
  EXPECT_EQ(stale.text.find("changed_since"), std::string::npos) << "options hold secrets: no diff";
  EXPECT_EQ(str(addon("45df7312_zigbee2mqtt").options, "data_path"), "/config/zigbee2mqtt");
}

TEST_F(AddonsToolsTest, InvalidOptionsNameTheFieldAndWriteNothing) {
  start();
  CallResult r =
      call("ha_manage_app",
           R"({"action":"configure","slug":"45df7312_zigbee2mqtt","options":{"serial":{"baudrate":"fast"}}})");
  ASSERT_EQ(r.code(), "invalid_options") << r.text;
  const json::array& fields = r.error().at("fields").as_array();
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(str(fields[0], "field"), "baudrate");
  EXPECT_FALSE(r.error().at("written").as_bool());
  EXPECT_EQ(r.text.find("zb-Secret-42"), std::string::npos);
  EXPECT_FALSE(addon("45df7312_zigbee2mqtt").options.at("serial").as_object().contains("baudrate"));
  CallResult none = call("ha_manage_app", R"({"action":"configure","slug":"core_ssh"})");
  EXPECT_EQ(none.code(), "supervisor_refused") << none.text;  // not installed
}

TEST_F(AddonsToolsTest, RepositoriesAddAndRemoveWithConfirm) {
  start();
  const std::string url = "https://github.com/example/ha-addons";
  CallResult add = call("ha_manage_app", R"({"action":"add_repository","repository":")" + url + R"("})");
  ASSERT_FALSE(add.is_error) << add.text;
  CallResult preview = call("ha_manage_app", R"({"action":"remove_repository","repository":")" + url + R"("})");
  ASSERT_TRUE((preview.structured.at("result") == "preview")) << preview.text;
  CallResult removed =
      call("ha_manage_app", R"({"action":"remove_repository","repository":")" + url + R"(","confirm":true})");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_EQ(with_supervisor([](sim::SupervisorData& d) { return d.repositories.size(); }), 4u);
  CallResult builtin = call("ha_manage_app", R"({"action":"remove_repository","repository":"core","confirm":true})");
  EXPECT_EQ(builtin.code(), "supervisor_refused") << builtin.text;
}

TEST_F(AddonsToolsTest, SupervisorAndHostServiceLogs) {
  start();
  CallResult addon_log = call("ha_get_logs", R"({"source":"supervisor","slug":"core_mosquitto","search":"timeout"})");
  ASSERT_FALSE(addon_log.is_error) << addon_log.text;
  ASSERT_EQ(addon_log.structured.at("entries").as_array().size(), 1u);
  EXPECT_NE(str(addon_log.structured.at("entries").at(0), "line").find("mqtt_explorer"), std::string::npos);
  CallResult own = call("ha_get_logs", R"({"source":"supervisor","limit":2})");
  ASSERT_FALSE(own.is_error) << own.text;
  EXPECT_NE(str(own.structured.at("entries").at(0), "line").find("Loading add-ons"), std::string::npos);  // newest
  CallResult host = call("ha_get_logs", R"({"source":"system_service","slug":"NetworkManager"})");
  ASSERT_FALSE(host.is_error) << host.text;
  EXPECT_EQ(host.structured.at("entries").as_array().size(), 2u);
  CallResult ids = call("ha_get_logs", R"({"source":"system_service"})");
  ASSERT_FALSE(ids.is_error) << ids.text;
  EXPECT_EQ(ids.structured.at("entries").as_array().size(), 3u);
}

TEST_F(AddonsToolsTest, NoSupervisorIsOneClearError) {
  start();
  with_supervisor([](sim::SupervisorData&) { return 0; });
  {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().supervisor.reset();
  }
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::string>>{
           {"ha_get_app", "{}"},
           {"ha_get_app", R"({"slug":"core_ssh"})"},
           {"ha_manage_app", R"({"action":"restart","slug":"core_ssh"})"},
           {"ha_get_logs", R"({"source":"supervisor"})"},
           {"ha_get_logs", R"({"source":"supervisor","slug":"core_ssh"})"}}) {
    CallResult r = call(tool, args);
    EXPECT_EQ(r.code(), "supervisor_unavailable") << tool << " " << args << ": " << r.text;
    EXPECT_NE(r.text.find("HA Container/Core"), std::string::npos) << r.text;
  }
  CallResult still = call("ha_get_state", R"({"entity_id":"sun.sun"})");
  EXPECT_FALSE(still.is_error) << still.text;
}

TEST_F(AddonsToolsTest, InsideAnAddonTheSupervisorIsReachedDirectly) {
  const uint16_t port = start_inside_an_addon();
  ASSERT_TRUE(
      h.run_until([&] { return ha->status().state == ha::MirrorState::synced; }, std::chrono::milliseconds(10000)));
  CallResult r = call("ha_get_app", R"({"slug":"core_mosquitto"})");
  ASSERT_FALSE(r.is_error) << r.text;
  CallResult log = call("ha_get_logs", R"({"source":"system_service","slug":"kernel"})");
  ASSERT_FALSE(log.is_error) << log.text;
  bool direct = false, proxied = false;
  for (const auto& q : sim->core().received_requests()) {
    direct = direct || (q.channel == "GET" && q.what == "/addons/core_mosquitto/info");
    proxied = proxied || q.what.rfind("supervisor/api", 0) == 0;
  }
  EXPECT_TRUE(direct);
  EXPECT_FALSE(proxied);

  // The proxy into an add-on's own API: the "add-on" here is the sim itself on loopback, which
  // answers 401 because hamcp sends it no credentials.
  {
    std::lock_guard lock(sim->store().mutex());
    for (auto& a : sim->store().home().supervisor->addons)
      if (a.slug == "core_mosquitto") {
        a.hostname = "127.0.0.1";
        a.ingress_port = port;
      }
  }
  CallResult api = call("ha_manage_app", R"({"slug":"core_mosquitto","path":"/api/states","method":"GET"})");
  ASSERT_FALSE(api.is_error) << api.text;
  EXPECT_EQ(api.structured.at("status"), 401);
  EXPECT_NE(str(api.structured, "body").find("Unauthorized"), std::string::npos) << api.text;
  CallResult escape = call("ha_manage_app", R"({"slug":"core_mosquitto","path":"/../x"})");
  EXPECT_EQ(escape.code(), "invalid_argument") << escape.text;
}

// Ingress inside an add-on: the session is made through HA's supervisor/api
// command (over the Supervisor's /core/websocket: the Supervisor's
// /ingress/session answers Home Assistant alone, require_home_assistant), and
// the request goes to HA's own /api/hassio_ingress with the session cookie
// alone (on HA OS homeassistant:8123; here the test endpoint), not through the
// Supervisor's Core proxy (/core/api), which would want a token.
TEST_F(AddonsToolsTest, InsideAnAddonIngressReachesHomeAssistantWithTheCookie) {
  start_inside_an_addon();
  ASSERT_TRUE(
      h.run_until([&] { return ha->status().state == ha::MirrorState::synced; }, std::chrono::milliseconds(10000)));
  CallResult r = call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "via"), "ingress");
  EXPECT_EQ(r.structured.at("status"), 200);
  EXPECT_EQ(str(r.structured.at("json"), "name"), "Zigbee2MQTT") << r.text;
  EXPECT_EQ(with_supervisor([](sim::SupervisorData& d) { return d.ingress_sessions.size(); }), 1u);
  int through_ha = 0, direct_sessions = 0, ingress = 0, through_core = 0;
  for (const auto& q : sim->core().received_requests()) {
    through_ha += q.what == "supervisor/api POST /ingress/session" ? 1 : 0;
    direct_sessions += q.what == "/ingress/session" ? 1 : 0;
    ingress += q.channel == "GET" && q.what.rfind("/api/hassio_ingress/", 0) == 0 ? 1 : 0;
    through_core += q.what.rfind("/core/api/hassio_ingress", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(through_ha, 1);
  EXPECT_EQ(direct_sessions, 0);
  EXPECT_EQ(ingress, 1);
  EXPECT_EQ(through_core, 0);
}

TEST_F(AddonsToolsTest, TheAddonApiProxyNeedsHamcpInsideAnAddon) {
  start();
  CallResult r = call("ha_manage_app", R"({"action":"proxy","slug":"core_mosquitto","path":"/status"})");
  EXPECT_EQ(r.code(), "addon_api_unreachable") << r.text;
  EXPECT_NE(r.text.find("inside an add-on"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
