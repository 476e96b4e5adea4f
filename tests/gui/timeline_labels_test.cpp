// The timeline's step and gap labels at the three common screen sizes: every label's text is whole in its
// rectangle, inside the view, and over no other label (issue 39: step labels were written over gap labels).
// Checked on the rectangles the painter draws (step_and_gap_labels), not on pixels.

#include <gtest/gtest.h>

#include <QApplication>

#include <algorithm>
#include <atomic>

#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using testing::kScreens;

class TimelineLabels : public ::testing::Test {
 protected:
  // Two ranks of two GPUs, each step opened by a data-loading gap.
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    synthetic::SynthOptions options;
    options.devices = 2;
    options.steps = 6;
    options.kernels_per_step = 8;
    options.loader_us = 400;
    std::vector<std::string> paths;
    for (int rank = 0; rank < 2; ++rank) {
      paths.push_back(folder_->file("rank" + std::to_string(rank) + ".sqlite"));
      gpuprof::testing::write_rank(paths.back(), rank, 2, options);
    }
    const std::atomic<bool> cancel{false};
    session_ = load_session(paths, {}, cancel);
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }
  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> TimelineLabels::folder_;
std::shared_ptr<const Session> TimelineLabels::session_;

int count_starting(const std::vector<ChartText>& labels, const QString& prefix) {
  return static_cast<int>(std::count_if(labels.begin(), labels.end(),
                                        [&](const ChartText& label) { return label.text.startsWith(prefix); }));
}

TEST_F(TimelineLabels, StepAndGapLabelsAreWholeAndApartAtEveryScreenSize) {
  for (const auto size : kScreens) {
    SCOPED_TRACE(std::to_string(size.width()) + "x" + std::to_string(size.height()));
    for (const int steps_shown : {1, 3}) {
      SCOPED_TRACE(std::to_string(steps_shown) + " step(s) shown");
      const auto shown = testing::shown_timeline(session_, size);
      auto& view = *shown;
      const auto& steps = session_->ranks[0]->analysis.steps;
      ASSERT_GT(steps.size(), 4u);
      view.set_view(steps[2].step.start_ns - 100'000, steps[2 + steps_shown - 1].step.end_ns + 100'000);
      const auto labels = testing::timeline_labels(view);
      // What the test is about is there: steps wide enough to be named, and their gaps.
      EXPECT_GE(count_starting(labels, QStringLiteral("step ")), steps_shown);
      EXPECT_GE(count_starting(labels, QStringLiteral("gap: ")), steps_shown);
      EXPECT_EQ(testing::timeline_label_problems(view), "");
      testing::save_and_check(view.render_image(view.size()),
                              QStringLiteral("timeline_labels_%1_%2").arg(size.width()).arg(steps_shown));
    }
  }
}

// Compact mode (one row per GPU) writes no step labels; its gap labels stay inside their rows.
TEST_F(TimelineLabels, CompactRowsKeepTheirGapLabelsInside) {
  for (const auto size : kScreens) {
    SCOPED_TRACE(std::to_string(size.width()));
    const auto shown = testing::shown_timeline(session_, size, true);
    auto& view = *shown;
    const auto& steps = session_->ranks[0]->analysis.steps;
    view.set_view(steps[2].step.start_ns, steps[2].step.end_ns);
    const auto labels = testing::timeline_labels(view);
    EXPECT_EQ(count_starting(labels, QStringLiteral("step ")), 0);
    EXPECT_GE(count_starting(labels, QStringLiteral("gap: ")), 1);
    EXPECT_EQ(testing::timeline_label_problems(view), "");
    EXPECT_EQ(testing::labels_outside_their_rows(view), "");
  }
}

}  // namespace
}  // namespace gpuprof::gui
