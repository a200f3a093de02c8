// The everyday tools against the demo sim: calendar events in a range,
// recurring events created, edited for one occurrence and for this-and-future,
// deleted (preview, confirm); to-do items added, updated, moved, removed;
// camera snapshots as image content; every error names its field or cause.
#include <boost/beast/core/detail/base64.hpp>

#include "unit/tools/tools_fixture.hpp"

namespace hamcp::tools::testing {
namespace {

std::string str(const json::value& o, std::string_view key) { return std::string(o.at(key).as_string()); }

class EverydayToolsTest : public ToolsTest {
 protected:
  json::array events(const std::string& start, const std::string& end) {
    CallResult r = call("ha_config_get_calendar_events",
                        R"({"entity_id":"calendar.family","start":")" + start + R"(","end":")" + end + R"("})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.structured.contains("events") ? r.structured.at("events").as_array() : json::array{};
  }
  // "summary@start" of the events whose summary starts with `prefix` (the demo's own series are everywhere).
  std::vector<std::string> summaries(const json::array& list, const std::string& prefix = "") {
    std::vector<std::string> out;
    for (const auto& e : list)
      if (str(e, "summary").rfind(prefix, 0) == 0) out.push_back(str(e, "summary") + "@" + str(e, "start"));
    return out;
  }
  json::array items(const std::string& list) {
    CallResult r = call("ha_get_todo", R"({"entity_id":")" + list + R"("})");
    EXPECT_FALSE(r.is_error) << r.text;
    return r.structured.contains("items") ? r.structured.at("items").as_array() : json::array{};
  }
  std::string camera() {
    for (const auto& id : ha->snapshot()->states.entity_ids())
      if (id.rfind("camera.", 0) == 0) return id;
    return {};
  }
};

TEST_F(EverydayToolsTest, ListsCalendarsAndExpandsTheDemoSeriesInARange) {
  start();
  CallResult r = call("ha_config_get_calendar_events");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("calendar.family"), std::string::npos) << r.text;
  // 2026-01-05 is a Monday: bins Monday, swimming Tuesday and Thursday, rent monthly all day.
  auto got = summaries(events("2026-01-05T00:00:00+00:00", "2026-01-09T00:00:00+00:00"));
  std::vector<std::string> want = {"Bins out@2026-01-05T19:00:00+00:00", "Emma swimming@2026-01-06T16:00:00+00:00",
                                   "Emma swimming@2026-01-08T16:00:00+00:00"};
  EXPECT_EQ(got, want);
  got = summaries(events("2026-02-01", "2026-02-02"));
  EXPECT_EQ(got, std::vector<std::string>{"Pay rent@2026-02-01"});
}

TEST_F(EverydayToolsTest, RecurringEventIsEditedOnceThenFromAnOccurrenceOnAndDeleted) {
  start();
  CallResult r = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"Piano",
      "start":"2026-03-02T17:00:00+00:00","end":"2026-03-02T18:00:00+00:00","rrule":"FREQ=WEEKLY;COUNT=4"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "action"), "created");
  const std::string uid = str(r.structured.at("event"), "uid");
  EXPECT_FALSE(uid.empty());
  EXPECT_TRUE(r.structured.contains("edit_id"));
  EXPECT_EQ(summaries(events("2026-03-01", "2026-04-01"), "Piano").size(), 4u);

