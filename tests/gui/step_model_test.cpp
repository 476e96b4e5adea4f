// The app's step table shows each step's batch gap by the analyzer's rule (analysis::gap_of_each_step, one
// merge walk) instead of scanning every gap of the rank for each step: the same rows as that scan on a sample
// and on a rank with thousands of steps, and each step its own gap where names number two steps alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kStepColumn = 2;
constexpr int kGapCauseColumn = 8;

std::string cause_text(analysis::IdleCause cause) { return std::string(analysis::to_string(cause)); }

// Step and gap cause of each row, as the table spelled them before: the cause of the last gap on the step's
// device that carries the step's number, else "-".
std::vector<std::pair<std::string, std::string>> rows_by_scanning(const Session& session) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& rank : session.ranks) {
    for (const auto& entry : rank->analysis.steps) {
      std::string cause = "-";
      for (const auto& gap : rank->analysis.gaps) {
        if (gap.device == entry.step.device && gap.after_step == entry.step.step) cause = cause_text(gap.cause);
      }
      rows.emplace_back(std::to_string(entry.step.step) + (entry.step.warmup ? " (warm-up)" : ""), cause);
    }
  }
  return rows;
}

std::vector<std::pair<std::string, std::string>> rows_shown(const Session& session) {
  std::unique_ptr<TableModel> model(make_step_model(session, nullptr));
  std::vector<std::pair<std::string, std::string>> rows;
  for (int row = 0; row < model->rowCount(); ++row) {
    rows.emplace_back(model->index(row, kStepColumn).data().toString().toStdString(),
                      model->index(row, kGapCauseColumn).data().toString().toStdString());
  }
  return rows;
}

std::size_t with_gap(const std::vector<std::pair<std::string, std::string>>& rows) {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const auto& row) { return row.second != "-"; }));
}

TEST(StepModel, ASampleShowsTheGapsTheScanShowed) {
  const auto session = testing::load(std::string(GPUPROF_SOURCE_DIR) + "/samples/resnet.sqlite");
  ASSERT_FALSE(session->ranks.empty());
  ASSERT_FALSE(session->ranks[0]->analysis.gaps.empty()) << "a sample with batch gaps";
  const auto rows = rows_shown(*session);
  EXPECT_EQ(rows, rows_by_scanning(*session));
  EXPECT_EQ(with_gap(rows), session->ranks[0]->analysis.gaps.size());
}

TEST(StepModel, ADataParallelTraceShowsTheGapsTheScanShowed) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("dp.sqlite");
  testing::write_trace(path, 2, 12);
  const auto session = testing::load(path);
  EXPECT_EQ(rows_shown(*session), rows_by_scanning(*session));
}

// `devices` devices with `per_device` steps each, windows tiling each device's time; every seventh step and
// each device's last have no gap, the others one whose cause cycles through the causes.
std::shared_ptr<Session> rank_with_steps(std::int32_t devices, std::int64_t per_device) {
  auto session = std::make_shared<Session>();
  auto rank = std::make_unique<LoadedRank>();
  for (std::int32_t device = 0; device < devices; ++device) {
    for (std::int64_t step = 0; step < per_device; ++step) {
      const std::int64_t start = 1000 * step;
      const bool gap = step + 1 < per_device && step % 7 != 3;
      const std::int64_t last_work = start + (gap ? 600 : 1000);
      analysis::StepBreakdown entry;
      entry.step = {device, step, start, start + 1000, last_work, step < 2};
      entry.breakdown.window_ns = 1000;
      entry.breakdown.batch_gap_ns = start + 1000 - last_work;
      rank->analysis.steps.push_back(entry);
      if (!gap) continue;
      const auto cause = static_cast<analysis::IdleCause>((step + device) % idle::kIdleLabels);
      rank->analysis.gaps.push_back({device, step, last_work, start + 1000, cause, step < 2, 400, {}});
    }
  }
  session->ranks.push_back(std::move(rank));
  return session;
}

TEST(StepModel, ThousandsOfStepsWithAndWithoutGapsShowTheGapsTheScanShowed) {
  const auto session = rank_with_steps(3, 3000);
  const auto& gaps = session->ranks[0]->analysis.gaps;
  ASSERT_GT(gaps.size(), 7000U);
  const auto rows = rows_shown(*session);
  ASSERT_EQ(rows.size(), 9000U);
  EXPECT_EQ(rows, rows_by_scanning(*session));
  EXPECT_EQ(with_gap(rows), gaps.size());
  EXPECT_EQ(rows[3].second, "-") << "step 3 ends with its own work";
  EXPECT_EQ(rows[2999].second, "-") << "a device's last step has no next step";
}

// Step numbers come from range names: two steps named alike on one device each show their own gap (the scan
// gave both the later gap's cause).
TEST(StepModel, StepsNumberedAlikeShowTheirOwnGap) {
  const auto session = rank_with_steps(1, 4);  // gaps after steps 0, 1 and 2
  auto& analysis = session->ranks[0]->analysis;
  analysis.steps[2].step.step = 1;
  analysis.gaps[2].after_step = 1;
  analysis.gaps[1].cause = analysis::IdleCause::sync_wait;
  analysis.gaps[2].cause = analysis::IdleCause::data_loading;
  const auto rows = rows_shown(*session);
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[1], std::make_pair(std::string("1 (warm-up)"), cause_text(analysis::IdleCause::sync_wait)));
  EXPECT_EQ(rows[2], std::make_pair(std::string("1"), cause_text(analysis::IdleCause::data_loading)));
}

}  // namespace
}  // namespace gpuprof::gui
