// ha_manage_app's proxy through an add-on's ingress (HA's
// /api/hassio_ingress/<token>/<path> with the Supervisor's session cookie)
// against the demo sim: chosen by itself for an add-on with ingress and no
// mapped port, a kept session validated before reuse and renewed when the
// Supervisor forgot it, the session never shown, and clear refusals.
#include <set>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

class AddonIngressTest : public ToolsTest {
 protected:
  std::set<std::string> sessions() {
    std::lock_guard lock(sim->store().mutex());
    return sim->store().home().supervisor->ingress_sessions;
  }
  void forget_sessions() {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().supervisor->ingress_sessions.clear();
  }
  int requests_named(const std::string& what) {
    int n = 0;
    for (const auto& q : sim->core().received_requests()) n += q.what == what ? 1 : 0;
    return n;
  }
};

TEST_F(AddonIngressTest, AnAddonWithOnlyIngressIsReachedThroughIt) {
  start();
  sim->core().record_requests(true);
  CallResult r = call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("via"), "ingress");
  EXPECT_EQ(r.structured.at("status"), 200);
  EXPECT_EQ(r.structured.at("json").at("name"), "Zigbee2MQTT") << r.text;
  EXPECT_EQ(r.structured.at("json").at("ingress_path"), "/api/hassio_ingress/45df7312_zigbee2mqtt");
  const std::set<std::string> made = sessions();
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made.begin()->size(), 128u);
  EXPECT_EQ(r.text.find(*made.begin()), std::string::npos) << "the session cookie must never be shown";
  EXPECT_EQ(requests_named("supervisor/api POST /ingress/session"), 1);

  CallResult page = call("ha_manage_app", R"({"action":"proxy","slug":"45df7312_zigbee2mqtt","path":"/"})");
  ASSERT_FALSE(page.is_error) << page.text;
  EXPECT_NE(std::string(page.structured.at("body").as_string()).find("<h1>Zigbee2MQTT</h1>"), std::string::npos);
  EXPECT_EQ(requests_named("supervisor/api POST /ingress/validate_session"), 1) << "a kept session is validated";
  EXPECT_EQ(requests_named("supervisor/api POST /ingress/session"), 1) << "and reused";
}

TEST_F(AddonIngressTest, AForgottenSessionIsRenewed) {
  start();
  sim->core().record_requests(true);
  ASSERT_FALSE(call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info"})").is_error);
  const std::string first = *sessions().begin();
  forget_sessions();  // the Supervisor restarted (sessions live in its memory)
  CallResult r = call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured.at("status"), 200) << r.text;
  ASSERT_EQ(sessions().size(), 1u);
  EXPECT_NE(*sessions().begin(), first);
  EXPECT_EQ(requests_named("supervisor/api POST /ingress/session"), 2);
}

TEST_F(AddonIngressTest, PostsGoThroughAndRefusalsAreClear) {
  start();
  CallResult post = call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/permit_join",
      "method":"POST","body":{"value":true},"ingress":true})");
  ASSERT_FALSE(post.is_error) << post.text;
  EXPECT_EQ(post.structured.at("json").at("received").at("value"), true) << post.text;

  CallResult none = call("ha_manage_app", R"({"slug":"core_mosquitto","path":"/","ingress":true})");
  EXPECT_EQ(none.code(), "invalid_argument") << none.text;
  EXPECT_NE(none.text.find("ingress"), std::string::npos) << none.text;

  CallResult stopped = call("ha_manage_app", R"({"slug":"core_configurator","path":"/","ingress":true})");
  ASSERT_FALSE(stopped.is_error) << stopped.text;
  EXPECT_EQ(stopped.structured.at("status"), 502) << "a stopped add-on: HA's Bad Gateway, shown as it came";
}

TEST_F(AddonIngressTest, WithoutASupervisorTheAnswerSaysSo) {
  start();
  {
    std::lock_guard lock(sim->store().mutex());
    sim->store().home().supervisor.reset();
  }
  CallResult r = call("ha_manage_app", R"({"slug":"45df7312_zigbee2mqtt","path":"/api/info","ingress":true})");
  EXPECT_EQ(r.code(), "supervisor_unavailable") << r.text;
  EXPECT_NE(r.text.find("HA Container/Core"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
