// The simulated Supervisor in its own shapes: the {"result":"ok","data":…}
// envelope and its errors, options checked against the add-on's schema (the
// Supervisor's words, nothing applied on a refusal), text logs with ?lines=,
// repositories; jobs with the Supervisor's child jobs; the same API through HA's supervisor/api command (data, or
// unknown_error with the message) and /api/hassio logs; and an install
// without a Supervisor: 404 and unknown_command.
#include <gtest/gtest.h>

#include "sim/rest/rest_api.hpp"
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

class SupervisorRoutes : public testing::WsCommandTest {
 protected:
  RestResponse request(const std::string& method, const std::string& target, const std::string& body = "") {
    RestApi api(core, nullptr);
    RestRequest req;
    req.method = method;
    req.target = target;
    req.authorization = "Bearer tok";
    req.body = body;
    return api.handle(req);
  }
  json::object envelope(const RestResponse& r) { return json::parse(r.body).as_object(); }
  SimAddon& addon(const std::string& slug) {
    for (auto& a : core.store().home().supervisor->addons)
      if (a.slug == slug) return a;
    throw std::runtime_error("no add-on " + slug);
  }
};

TEST_F(SupervisorRoutes, ListsAndInfoInTheEnvelope) {
  RestResponse list = request("GET", "/addons");
  ASSERT_EQ(list.status, 200);
  json::object e = envelope(list);
  EXPECT_EQ(e.at("result"), "ok");
  EXPECT_EQ(e.at("data").at("addons").as_array().size(), 3u);
  json::object info = envelope(request("GET", "/addons/core_mosquitto/info"));
  EXPECT_EQ(info.at("data").at("network").at("1883/tcp"), 1883);
  RestResponse missing = request("GET", "/addons/nope/info");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(envelope(missing).at("result"), "error");
  RestResponse not_installed = request("GET", "/addons/core_ssh/info");
  EXPECT_EQ(not_installed.status, 400);
  EXPECT_EQ(envelope(request("GET", "/store")).at("data").at("addons").as_array().size(), 6u);
}

TEST_F(SupervisorRoutes, OptionsAreValidatedAgainstTheSchemaAndNeverHalfApplied) {
  RestResponse bad = request("POST", "/addons/core_mosquitto/options",
                             R"({"options":{"logins":[],"certfile":"a","keyfile":"b","require_certificate":false},)"
                             R"("boot":"manual"})");
  ASSERT_EQ(bad.status, 400);
  EXPECT_EQ(envelope(bad).at("message"),
            "Add-on core_mosquitto has invalid options: Missing option 'customize' in root in Mosquitto broker "
            "(core_mosquitto)");
  EXPECT_EQ(addon("core_mosquitto").boot, "auto");  // nothing applied
  RestResponse good = request("POST", "/addons/core_configurator/options",
                              R"({"options":{"dirsfirst":"true","enforce_basepath":true,"git":false,)"
                              R"("ignore_pattern":[],"ssh_keys":[],"unknown":1},"watchdog":true})");
  ASSERT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(addon("core_configurator").options.at("dirsfirst"), true);
  EXPECT_FALSE(addon("core_configurator").options.contains("unknown"));
  EXPECT_TRUE(addon("core_configurator").watchdog);
  json::object check = envelope(request("POST", "/addons/45df7312_zigbee2mqtt/options/validate",
                                        R"({"data_path":"/x","serial":{"baudrate":1}})"));
  EXPECT_EQ(check.at("data").at("valid"), false);
}

TEST_F(SupervisorRoutes, LogsAreTextWithTheNewestLines) {
  RestResponse log = request("GET", "/addons/core_mosquitto/logs?lines=2");
  ASSERT_EQ(log.status, 200);
  EXPECT_EQ(log.content_type.rfind("text/plain", 0), 0u) << log.content_type;
  EXPECT_EQ(std::count(log.body.begin(), log.body.end(), '\n'), 2);
  EXPECT_NE(log.body.find("exceeded timeout"), std::string::npos);
  RestResponse host = request("GET", "/host/logs/identifiers/kernel");
  EXPECT_NE(host.body.find("ttyUSB0"), std::string::npos);
  RestResponse via_ha = request("GET", "/api/hassio/supervisor/logs");
  EXPECT_EQ(via_ha.status, 200);
  EXPECT_NE(via_ha.body.find("Initializing Supervisor"), std::string::npos);
}

