#include "gpuprof/progress/stage_counter.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace gpuprof::progress {
namespace {

TEST(StageCounter, SumsWhatEveryThreadAddsAndReportsInOrder) {
  std::mutex mutex;
  std::int64_t largest = 0, calls = 0;
  StageCounter counter([&](const ProgressUpdate& update) {
    const std::lock_guard lock(mutex);
    EXPECT_GE(update.done, largest) << "never backwards";
    EXPECT_EQ(update.stage, "load");
    EXPECT_EQ(update.total, 40000);
    EXPECT_EQ(update.unit, "rows");
    largest = std::max(largest, update.done);
    ++calls;
  }, "load", 40000, "rows");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) counter.add(10);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counter.done(), 40000);
  EXPECT_LE(largest, 40000);
  EXPECT_GT(calls, 0);
}

TEST(StageCounter, WithoutACallbackItOnlyCounts) {
  StageCounter counter({}, "load", 10, "rows");
  EXPECT_FALSE(counter.active());
  counter.add(3);
  EXPECT_EQ(counter.done(), 3);
}

TEST(StageCounter, ReportsItsItem) {
  std::string item;
  StageCounter counter([&](const ProgressUpdate& update) { item = update.item; }, "write", 5, "events");
  counter.set_item("rank 3, 4 of 8");
  counter.add(1);
  EXPECT_EQ(item, "rank 3, 4 of 8");
}

}  // namespace
}  // namespace gpuprof::progress
