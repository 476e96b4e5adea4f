#include <gtest/gtest.h>

#include <atomic>
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

TEST(SideThread, NoTasks) {
  SideThread side;
  side.finish();
  EXPECT_THROW(side.add([] {}), std::logic_error);
}

}  // namespace
}  // namespace gpuprof::analysis
