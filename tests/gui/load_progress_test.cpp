// The app's loading bar moves with the rows the loader reads, as the command
// line's progress line does: the same loader reports both.

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

TEST(LoadProgress, MovesWithinTheLoadingStageAndOnlyForward) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("big.sqlite");
  synthetic::SynthOptions options;
  options.devices = 2;
  options.events = 200'000;
  synthetic::write_synthetic_trace(path, options);
  std::mutex mutex;
  std::vector<LoadProgress> steps;
  const std::atomic<bool> cancel{false};
  load_session({path}, {}, cancel, [&](const LoadProgress& step) {
    const std::lock_guard lock(mutex);
    steps.push_back(step);
  });
  ASSERT_FALSE(steps.empty());
  bool within_loading = false;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].total, steps.front().total);
    if (i > 0) {
      EXPECT_GE(steps[i].done, steps[i - 1].done) << steps[i].stage;
    }
    // A stage's own reports fall between its start and the next stage's.
    if (steps[i].stage == "Loading big.sqlite" && steps[i].done % 1000 != 0) within_loading = true;
  }
  EXPECT_TRUE(within_loading) << "the bar moves while rows are read";
  EXPECT_EQ(steps.back().done, steps.back().total);
  EXPECT_EQ(steps.back().stage, "Done");
}

}  // namespace
}  // namespace gpuprof::gui
