// The panels' one worker helper (issue 41, item 4): the newest request wins, whatever the order in which
// workers end, and a drop (another trace opened) shows nothing of the work that was running.

#include <gtest/gtest.h>

#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

#include "gpuprof/gui/background_job.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kTimeoutMs = 60'000;  // a safety net for a hung worker, not a performance check

TEST(BackgroundJob, RequestsWhileBusyRunTheNewestOnlyAndShowOnlyItsResult) {
  BackgroundJob job;
  std::atomic<bool> release{false};
  std::vector<int> shown, ran;
  std::atomic<int> runs{0};
  const auto request = [&](int id, bool hold) {
    job.start([&, id, hold]() -> std::function<void()> {
      while (hold && !release.load()) std::this_thread::yield();
      ++runs;
      return [&, id] { shown.push_back(id); };
    });
  };
  request(1, true);  // runs, held
  ASSERT_TRUE(job.busy());
  request(2, false);  // waits, then is replaced
  request(3, false);
  release = true;
  ASSERT_TRUE(QTest::qWaitFor([&] { return !job.busy(); }, kTimeoutMs));
  EXPECT_EQ(runs.load(), 2);  // 1 (dropped when it ended) and 3; 2 never ran
  EXPECT_EQ(shown, std::vector<int>{3});
}

TEST(BackgroundJob, ADropShowsNothingOfTheRunningWorkAndTheJobGoesIdle) {
  BackgroundJob job;
  std::atomic<bool> release{false};
  bool shown = false, idle = false;
  QObject::connect(&job, &BackgroundJob::idle, [&] { idle = true; });
  job.start([&]() -> std::function<void()> {
    while (!release.load()) std::this_thread::yield();
    return [&] { shown = true; };
  });
  job.drop();
  release = true;
  ASSERT_TRUE(QTest::qWaitFor([&] { return idle; }, kTimeoutMs));
  EXPECT_FALSE(shown);
  EXPECT_FALSE(job.busy());
}


// A result whose code starts the next request (a chain): the job stays busy and says idle once, at the end.
TEST(BackgroundJob, AResultThatStartsMoreWorkSaysIdleOnlyAfterIt) {
  BackgroundJob job;
  int idles = 0;
  std::vector<int> shown;
  QObject::connect(&job, &BackgroundJob::idle, [&] { ++idles; });
  job.start([&]() -> std::function<void()> {
    return [&] {
      shown.push_back(1);
      job.start([&]() -> std::function<void()> { return [&] { shown.push_back(2); }; });
    };
  });
  ASSERT_TRUE(QTest::qWaitFor([&] { return idles > 0; }, kTimeoutMs));
  QTest::qWait(20);
  EXPECT_EQ(shown, (std::vector<int>{1, 2}));
  EXPECT_EQ(idles, 1);
}

}  // namespace
}  // namespace gpuprof::gui
