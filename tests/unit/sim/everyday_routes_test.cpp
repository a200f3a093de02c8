// The simulator's calendar, to-do and camera APIs in HA 2026.2's shapes:
// calendar/event/* results and errors, GET /api/calendars[/<id>], todo/item/*
// and the todo.* actions' refusals, /api/camera_proxy (image, off 503, 404).
#include <gtest/gtest.h>

#include "sim/rest/rest_api.hpp"
#include "unit/sim/ws_command_fixture.hpp"

namespace hamcp::sim {
namespace {

class EverydayRoutes : public testing::WsCommandTest {
 protected:
  RestResponse get(const std::string& target) {
    RestApi api(core, nullptr);
    RestRequest req;
    req.method = "GET";
    req.target = target;
    req.authorization = "Bearer tok";
    return api.handle(req);
  }
};

TEST_F(EverydayRoutes, CalendarEventsAreCreatedListedAndRefusedInHaShapes) {
  auto r = cmd({{"type", "calendar/event/create"},
                {"entity_id", "calendar.family"},
                {"event",
                 {{"summary", "Dentist"},
                  {"dtstart", "2026-04-03T09:00:00+00:00"},
                  {"dtend", "2026-04-03T10:00:00+00:00"},
                  {"location", "Town"}}}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_TRUE(r.at("result").is_null());
  RestResponse listed = get("/api/calendars/calendar.family?start=2026-04-03T00:00:00%2B00:00&end=2026-04-04");
  ASSERT_EQ(listed.status, 200) << listed.body;
  json::array events = json::parse(listed.body).as_array();
  ASSERT_EQ(events.size(), 1u) << listed.body;
  EXPECT_EQ(events[0].at("start").at("dateTime"), "2026-04-03T09:00:00+00:00");
  EXPECT_EQ(events[0].at("location"), "Town");
  EXPECT_TRUE(events[0].at("rrule").is_null());
  EXPECT_TRUE(events[0].at("recurrence_id").is_null());

  EXPECT_EQ(get("/api/calendars/calendar.family?start=2026-04-01").status, 400);
  EXPECT_EQ(get("/api/calendars/calendar.nope?start=2026-04-01&end=2026-04-02").status, 400);
  EXPECT_NE(get("/api/calendars").body.find("calendar.family"), std::string::npos);
  r = cmd({{"type", "calendar/event/delete"}, {"entity_id", "calendar.family"}, {"uid", "nope"}});
  EXPECT_EQ(code(r), "failed");
  r = cmd({{"type", "calendar/event/delete"}, {"entity_id", "calendar.nope"}, {"uid", "x"}});
  EXPECT_EQ(code(r), "not_found");
  r = cmd({{"type", "calendar/event/create"},
           {"entity_id", "calendar.family"},
           {"event", {{"summary", "x"}, {"dtstart", "2026-04-02"}, {"dtend", "2026-04-01"}}}});
  EXPECT_EQ(code(r), "invalid_format");
}

TEST_F(EverydayRoutes, TodoItemsListMoveAndRefusals) {
  auto r = cmd({{"type", "todo/item/list"}, {"entity_id", "todo.shopping_list"}});
  ASSERT_TRUE(r.at("success").as_bool());
  const json::array& items = r.at("result").at("items").as_array();
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].at("summary"), "Milk");
  EXPECT_FALSE(items[0].as_object().contains("due")) << "unset members are left out";
  r = cmd({{"type", "todo/item/move"}, {"entity_id", "todo.shopping_list"}, {"uid", "demo-coffee"}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  r = cmd({{"type", "todo/item/list"}, {"entity_id", "todo.shopping_list"}});
  EXPECT_EQ(r.at("result").at("items").at(0).at("uid"), "demo-coffee");
  r = cmd({{"type", "todo/item/move"}, {"entity_id", "todo.shopping_list"}, {"uid", "nope"}});
  EXPECT_EQ(code(r), "failed");
  r = cmd({{"type", "call_service"},
           {"domain", "todo"},
           {"service", "update_item"},
           {"service_data", {{"item", "Caviar"}, {"status", "completed"}}},
           {"target", {{"entity_id", "todo.shopping_list"}}}});
  EXPECT_EQ(code(r), "service_validation_error");
  EXPECT_NE(json::serialize(r).find("Unable to find To-do item: Caviar"), std::string::npos);
  r = cmd({{"type", "call_service"},
           {"domain", "todo"},
           {"service", "remove_item"},
           {"service_data", {{"item", json::array{"Milk", "Bread"}}}},
           {"target", {{"entity_id", "todo.shopping_list"}}}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(core.store().get("todo.shopping_list")->state, "0");
}

TEST_F(EverydayRoutes, CameraImageOffAndUnknown) {
  std::string cam;
  for (const auto& s : core.store().home().entities)
    if (s.entity_id.rfind("camera.", 0) == 0) cam = s.entity_id;
  ASSERT_FALSE(cam.empty());
  RestResponse img = get("/api/camera_proxy/" + cam + "?width=10");
  EXPECT_EQ(img.status, 200);
  EXPECT_EQ(img.content_type, "image/png");
  EXPECT_EQ(img.body.substr(1, 3), "PNG");
  auto r = cmd({{"type", "call_service"},
                {"domain", "camera"},
                {"service", "turn_off"},
                {"service_data", json::object{}},
                {"target", {{"entity_id", cam}}}});
  ASSERT_TRUE(r.at("success").as_bool()) << json::serialize(r);
  EXPECT_EQ(core.store().get(cam)->state, "idle") << "HA keeps an off camera's state";
  EXPECT_EQ(get("/api/camera_proxy/" + cam).status, 503);
  EXPECT_EQ(get("/api/camera_proxy/camera.nope").status, 404);
}

}  // namespace
}  // namespace hamcp::sim
