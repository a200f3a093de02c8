// The edit journal: records survive a restart, list newest first with
// filters, diff, find the version a hash names, stay within their bounds,
// and files are private (0600 in 0700).
#include "home/edit_journal.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <fstream>

#include "home/config_json.hpp"

namespace hamcp::home {
namespace {

namespace fs = std::filesystem;

class EditJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("hamcp-journal-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  static EditRecord edit(std::string key, const char* before, const char* after, std::string action = "update") {
    EditRecord r;
    r.kind = "automation";
    r.key = std::move(key);
    r.entity_id = "automation.x";
    r.action = std::move(action);
    r.before = json::parse(before);
    r.after = json::parse(after);
    return r;
  }

  fs::path dir;
};

TEST_F(EditJournalTest, RecordsSurviveARestartWithIdsContinuing) {
  {
    EditJournal j({dir});
    EXPECT_EQ(j.record(edit("a", "null", R"({"alias":"one"})", "create")).id, "e00000001");
    auto r = j.record(edit("a", R"({"alias":"one"})", R"({"alias":"two"})"));
    EXPECT_EQ(r.id, "e00000002");
    EXPECT_FALSE(r.persist_error);
  }
  EditJournal j({dir});
  EXPECT_TRUE(j.load_warnings().empty());
  ASSERT_EQ(j.size(), 2u);
  auto got = j.get("e00000002");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->before.at("alias").as_string(), "one");
  EXPECT_EQ(got->after_hash, config_hash(json::parse(R"({"alias":"two"})")));
  EXPECT_TRUE(got->time > 0);
  EXPECT_EQ(j.record(edit("a", "{}", "{}")).id, "e00000003");
}

TEST_F(EditJournalTest, FilesArePrivate) {
  EditJournal j({dir});
  j.record(edit("a", "null", "{}"));
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat((dir / "e00000001.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(EditJournalTest, ListsNewestFirstFilteredWithoutBodies) {
  EditJournal j;
  j.record(edit("a", "null", "{}"));
  j.record(edit("b", "null", "{}"));
  j.record(edit("a", "{}", R"({"x":1})"));
  auto all = j.list();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, "e00000003");
  EXPECT_TRUE(all[0].before.is_null() && all[0].after.is_null());
  auto only_a = j.list("automation", "a", 1);
  ASSERT_EQ(only_a.size(), 1u);
  EXPECT_EQ(only_a[0].id, "e00000003");
  EXPECT_TRUE(j.list("script").empty());
}

TEST_F(EditJournalTest, DiffAndFindVersion) {
  EditJournal j;
  j.record(edit("a", R"({"alias":"one"})", R"({"alias":"two"})"));
  auto d = j.diff("e00000001");
  ASSERT_TRUE(d);
  ASSERT_EQ(d->size(), 1u);
  EXPECT_EQ((*d)[0].at("op").as_string(), "replace");
  EXPECT_FALSE(j.diff("e00000009"));
  EXPECT_FALSE(j.diff("nonsense"));
  auto v = j.find_version("automation", "a", config_hash(json::parse(R"({"alias":"one"})")));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->id, "e00000001");
  EXPECT_FALSE(j.find_version("automation", "b", v->before_hash));
}

TEST_F(EditJournalTest, BoundedByCountAndBytesOldestGoFirstAlsoOnDisk) {
  {
    EditJournal j({dir, 3});
    for (int i = 0; i < 5; ++i) j.record(edit("a", "{}", "{}"));
    EXPECT_EQ(j.size(), 3u);
    EXPECT_FALSE(j.get("e00000002"));
    EXPECT_TRUE(j.get("e00000003"));
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.path().extension() == ".json";
  EXPECT_EQ(files, 3u);

  EditJournal small({{}, 100, 2500});  // two ~1.1 KB records fit, three do not
  const std::string big = "{\"x\":\"" + std::string(900, 'y') + "\"}";
  for (int i = 0; i < 4; ++i) small.record(edit("a", "{}", big.c_str()));
  EXPECT_LE(small.bytes(), 2500u);
  EXPECT_EQ(small.size(), 2u);
}

TEST_F(EditJournalTest, ForeignFilesAreSkippedWithAWarning) {
  fs::create_directories(dir);
  std::ofstream(dir / "e00000007.json") << "not json";
  std::ofstream(dir / "notes.txt") << "ignored";
  EditJournal j({dir});
  EXPECT_EQ(j.size(), 0u);
  ASSERT_EQ(j.load_warnings().size(), 1u);
  EXPECT_EQ(j.record(edit("a", "null", "{}")).id, "e00000001");
}

TEST_F(EditJournalTest, UnwritableDirectoryKeepsTheRecordInMemoryAndSaysWhy) {
  fs::create_directories(dir);
  std::ofstream(dir / "blocker") << "a file where the directory should be";
  EditJournal j({dir / "blocker" / "journal"});
  auto r = j.record(edit("a", "null", "{}"));
  ASSERT_TRUE(r.persist_error);
  EXPECT_TRUE(j.get(r.id));
}

TEST_F(EditJournalTest, RemovedRecordsLeaveMemoryAndDisk) {
  {
    EditJournal j({dir});
    j.record(edit("a", "null", R"({"alias":"one"})", "create"));
    j.record(edit("b", "null", R"({"alias":"two"})", "create"));
    j.record(edit("c", "null", R"({"alias":"three"})", "create"));
    EXPECT_TRUE(j.remove("e00000002"));
    EXPECT_FALSE(j.remove("e00000002"));
    EXPECT_FALSE(fs::exists(dir / "e00000002.json"));
    EXPECT_TRUE(j.remove_older_than(0).empty()) << "nothing is older than the epoch";
    // Every record is older than a cut-off in the future: removed oldest first.
    const std::vector<std::string> gone = j.remove_older_than(4102444800.0);  // 2100-01-01
    EXPECT_EQ(gone, (std::vector<std::string>{"e00000001", "e00000003"}));
    EXPECT_EQ(j.size(), 0u);
    EXPECT_EQ(j.bytes(), 0u);
  }
  EditJournal j({dir});
  EXPECT_EQ(j.size(), 0u) << "the files went too";
}

}  // namespace
}  // namespace hamcp::home