TEST_F(SupervisorRoutes, RepositoriesAddAndRemove) {
  ASSERT_EQ(request("POST", "/store/repositories", R"({"repository":"https://github.com/x/y"})").status, 200);
  json::array repos = envelope(request("GET", "/store/repositories")).at("data").as_array();
  ASSERT_EQ(repos.size(), 5u);
  const std::string slug(repos.back().at("slug").as_string());
  EXPECT_EQ(request("DELETE", "/store/repositories/" + slug).status, 200);
  EXPECT_EQ(request("DELETE", "/store/repositories/core").status, 400);
  EXPECT_EQ(request("POST", "/store/repositories", R"({})").status, 400);
}

TEST_F(SupervisorRoutes, HomeAssistantsWebSocketProxy) {
  json::object r =
      cmd({{"type", "supervisor/api"}, {"endpoint", "/addons/core_configurator/start"}, {"method", "post"}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(addon("core_configurator").state, "started");
  json::object info = cmd({{"type", "supervisor/api"}, {"endpoint", "/addons/core_mosquitto/info"}, {"method", "get"}});
  EXPECT_EQ(info.at("result").at("slug"), "core_mosquitto");  // the reply's data, unwrapped
  json::object bad = cmd({{"type", "supervisor/api"}, {"endpoint", "/addons/nope/info"}, {"method", "get"}});
  EXPECT_EQ(code(bad), "unknown_error");
  EXPECT_EQ(message(bad), "Addon nope does not exist");
}

TEST_F(SupervisorRoutes, BackupsInTheSupervisorsShapes) {
  json::object list = envelope(request("GET", "/backups"));
  ASSERT_EQ(list.at("data").at("backups").as_array().size(), 2u);
  const json::object& first = list.at("data").at("backups").at(0).as_object();
  EXPECT_EQ(first.at("slug"), "9f3c1a20");
  EXPECT_EQ(first.at("content").at("addons").as_array().size(), 3u);
  json::object info = envelope(request("GET", "/backups/b71e44d5/info"));
  EXPECT_EQ(info.at("data").at("type"), "partial");
  EXPECT_EQ(info.at("data").at("homeassistant"), nullptr);
  EXPECT_EQ(request("GET", "/backups/nope/info").status, 404);

  RestResponse bad = request("POST", "/backups/new/partial", R"({"folders":["etc"]})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(envelope(bad).at("message").as_string().find("data['folders']"), std::string::npos);

  json::object made = envelope(request("POST", "/backups/new/full", R"({"name":"n"})"));
  EXPECT_FALSE(made.at("data").at("slug").as_string().empty()) << "without background: the slug at once";
  EXPECT_EQ(envelope(request("DELETE", "/backups/9f3c1a20")).at("result"), "ok");
  EXPECT_EQ(envelope(request("GET", "/backups")).at("data").at("backups").as_array().size(), 2u);
}

TEST_F(SupervisorRoutes, BackgroundCallsAnswerAJobThatAdvancesWhenRead) {
  json::object started = envelope(request("POST", "/backups/new/partial", R"({"addons":["core_mosquitto"],
      "background":true})"));
  const std::string job = std::string(started.at("data").at("job_id").as_string());
  EXPECT_FALSE(started.at("data").as_object().contains("slug"));
  // Four reads take it through its stages (addon_repositories, addons,
  // finishing_file): the job's own progress stays 0 until done, as the
  // Supervisor's; the add-ons' work is the child job backup_store_addons.
  json::object half;
  for (int i = 0; i < 2; ++i) half = envelope(request("GET", "/jobs/" + job)).at("data").as_object();
  EXPECT_EQ(half.at("done"), false);
  EXPECT_EQ(half.at("progress").to_number<double>(), 0.0);
  EXPECT_EQ(half.at("stage"), "addons");
  const json::array& children = half.at("child_jobs").as_array();
  ASSERT_EQ(children.size(), 1u) << json::serialize(half);
  EXPECT_EQ(children.at(0).at("name"), "backup_store_addons");
  EXPECT_EQ(children.at(0).at("done"), false);
  EXPECT_EQ(children.at(0).at("child_jobs").at(0).at("name"), "backup_addon_save");
  EXPECT_EQ(children.at(0).at("child_jobs").at(0).at("reference"), "core_mosquitto");
  json::object done;
  for (int i = 0; i < 2; ++i) done = envelope(request("GET", "/jobs/" + job)).at("data").as_object();
  EXPECT_EQ(done.at("done"), true);
  EXPECT_EQ(done.at("progress").to_number<double>(), 100.0);
  EXPECT_EQ(done.at("stage"), "finishing_file");
  for (const auto& child : done.at("child_jobs").as_array()) EXPECT_EQ(child.at("done"), true);
  EXPECT_EQ(done.at("name"), "backup_manager_partial_backup");
  EXPECT_EQ(request("GET", "/jobs/nope").status, 404);

  json::object install = envelope(request("POST", "/store/addons/core_ssh/install", R"({"background":true})"));
  EXPECT_TRUE(install.at("data").as_object().contains("job_id"));
  EXPECT_EQ(addon("core_ssh").version, "9.19.0");
  RestResponse restore = request("POST", "/backups/b71e44d5/restore/partial", R"({"folders":["share"]})");
  EXPECT_EQ(restore.status, 200);
}

// Add-on install and update as the Supervisor runs them: stage null, progress
// the image pull's, the steps child jobs; /jobs/info lists the jobs newest first.
TEST_F(SupervisorRoutes, AddonJobsHaveTheSupervisorsChildJobs) {
  auto job_of = [&](const std::string& target, const std::string& body) {
    return std::string(envelope(request("POST", target, body)).at("data").at("job_id").as_string());
  };
  auto read = [&](const std::string& job) { return envelope(request("GET", "/jobs/" + job)).at("data").as_object(); };
  const std::string install = job_of("/store/addons/core_ssh/install", R"({"background":true})");
  json::object running = read(install);
  EXPECT_EQ(running.at("name"), "addon_manager_install");
  EXPECT_TRUE(running.at("stage").is_null());
  EXPECT_EQ(running.at("progress").to_number<double>(), 25.0);
  ASSERT_EQ(running.at("child_jobs").as_array().size(), 1u) << json::serialize(running);
  const json::object& child = running.at("child_jobs").at(0).as_object();
  EXPECT_EQ(child.at("name"), "addon_install");
  EXPECT_EQ(child.at("reference"), "core_ssh");
  EXPECT_EQ(child.at("done"), false);
  for (const char* key : {"uuid", "progress", "stage", "errors", "created", "child_jobs"})
    EXPECT_TRUE(child.contains(key)) << key;
  json::object done;
  for (int i = 0; i < 3; ++i) done = read(install);
  EXPECT_EQ(done.at("done"), true);
  EXPECT_EQ(done.at("child_jobs").at(0).at("done"), true);

  ASSERT_EQ(addon("core_mosquitto").state, "started");
  const std::string update = job_of("/store/addons/core_mosquitto/update", R"({"background":true})");
  json::object updating = read(update);
  EXPECT_TRUE(updating.at("stage").is_null());
  const json::array& steps = updating.at("child_jobs").as_array();
  ASSERT_EQ(steps.size(), 1u) << json::serialize(updating);
  EXPECT_EQ(steps.at(0).at("name"), "addon_update");
  EXPECT_EQ(steps.at(0).at("done"), false);
  EXPECT_TRUE(steps.at(0).at("child_jobs").as_array().empty()) << "stopped before the pull";
  for (int i = 0; i < 3; ++i) done = read(update);
  const json::array& around = done.at("child_jobs").at(0).at("child_jobs").as_array();
  ASSERT_EQ(around.size(), 2u) << json::serialize(done);
  EXPECT_EQ(around.at(0).at("name"), "addon_stop");
  EXPECT_EQ(around.at(1).at("name"), "addon_start");

  const json::object info = envelope(request("GET", "/jobs/info")).at("data").as_object();
  EXPECT_TRUE(info.at("ignore_conditions").is_array());
  const json::array& jobs = info.at("jobs").as_array();
  ASSERT_GE(jobs.size(), 2u);
  EXPECT_EQ(jobs.at(0).at("uuid"), update.c_str()) << "newest first";
  EXPECT_EQ(jobs.at(1).at("uuid"), install.c_str());
  EXPECT_EQ(jobs.at(1).at("child_jobs").at(0).at("name"), "addon_install");
}

// An update with backup=true (AddonManager.update): a partial backup of the
// add-on alone, named after its version before, listed in /backups and shown
// as the update's first child job with the backup's slug as reference; while
// another backup runs, the backup manager's group rejects it and the update
// ends with that BackupJobError, nothing updated and no backup made.
TEST_F(SupervisorRoutes, AnUpdateWithBackupMakesAPartialBackupFirst) {
  auto read = [&](const std::string& job) { return envelope(request("GET", "/jobs/" + job)).at("data").as_object(); };
  auto backups = [&] { return envelope(request("GET", "/backups")).at("data").at("backups").as_array(); };
  const std::size_t before = backups().size();
  const std::string running =
      std::string(envelope(request("POST", "/backups/new/partial", R"({"folders":["share"],"background":true})"))
                      .at("data")
                      .at("job_id")
                      .as_string());
  RestResponse refused = request("POST", "/store/addons/core_mosquitto/update", R"({"backup":true})");
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(envelope(refused).at("message"), "Another job is running for job group backup_manager");
  const std::string failed = std::string(
      envelope(request("POST", "/store/addons/core_mosquitto/update", R"({"backup":true,"background":true})"))
          .at("data")
          .at("job_id")
          .as_string());
  const json::object failure = read(failed);
  EXPECT_EQ(failure.at("done"), true);
  ASSERT_EQ(failure.at("errors").as_array().size(), 1u) << json::serialize(failure);
  EXPECT_EQ(failure.at("errors").at(0).at("type"), "BackupJobError");
  EXPECT_TRUE(failure.at("child_jobs").as_array().empty());
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.1");
  EXPECT_EQ(backups().size(), before + 1) << "only the running backup";

  for (int i = 0; i < 4; ++i) read(running);  // 25 % a read: done
  ASSERT_EQ(read(running).at("done"), true);
  const std::string update = std::string(
      envelope(request("POST", "/store/addons/core_mosquitto/update", R"({"backup":true,"background":true})"))
          .at("data")
          .at("job_id")
          .as_string());
  EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");
  const json::array listed = backups();
  ASSERT_EQ(listed.size(), before + 2);
  const json::object& made = listed.back().as_object();
  EXPECT_EQ(made.at("name"), "addon_core_mosquitto_6.5.1");
  EXPECT_EQ(made.at("type"), "partial");
  EXPECT_EQ(made.at("content").at("homeassistant"), false);
  EXPECT_EQ(made.at("content").at("addons"), json::array{"core_mosquitto"});
  EXPECT_TRUE(made.at("content").at("folders").as_array().empty());
  const json::object job = read(update);
  const json::array& steps = job.at("child_jobs").as_array();
  ASSERT_EQ(steps.size(), 2u) << json::serialize(job);
  EXPECT_EQ(steps.at(0).at("name"), "backup_manager_partial_backup");
  EXPECT_EQ(steps.at(0).at("reference"), made.at("slug"));
  EXPECT_EQ(steps.at(0).at("done"), true);
  EXPECT_EQ(steps.at(0).at("child_jobs").at(0).at("name"), "backup_store_addons");
  EXPECT_EQ(steps.at(0).at("child_jobs").at(0).at("child_jobs").at(0).at("reference"), "core_mosquitto");
  EXPECT_EQ(steps.at(1).at("name"), "addon_update");
  EXPECT_TRUE(job.at("errors").as_array().empty());
}

// A full backup and a full restore pass only their content's stages, in the
// BackupManager's order, each content stage's work a child job.
TEST_F(SupervisorRoutes, BackupsAndRestoresPassTheirContentsStages) {
  auto follow = [&](const std::string& target, const std::string& body, std::vector<std::string>& stages) {
    const std::string job(envelope(request("POST", target, body)).at("data").at("job_id").as_string());
    json::object j;
    for (int i = 0; i < 8 && !(j.contains("done") && j.at("done") == true); ++i) {
      j = envelope(request("GET", "/jobs/" + job)).at("data").as_object();
      stages.emplace_back(j.at("stage").as_string());
    }
    std::vector<std::string> names;
    for (const auto& c : j.at("child_jobs").as_array()) names.emplace_back(c.at("name").as_string());
    return names;
  };
  std::vector<std::string> stages;
  const auto made = follow("/backups/new/full", R"({"background":true})", stages);
  EXPECT_EQ(stages, (std::vector<std::string>{"home_assistant", "addons", "folders", "finishing_file"}));
  EXPECT_EQ(made,
            (std::vector<std::string>{"backup_store_homeassistant", "backup_store_addons", "backup_store_folders"}));
  stages.clear();
  const auto restored = follow("/backups/9f3c1a20/restore/full", "{}", stages);
  EXPECT_EQ(stages.back(), "await_home_assistant_restart");
  EXPECT_EQ(restored, (std::vector<std::string>{"backup_restore_folders", "backup_restore_homeassistant",
                                                "backup_remove_delta_addons", "backup_restore_addons"}));
}

// A backup that fails while it is written (the fault switch) does not stop the
// update (AddonManager.update ignores do_backup_partial's None): an add-on's
// archive failing leaves the backup without it, the errors on
// backup_addon_save and backup_store_addons; the backup file failing leaves
// no backup, the BackupError on backup_manager_partial_backup at finishing_file.
TEST_F(SupervisorRoutes, ABackupThatFailsBeingWrittenDoesNotStopTheUpdate) {
  auto backups = [&] { return envelope(request("GET", "/backups")).at("data").at("backups").as_array(); };
  auto update = [&] {
    addon("core_mosquitto").version = "6.5.1";
    const std::string job(
        envelope(request("POST", "/store/addons/core_mosquitto/update", R"({"backup":true,"background":true})"))
            .at("data")
            .at("job_id")
            .as_string());
    EXPECT_EQ(addon("core_mosquitto").version, "6.5.2");
    return envelope(request("GET", "/jobs/" + job)).at("data").as_object();
  };
  const std::size_t before = backups().size();
  core.store().home().supervisor->backup_fault = "addon_save";
  json::object job = update();
  EXPECT_TRUE(job.at("errors").as_array().empty());
  const json::object& backup = job.at("child_jobs").at(0).as_object();
  EXPECT_TRUE(backup.at("errors").as_array().empty()) << json::serialize(backup);
  const json::object& store = backup.at("child_jobs").at(0).as_object();
  EXPECT_EQ(store.at("errors").at(0).at("type"), "BackupRestoreUnknownError");
  const json::object& save = store.at("child_jobs").at(0).as_object();
  EXPECT_EQ(save.at("name"), "backup_addon_save");
  EXPECT_EQ(save.at("progress").to_number<double>(), 0.0);
  EXPECT_EQ(save.at("errors").at(0).at("error_key"), "backup_restore_unknown_error");
  ASSERT_EQ(backups().size(), before + 1);
  EXPECT_TRUE(backups().back().at("content").at("addons").as_array().empty()) << "kept without the add-on";

  core.store().home().supervisor->backup_fault = "file";
  job = update();
  const json::object& failed = job.at("child_jobs").at(0).as_object();
  EXPECT_EQ(failed.at("name"), "backup_manager_partial_backup");
  const std::string slug(failed.at("reference").as_string());
  EXPECT_EQ(failed.at("errors").at(0).at("type"), "BackupError");
  EXPECT_EQ(failed.at("errors").at(0).at("message").as_string(), "Backup " + slug + " error, see supervisor logs");
  EXPECT_EQ(failed.at("errors").at(0).at("stage"), "finishing_file");
  EXPECT_EQ(backups().size(), before + 1) << "the failed file is not listed";
  EXPECT_EQ(request("GET", "/backups/" + slug + "/info").status, 404);
  RestResponse at_once = request("POST", "/backups/new/full", "{}");
  EXPECT_EQ(at_once.status, 400);
  EXPECT_NE(envelope(at_once).at("message").as_string().find("An error occurred while making backup"),
            std::string::npos);
}

// Ingress as HA's frontend uses it: a session from the Supervisor (through HA's
// supervisor/api), validated, then HA's /api/hassio_ingress/<token>/<path>,
// which needs no token but the ingress_session cookie (401 without).
TEST_F(SupervisorRoutes, IngressSessionsAndTheIngressView) {
  json::object made = cmd({{"type", "supervisor/api"}, {"endpoint", "/ingress/session"}, {"method", "post"}});
  ASSERT_TRUE(made.at("success").as_bool()) << json::serialize(made);
  const std::string session(made.at("result").at("session").as_string());
  EXPECT_EQ(session.size(), 128u);
  json::object valid = cmd({{"type", "supervisor/api"},
                            {"endpoint", "/ingress/validate_session"},
                            {"method", "post"},
                            {"data", json::object{{"session", session}}}});
  EXPECT_TRUE(valid.at("success").as_bool()) << json::serialize(valid);
  json::object unknown = cmd({{"type", "supervisor/api"},
                              {"endpoint", "/ingress/validate_session"},
                              {"method", "post"},
                              {"data", json::object{{"session", "nope"}}}});
  EXPECT_EQ(code(unknown), "unknown_error");

  RestApi api(core, nullptr);
  RestRequest req;
  req.method = "GET";
  req.target = "/api/hassio_ingress/45df7312_zigbee2mqtt/api/info";
  EXPECT_EQ(api.handle(req).status, 401) << "no cookie";
  req.cookie = "ingress_session=wrong";
  EXPECT_EQ(api.handle(req).status, 401) << "an unknown session";
  req.cookie = "theme=dark; ingress_session=" + session;
  RestResponse info = api.handle(req);
  ASSERT_EQ(info.status, 200) << info.body;
  EXPECT_EQ(json::parse(info.body).at("name"), "Zigbee2MQTT");
  req.target = "/api/hassio_ingress/45df7312_zigbee2mqtt/";
  RestResponse page = api.handle(req);
  EXPECT_EQ(page.content_type, "text/html");
  req.target = "/api/hassio_ingress/core_configurator/";
  EXPECT_EQ(api.handle(req).status, 502) << "a stopped add-on";
  req.target = "/api/hassio_ingress/core_mosquitto/";
  EXPECT_EQ(api.handle(req).status, 503) << "no ingress";
}

TEST_F(SupervisorRoutes, NoSupervisorOnHaContainer) {
  core.store().home().supervisor.reset();
  EXPECT_EQ(request("GET", "/addons").status, 404);
  EXPECT_EQ(request("GET", "/api/hassio/supervisor/logs").status, 404);
  json::object r = cmd({{"type", "supervisor/api"}, {"endpoint", "/addons"}, {"method", "get"}});
  EXPECT_EQ(code(r), "unknown_command");
}

}  // namespace
}  // namespace hamcp::sim
