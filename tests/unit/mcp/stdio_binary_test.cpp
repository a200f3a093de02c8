// End-to-end over the real `hamcp` binary (built beside this test in the build
// directory): stdout carries only protocol lines, bad input does not stop it,
// EOF and SIGTERM end it cleanly.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace json = boost::json;

std::filesystem::path hamcp_binary() { return std::filesystem::read_symlink("/proc/self/exe").parent_path() / "hamcp"; }

struct Child {
  pid_t pid = -1;
  int in = -1;   // we write the child's stdin
  int out = -1;  // we read the child's stdout
  int err = -1;  // and its stderr (logs)
};

Child spawn_hamcp() {
  int in[2], out[2], err[2];
  if (::pipe(in) || ::pipe(out) || ::pipe(err)) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  std::string path = hamcp_binary().string();
  char* argv[] = {path.data(), nullptr};
  Child c;
  if (posix_spawn(&c.pid, path.c_str(), &actions, nullptr, argv, environ) != 0) c.pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  c.in = in[1];
  c.out = out[0];
  c.err = err[0];
  return c;
}

std::string read_all(int fd) {
  std::string all;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) all.append(buf, static_cast<std::size_t>(n));
  return all;
}

// Waits up to `budget` for the child; returns its exit status or -1 (then kills it).
int wait_exit(pid_t pid, std::chrono::milliseconds budget) {
  auto deadline = std::chrono::steady_clock::now() + budget;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::vector<json::object> parse_lines(const std::string& out) {
  std::vector<json::object> lines;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t nl = out.find('\n', start);
    EXPECT_NE(nl, std::string::npos);
    if (nl == std::string::npos) break;
    boost::system::error_code ec;
    json::value v = json::parse(std::string_view(out).substr(start, nl - start), ec);
    EXPECT_FALSE(ec) << "stdout line is not JSON: " << out.substr(start, nl - start);
    if (!ec) lines.push_back(v.as_object());
    start = nl + 1;
  }
  return lines;
}

constexpr const char* kInit =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
    "\n"
    R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
    "\n";

class HamcpBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(hamcp_binary()))
      GTEST_SKIP() << "hamcp binary not built next to the tests: " << hamcp_binary();
    ::signal(SIGPIPE, SIG_IGN);
  }
};

TEST_F(HamcpBinary, AnswersOverStdioAndExitsOnEof) {
  Child c = spawn_hamcp();
  ASSERT_GT(c.pid, 0);
  write_all(c.in, kInit);
  write_all(c.in, "{not json\n");
  write_all(c.in, R"({"jsonrpc":"2.0","id":2,"method":"ping"})"
                  "\n");
  ::close(c.in);
  std::string out = read_all(c.out);
  int code = wait_exit(c.pid, std::chrono::milliseconds(10000));
  std::string err = read_all(c.err);
  ::close(c.out);
  ::close(c.err);
  EXPECT_EQ(code, 0) << err;
  auto lines = parse_lines(out);
  ASSERT_EQ(lines.size(), 3u) << out;
  const auto& init = lines[0].at("result").as_object();
  EXPECT_EQ(init.at("protocolVersion").as_string(), "2025-06-18");
  EXPECT_EQ(init.at("serverInfo").as_object().at("name").as_string(), "hamcp");
  EXPECT_TRUE(init.contains("instructions"));
  EXPECT_EQ(lines[1].at("error").as_object().at("code").as_int64(), -32700);
  EXPECT_TRUE(lines[1].at("id").is_null());
  EXPECT_EQ(lines[2].at("id").as_int64(), 2);
}

TEST_F(HamcpBinary, ExitsCleanlyOnSigterm) {
  Child c = spawn_hamcp();
  ASSERT_GT(c.pid, 0);
  write_all(c.in, kInit);
  // Wait for the initialize answer so the server is surely up, then ask it to stop.
  std::string first;
  char ch;
  while (::read(c.out, &ch, 1) == 1 && ch != '\n') first += ch;
  EXPECT_NE(first.find("\"protocolVersion\""), std::string::npos) << first;
  ::kill(c.pid, SIGTERM);
  int code = wait_exit(c.pid, std::chrono::milliseconds(5000));
  EXPECT_EQ(code, 0);
  ::close(c.in);
  ::close(c.out);
  ::close(c.err);
}

}  // namespace
