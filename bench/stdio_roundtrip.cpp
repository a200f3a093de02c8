// bench_stdio_roundtrip: how fast an MCP stdio server answers, measured from the client's side.
//
//   bench_stdio_roundtrip --runs 20 -- /path/to/hamcp --demo
//
// For each run: spawn the server, send initialize, notifications/initialized and tools/list,
// and time (a) spawn -> initialize result ("cold start") and (b) initialize -> tools/list
// result; then close stdin and wait for the exit. Also times --warm tools/list round trips on one
// process. Prints one JSON line with medians (and min/max) in milliseconds.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;
using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = -1;
  int in = -1, out = -1;
  std::string buffer;

  explicit Child(const std::vector<std::string>& argv) {
    int to_child[2], from_child[2];
    if (pipe(to_child) || pipe(from_child)) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, to_child[1]);
    posix_spawn_file_actions_addclose(&fa, from_child[0]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ) != 0)
      throw std::runtime_error("spawn failed: " + argv[0]);
    posix_spawn_file_actions_destroy(&fa);
    close(to_child[0]);
    close(from_child[1]);
    in = to_child[1];
    out = from_child[0];
  }
  ~Child() {
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
  void send(const std::string& line) {
    std::string l = line + "\n";
    if (write(in, l.data(), l.size()) != static_cast<ssize_t>(l.size())) throw std::runtime_error("write failed");
  }
  // Reads lines until one contains `"id":<id>` (a response); 30 s bound.
  std::string wait_for_id(int id) {
    const std::string key = "\"id\":" + std::to_string(id) + ",";
    const std::string key_end = "\"id\":" + std::to_string(id) + "}";
    auto deadline = Clock::now() + std::chrono::seconds(30);
    for (;;) {
      std::size_t nl;
      while ((nl = buffer.find('\n')) != std::string::npos) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        if (line.find(key) != std::string::npos || line.find(key_end) != std::string::npos) return line;
      }
      if (Clock::now() > deadline) throw std::runtime_error("no response for id " + std::to_string(id));
      pollfd p{out, POLLIN, 0};
      poll(&p, 1, 1000);
      char buf[65536];
      ssize_t n = read(out, buf, sizeof buf);
      if (n <= 0) throw std::runtime_error("server closed stdout");
      buffer.append(buf, static_cast<std::size_t>(n));
    }
  }
  int finish() {
    close(in);
    in = -1;
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return status;
  }
};

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Stats {
  std::vector<double> v;
  double median() {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  }
  double min() { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
  double max() { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
};

static int run_main(int argc, char** argv) {
  CLI::App app{"Times an MCP stdio server: cold start, initialize -> tools/list, warm tools/list"};
  int runs = 10, warm = 200;
  std::vector<std::string> command;
  app.add_option("--runs", runs, "Cold runs (process spawns)")->check(CLI::Range(1, 1000));
  app.add_option("--warm", warm, "tools/list round trips on one warm process")->check(CLI::Range(0, 100000));
  app.add_option("command", command, "Server command line (after --)")->required();
  CLI11_PARSE(app, argc, argv);

  const std::string init =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})";
  const std::string initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
  Stats cold, list, warm_list;
  std::size_t list_bytes = 0;
  try {
    for (int r = 0; r < runs; ++r) {
      auto t0 = Clock::now();
      Child c(command);
      c.send(init);
      c.wait_for_id(1);
      cold.v.push_back(ms_since(t0));
      auto t1 = Clock::now();
      c.send(initialized);
      c.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}})");
      list_bytes = c.wait_for_id(2).size();
      list.v.push_back(ms_since(t1));
      if (r == 0) {
        for (int w = 0; w < warm; ++w) {
          auto t2 = Clock::now();
          c.send(R"({"jsonrpc":"2.0","id":)" + std::to_string(1000 + w) + R"(,"method":"tools/list","params":{}})");
          c.wait_for_id(1000 + w);
          warm_list.v.push_back(ms_since(t2));
        }
      }
      c.finish();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_stdio_roundtrip: %s\n", e.what());
    return 1;
  }
  std::printf(
      "{\"runs\":%d,\"cold_start_to_initialize_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},"
      "\"initialize_to_tools_list_ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
      "\"warm_tools_list_ms\":{\"n\":%zu,\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},\"tools_list_bytes\":%zu}\n",
      runs, cold.median(), cold.min(), cold.max(), list.median(), list.min(), list.max(), warm_list.v.size(),
      warm_list.median(), warm_list.min(), warm_list.max(), list_bytes);
  return 0;
}

// Every failure is reported, never escapes main (clang-tidy bugprone-exception-escape).
int main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: unknown error\n", argv[0]);
  }
  return 1;
}