  // One occurrence moved to 18:00.
  r = call("ha_config_set_calendar_event", R"J({"entity_id":"calendar.family","uid":")J" + uid +
                                               R"J(","recurrence_id":"20260309T170000","summary":"Piano (late)",
      "start":"2026-03-09T18:00:00+00:00","end":"2026-03-09T19:00:00+00:00"})J");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "scope"), "occurrence");
  auto got = summaries(events("2026-03-02", "2026-03-31"), "Piano");
  std::vector<std::string> want = {"Piano@2026-03-02T17:00:00+00:00", "Piano (late)@2026-03-09T18:00:00+00:00",
                                   "Piano@2026-03-16T17:00:00+00:00", "Piano@2026-03-23T17:00:00+00:00"};
  EXPECT_EQ(got, want);

  // From the 16th on: a new summary.
  r = call("ha_config_set_calendar_event",
           R"({"entity_id":"calendar.family","uid":")" + uid +
               R"(","recurrence_id":"20260316T170000","recurrence_range":"THISANDFUTURE",
      "summary":"Piano lesson","start":"2026-03-16T17:00:00+00:00","end":"2026-03-16T18:00:00+00:00",
      "rrule":"FREQ=WEEKLY;COUNT=2"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "scope"), "this_and_following");
  got = summaries(events("2026-03-02", "2026-03-31"), "Piano");
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2], "Piano lesson@2026-03-16T17:00:00+00:00");
  EXPECT_EQ(got[3], "Piano lesson@2026-03-23T17:00:00+00:00");

  // Deleting the first occurrence: a preview first, nothing deleted.
  const std::string del = R"({"entity_id":"calendar.family","uid":")" + uid + R"(","recurrence_id":"20260302T170000")";
  r = call("ha_config_remove_calendar_event", del + "}");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("deleted").as_bool());
  EXPECT_EQ(summaries(events("2026-03-02", "2026-03-03"), "Piano").size(), 1u);
  r = call("ha_config_remove_calendar_event", del + R"(,"confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("deleted").as_bool());
  EXPECT_TRUE(r.structured.contains("edit_id"));
  EXPECT_TRUE(summaries(events("2026-03-02", "2026-03-03"), "Piano").empty());
  EXPECT_EQ(summaries(events("2026-03-03", "2026-03-31"), "Piano").size(), 3u);

  // The whole (first) series.
  r = call("ha_config_remove_calendar_event",
           R"({"entity_id":"calendar.family","uid":")" + uid + R"(","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  got = summaries(events("2026-03-02", "2026-03-31"), "Piano");
  EXPECT_EQ(got, (std::vector<std::string>{"Piano lesson@2026-03-16T17:00:00+00:00",
                                           "Piano lesson@2026-03-23T17:00:00+00:00"}));
}

