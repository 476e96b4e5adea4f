// Which batch gap belongs to which step (gpuprof/rank/step_gaps.hpp): the one rule behind the app's step table
// and the job's windows.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/rank/step_gaps.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

// Steps on `devices` devices, `per_device` each, windows tiling each device's timeline; a step whose
// number is a multiple of `gapless_every` ends with its own work (no gap), as does each device's last step.
struct Rank {
  std::vector<StepBreakdown> steps;
  std::vector<BatchGap> gaps;
};

Rank synthetic_rank(std::int32_t devices, std::int64_t per_device, std::int64_t gapless_every) {
  Rank rank;
  for (std::int32_t device = 0; device < devices; ++device) {
    for (std::int64_t step = 0; step < per_device; ++step) {
      const std::int64_t start = step * 1000;
      const bool gap = step + 1 < per_device && step % gapless_every != 0;
      const std::int64_t last_work = gap ? start + 700 : start + 1000;
      StepBreakdown entry;
      entry.step = {device, step, start, start + 1000, last_work, step == 0};
      rank.steps.push_back(entry);
      if (!gap) continue;
      rank.gaps.push_back({device, step, last_work, start + 1000, IdleCause::data_loading, step == 0, 300, {}});
    }
  }
  return rank;
}

// The rule as the app's step table spelled it before: every gap on the step's device that carries its number.
std::vector<std::optional<std::size_t>> by_scanning(const Rank& rank) {
  std::vector<std::optional<std::size_t>> found(rank.steps.size());
  for (std::size_t step = 0; step < rank.steps.size(); ++step) {
    for (std::size_t gap = 0; gap < rank.gaps.size(); ++gap) {
      const auto& entry = rank.steps[step].step;
      if (rank.gaps[gap].device == entry.device && rank.gaps[gap].after_step == entry.step) found[step] = gap;
    }
  }
  return found;
}

TEST(StepGaps, EveryGapOfARealAnalysisBelongsToTheStepItCloses) {
  testing::ModelBuilder builder;
  for (int step = 0; step < 6; ++step) {
    builder.range(1000, step * 1000, step * 1000 + 900, "step " + std::to_string(step));
    builder.api_call(1000, step * 1000 + 10, step * 1000 + 15, step + 1);
    builder.kernel(0, 7, step * 1000 + 100, step * 1000 + 600, "gemm", step + 1);
  }
  const auto analysis = analyze_rank(builder.build(), AnalysisOptions{});
  ASSERT_EQ(analysis.steps.size(), 6U);
  ASSERT_EQ(analysis.gaps.size(), 5U);
  const auto found = gap_of_each_step(analysis.steps, analysis.gaps);
  ASSERT_EQ(found.size(), analysis.steps.size());
  for (std::size_t step = 0; step < 5; ++step) {
    ASSERT_TRUE(found[step].has_value()) << step;
    EXPECT_EQ(analysis.gaps[*found[step]].after_step, analysis.steps[step].step.step);
    EXPECT_EQ(analysis.gaps[*found[step]].end_ns, analysis.steps[step].step.end_ns);
  }
  EXPECT_FALSE(found[5].has_value()) << "the last step has no next step, so no gap";
}

TEST(StepGaps, ManyStepsWithAndWithoutGapsMatchTheScan) {
  const auto rank = synthetic_rank(3, 1500, 7);
  ASSERT_GT(rank.gaps.size(), 3500U);
  const auto found = gap_of_each_step(rank.steps, rank.gaps);
  EXPECT_EQ(found, by_scanning(rank));
  const auto without = std::count(found.begin(), found.end(), std::nullopt);
  EXPECT_EQ(static_cast<std::size_t>(without), rank.steps.size() - rank.gaps.size());
}

TEST(StepGaps, ListsInAnyOrderGiveTheSameSteps) {
  auto rank = synthetic_rank(2, 300, 5);
  const auto expected = gap_of_each_step(rank.steps, rank.gaps);
  std::mt19937 random(7);
  auto shuffled = rank;
  std::vector<std::size_t> to_original(rank.gaps.size());
  for (std::size_t index = 0; index < to_original.size(); ++index) to_original[index] = index;
  std::shuffle(to_original.begin(), to_original.end(), random);
  for (std::size_t index = 0; index < to_original.size(); ++index) shuffled.gaps[index] = rank.gaps[to_original[index]];
  std::reverse(shuffled.steps.begin(), shuffled.steps.end());
  const auto found = gap_of_each_step(shuffled.steps, shuffled.gaps);
  ASSERT_EQ(found.size(), expected.size());
  for (std::size_t step = 0; step < found.size(); ++step) {
    const auto original_step = found.size() - 1 - step;
    ASSERT_EQ(found[step].has_value(), expected[original_step].has_value()) << step;
    if (found[step]) EXPECT_EQ(to_original[*found[step]], *expected[original_step]) << step;
  }
}

// Step numbers come from range names: two steps named alike on one device each keep their own gap, where
// matching by number alone gave both the later one.
TEST(StepGaps, StepsNumberedAlikeKeepTheirOwnGap) {
  auto rank = synthetic_rank(1, 4, 100);  // steps 1..2 have gaps; step 0 and 3 none
  rank.steps[2].step.step = 1;
  rank.gaps[1].after_step = 1;
  rank.gaps[1].cause = IdleCause::sync_wait;
  const auto found = gap_of_each_step(rank.steps, rank.gaps);
  ASSERT_EQ(found.size(), 4U);
  EXPECT_FALSE(found[0].has_value());
  EXPECT_EQ(found[1], std::optional<std::size_t>{0});
  EXPECT_EQ(found[2], std::optional<std::size_t>{1});
  EXPECT_FALSE(found[3].has_value());
}

TEST(StepGaps, AGapOfNoListedStepIsNobodys) {
  auto rank = synthetic_rank(1, 3, 100);  // step 1 has the only gap
  rank.gaps.push_back({5, 0, 10, 20, IdleCause::sync_wait, false, 10, {}});  // a device without steps
  rank.gaps.push_back({0, 1, 1700, 1999, IdleCause::sync_wait, false, 299, {}});  // no window ends there
  const auto found = gap_of_each_step(rank.steps, rank.gaps);
  EXPECT_EQ(found, (std::vector<std::optional<std::size_t>>{std::nullopt, 0, std::nullopt}));
  EXPECT_TRUE(gap_of_each_step({}, rank.gaps).empty());
  EXPECT_EQ(gap_of_each_step(rank.steps, {}), (std::vector<std::optional<std::size_t>>(3)));
}

}  // namespace
}  // namespace gpuprof::analysis
