// Fair turns for tool work (call_scheduler.hpp): a turn is a slice of the
// thread's time. Calls run at once while the open slice is young; a call that
// comes later waits for the slice to end, and waiting calls are granted one per
// slice, round-robin across sessions. Everything runs on one io_context thread
// (Session's rule), so each test drives the scheduler from handlers.
#include "mcp/call_scheduler.hpp"

#include <gtest/gtest.h>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/system_error.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace hamcp::mcp {
namespace {

using namespace std::chrono_literals;

struct Fixture {
  explicit Fixture(std::chrono::microseconds budget)
      : scheduler(std::make_shared<CallScheduler>(io.get_executor(), budget)) {}

  // A call of `owner` named `name`: takes its turn, then records that it ran.
  void spawn(const void* owner, std::string name) { asio::co_spawn(io, run(owner, std::move(name)), asio::detached); }
  void spawn_cancellable(const void* owner, std::string name, asio::cancellation_signal& signal) {
    asio::co_spawn(io, run(owner, std::move(name)), asio::bind_cancellation_slot(signal.slot(), asio::detached));
  }

  asio::io_context io;
  std::shared_ptr<CallScheduler> scheduler;
  std::vector<std::string> ran;
  std::vector<std::string> aborted;

 private:
  asio::awaitable<void> run(const void* owner, std::string name) {
    try {
      auto turn = scheduler->wait_turn(owner);
      co_await std::move(turn);
      ran.push_back(name);
    } catch (const boost::system::system_error& e) {
      if (e.code() == asio::error::operation_aborted) aborted.push_back(name);
    }
  }
};

int session_a = 1;  // owners: only their addresses matter
int session_b = 2;

std::string call_name(char session, int i) {  // (no "a" + to_string: GCC 12 -Wrestrict)
  std::string name(1, session);
  name += std::to_string(i);
  return name;
}

void busy_for(std::chrono::milliseconds ms) {
  const auto until = std::chrono::steady_clock::now() + ms;
  while (std::chrono::steady_clock::now() < until) {
  }
}

TEST(CallScheduler, CallsInAYoungSliceRunAtOnceWithoutWaiting) {
  Fixture f(std::chrono::hours(1));
  std::size_t ran_on_return = 0;
  asio::post(f.io, [&] {
    for (int i = 0; i < 3; ++i) f.spawn(&session_a, call_name('a', i));
    ran_on_return = f.ran.size();  // before any other handler
  });
  f.io.run();
  EXPECT_EQ(ran_on_return, 3u);
  EXPECT_EQ(f.ran, (std::vector<std::string>{"a0", "a1", "a2"}));
  EXPECT_EQ(f.scheduler->waiting(), 0u);
}

TEST(CallScheduler, ACallAfterTheBudgetWaitsForTheSliceToEnd) {
  Fixture f(0us);  // every slice is over as soon as it opens
  std::size_t ran_on_return = 0, waiting_on_return = 0;
  asio::post(f.io, [&] {
    f.spawn(&session_a, "first");  // no slice open: runs now and opens one
    f.spawn(&session_a, "second");
    ran_on_return = f.ran.size();
    waiting_on_return = f.scheduler->waiting();
  });
  f.io.run();
  EXPECT_EQ(ran_on_return, 1u);
  EXPECT_EQ(waiting_on_return, 1u);
  EXPECT_EQ(f.ran, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(f.scheduler->waiting(), 0u);
}

TEST(CallScheduler, WaitingCallsAreGrantedOnePerSliceRoundRobinAcrossSessions) {
  Fixture f(0us);
  asio::post(f.io, [&] {
    for (int i = 0; i < 3; ++i) f.spawn(&session_a, call_name('a', i));
    for (int i = 0; i < 2; ++i) f.spawn(&session_b, call_name('b', i));
  });
  f.io.run();
  // a0 opened the first slice; then the sessions alternate although A queued first.
  EXPECT_EQ(f.ran, (std::vector<std::string>{"a0", "a1", "b0", "a2", "b1"}));
}

TEST(CallScheduler, AYoungSliceAdmitsANewCallAheadOfTheWaitingOnesWhichRunWithinIt) {
  // Were waiting calls strictly first, a steady load would keep every call
  // waiting once one had to; instead the waiting call is granted at the end of
  // the slice it waited behind and runs within the next one.
  Fixture f(std::chrono::milliseconds(300));
  asio::post(f.io, [&] {
    f.spawn(&session_a, "opens");
    busy_for(std::chrono::milliseconds(350));  // the slice is out of room
    f.spawn(&session_b, "waits");
    // Queued behind the slice's end, which grants "waits" a new slice.
    asio::post(f.io, [&] { f.spawn(&session_a, "new"); });
  });
  f.io.run();
  EXPECT_EQ(f.ran, (std::vector<std::string>{"opens", "new", "waits"}));
}

TEST(CallScheduler, ACancelledWaitingCallThrowsAndIsSkipped) {
  Fixture f(0us);
  asio::cancellation_signal signal;
  asio::post(f.io, [&] {
    f.spawn(&session_a, "first");
    f.spawn_cancellable(&session_a, "cancelled", signal);
    f.spawn(&session_a, "third");
    signal.emit(asio::cancellation_type::terminal);
  });
  f.io.run();
  EXPECT_EQ(f.ran, (std::vector<std::string>{"first", "third"}));
  EXPECT_EQ(f.aborted, (std::vector<std::string>{"cancelled"}));
  EXPECT_EQ(f.scheduler->waiting(), 0u);
}

}  // namespace
}  // namespace hamcp::mcp
