#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gpuprof/rank/side_thread.hpp"

namespace gpuprof::analysis {
namespace {

TEST(SideThread, RunsEveryTaskOnceWhicheverThreadTakesIt) {
  std::vector<std::atomic<int>> runs(50);
  SideThread side;
  for (auto& count : runs) side.add([&count] { ++count; });
  side.finish();
  for (const auto& count : runs) EXPECT_EQ(count.load(), 1);
}

TEST(SideThread, FinishRunsOnTheCallerWhatTheSideThreadHasNotStarted) {
  std::promise<void> release;
  const auto held = release.get_future().share();
  std::atomic<bool> first_started{false};
  std::thread::id second_ran_on;
  SideThread side;
  side.add([&] {
    first_started = true;
    held.wait();  // keeps the side thread busy until the owner has taken the second task
  });
  while (!first_started) std::this_thread::yield();
  side.add([&] {
    second_ran_on = std::this_thread::get_id();
    release.set_value();
  });
  side.finish();
  EXPECT_EQ(second_ran_on, std::this_thread::get_id());
}

TEST(SideThread, RethrowsTheFirstFailedTaskInTheOrderAddedAfterRunningEveryTask) {
  std::atomic<int> ran{0};
  SideThread side;
  side.add([&] { ++ran; });
  side.add([&] {
    ++ran;
    throw std::runtime_error("second");
  });
  side.add([&] {
    ++ran;
    throw std::runtime_error("third");
  });
  side.add([&] { ++ran; });
  try {
    side.finish();
    FAIL() << "finish() did not rethrow";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "second");
  }
  EXPECT_EQ(ran.load(), 4);
}

// The owner waiting for one task's result: a task the side thread has not started runs on the owner, with the
// ones queued before it (tasks start in order); one the side thread runs is waited for; its error is rethrown.
TEST(SideThread, WaitForRunsOnTheOwnerWhatIsNotStartedAndWaitsForTheRest) {
  std::promise<void> release;
  const auto held = release.get_future().share();
  std::atomic<bool> first_started{false};
  std::thread::id second_ran_on, third_ran_on;
  SideThread side;
  const auto first = side.add([&] {
    first_started = true;
    held.wait();
  });
  while (!first_started) std::this_thread::yield();
  side.add([&] { second_ran_on = std::this_thread::get_id(); });
  const auto third = side.add([&] { third_ran_on = std::this_thread::get_id(); });
  const auto failing = side.add([] { throw std::runtime_error("fourth"); });
  side.add([] {});
  side.wait_for(third);
  EXPECT_EQ(second_ran_on, std::this_thread::get_id());
  EXPECT_EQ(third_ran_on, std::this_thread::get_id());
  std::thread release_later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release.set_value();
  });
  side.wait_for(first);  // running on the side thread: waited for until it is done
  release_later.join();
  EXPECT_THROW(side.wait_for(failing), std::runtime_error);
  EXPECT_THROW(side.wait_for(99), std::logic_error);
  EXPECT_THROW(side.finish(), std::runtime_error);  // every task ran; the first error in order is rethrown again
}

TEST(SideThread, NoTasks) {
  SideThread side;
  side.finish();
  EXPECT_THROW(side.add([] {}), std::logic_error);
}

}  // namespace
}  // namespace gpuprof::analysis