TEST_F(EverydayToolsTest, AllDayEventAndCalendarErrorsNameTheirField) {
  start();
  CallResult r = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"Holiday",
      "start":"2026-05-01","end":"2026-05-04","description":"Beach"})");
  ASSERT_FALSE(r.is_error) << r.text;
  auto got = events("2026-05-02", "2026-05-03");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(str(got[0], "start"), "2026-05-01");
  EXPECT_EQ(str(got[0], "end"), "2026-05-04");
  EXPECT_EQ(str(got[0], "description"), "Beach");

  r = call("ha_config_set_calendar_event",
           R"({"entity_id":"calendar.family","summary":"x","start":"tomorrow","end":"2026-05-04"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "invalid_argument") << r.text;
  EXPECT_NE(r.text.find("start"), std::string::npos);
  r = call("ha_config_set_calendar_event",
           R"({"entity_id":"calendar.family","summary":"x","start":"2026-05-04","end":"2026-05-04T10:00:00"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("both be dates"), std::string::npos) << r.text;
  r = call("ha_config_set_calendar_event", R"({"entity_id":"calendar.family","summary":"x",
      "start":"2026-05-04","end":"2026-05-05","rrule":"FREQ=YEARLY"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "ha_refused") << r.text;
  EXPECT_NE(r.text.find("rrule"), std::string::npos) << r.text;
  r = call("ha_config_get_calendar_events", R"({"entity_id":"calendar.nope"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "entity_not_found") << r.text;
  r = call("ha_config_get_calendar_events", R"({"entity_id":"light.kitchen"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("calendar"), std::string::npos) << r.text;
  r = call("ha_config_remove_calendar_event", R"({"entity_id":"calendar.family","uid":"nope","confirm":true})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "ha_refused") << r.text;
  EXPECT_FALSE(r.error().at("written").as_bool());
}

TEST_F(EverydayToolsTest, TodoItemsAreAddedUpdatedMovedAndRemoved) {
  start();
  CallResult r = call("ha_get_todo");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("todo.shopping_list"), std::string::npos) << r.text;
  EXPECT_EQ(items("todo.shopping_list").size(), 3u);
  r = call("ha_get_todo", R"({"entity_id":"todo.shopping_list","status":"completed"})");
  ASSERT_EQ(r.structured.at("items").as_array().size(), 1u) << r.text;

  r = call("ha_set_todo_item", R"({"entity_id":"todo.chores","summary":"Oil the door","due_date":"2026-06-01",
      "description":"Squeaks"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured, "action"), "added");
  EXPECT_EQ(str(r.structured.at("item"), "due"), "2026-06-01");
  const std::string uid = str(r.structured.at("item"), "uid");

  r = call("ha_set_todo_item",
           R"({"entity_id":"todo.chores","item":"Oil the door","status":"completed","rename":"Oil the back door"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(r.structured.at("item"), "summary"), "Oil the back door");
  EXPECT_EQ(str(r.structured.at("item"), "status"), "completed");
  EXPECT_EQ(str(r.structured.at("item"), "uid"), uid);

  // Moved to the top of the list.
  r = call("ha_set_todo_item", R"({"entity_id":"todo.chores","item":")" + uid + R"(","previous_uid":""})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(str(items("todo.chores")[0], "uid"), uid);

  // The shopping list stores no due dates: HA's refusal, nothing written.
  r = call("ha_set_todo_item", R"({"entity_id":"todo.shopping_list","summary":"Tea","due_date":"2026-06-01"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("due_date"), std::string::npos) << r.text;
  EXPECT_EQ(items("todo.shopping_list").size(), 3u);

  r = call("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk"})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_FALSE(r.structured.at("removed").as_bool());
  EXPECT_EQ(items("todo.shopping_list").size(), 3u);
  r = call("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Milk","confirm":true})");
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_TRUE(r.structured.at("removed").as_bool());
  EXPECT_TRUE(r.structured.contains("edit_id"));
  EXPECT_EQ(items("todo.shopping_list").size(), 2u);

  r = call("ha_remove_todo_item", R"({"entity_id":"todo.shopping_list","item":"Caviar","confirm":true})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "item_not_found");
  EXPECT_NE(r.text.find("Bread"), std::string::npos) << "names the items there are: " << r.text;
  r = call("ha_set_todo_item", R"({"entity_id":"todo.shopping_list"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("summary"), std::string::npos) << r.text;
}

TEST_F(EverydayToolsTest, CameraSnapshotIsImageContentAndAnOffCameraIsAClearError) {
  start();
  const std::string cam = camera();
  ASSERT_FALSE(cam.empty());
  CallResult r = call("ha_get_camera_image", R"({"entity_id":")" + cam + R"(","width":320})");
  ASSERT_FALSE(r.is_error) << r.text;
  const json::array& content = r.result.at("content").as_array();
  ASSERT_EQ(content.size(), 2u);
  const json::object& image = content[1].as_object();
  EXPECT_EQ(str(image, "type"), "image");
  EXPECT_EQ(str(image, "mimeType"), "image/png");
  const std::string data = str(image, "data");
  std::string bytes(boost::beast::detail::base64::decoded_size(data.size()), '\0');
  bytes.resize(boost::beast::detail::base64::decode(bytes.data(), data.data(), data.size()).first);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_EQ(r.text.find(data), std::string::npos) << "no base64 in text";
  EXPECT_EQ(str(r.structured, "mime_type"), "image/png");

  // Off, the camera keeps its state (HA: "idle"); HA answers 503 for its image.
  r = call("ha_call_service", R"({"domain":"camera","service":"turn_off","entity_id":")" + cam + R"("})");
  ASSERT_FALSE(r.is_error) << r.text;
  r = call("ha_get_camera_image", R"({"entity_id":")" + cam + R"("})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "camera_off") << r.text;
  r = call("ha_get_camera_image", R"({"entity_id":"camera.nope"})");
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(str(r.error(), "code"), "entity_not_found") << r.text;
}

}  // namespace
}  // namespace hamcp::tools::testing
