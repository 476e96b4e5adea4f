// A job of many ranks on one screen: compact mode draws one row per GPU, marks the
// slowest rank and the stragglers, and opens a job folder as `report` reads it.

#include <gtest/gtest.h>

#include <QApplication>
#include <QFontMetrics>

#include <atomic>
#include <filesystem>
#include <set>

#include "gpuprof/gui/rank_marks.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/gui/timeline_painter.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "timeline_checks.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kRanks = 32;
constexpr int kLateRank = 7;

class CompactJob : public ::testing::Test {
 protected:
  // 32 one-GPU ranks in a folder; rank 7 starts every step 2 ms late.
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    synthetic::SynthOptions options;
    options.devices = 1;
    options.steps = 5;
    options.kernels_per_step = 4;
    for (int rank = 0; rank < kRanks; ++rank) {
      const auto path = folder_->file("rank" + std::to_string(rank) + ".sqlite");
      gpuprof::testing::write_rank(path, rank, kRanks, options);
      if (rank == kLateRank) gpuprof::testing::shift_times(path, 2'000'000);
    }
    const std::atomic<bool> cancel{false};
    session_ = load_session({folder_->path().string()}, {}, cancel);
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }
  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> CompactJob::folder_;
std::shared_ptr<const Session> CompactJob::session_;

TEST_F(CompactJob, AFolderOpensAsTheJobItHolds) {
  ASSERT_EQ(session_->ranks.size(), static_cast<std::size_t>(kRanks));
  std::set<std::int32_t> ranks;
  for (const auto& rank : session_->ranks) ranks.insert(rank->analysis.rank);
  EXPECT_EQ(ranks.size(), static_cast<std::size_t>(kRanks));
}

TEST_F(CompactJob, ThirtyTwoRanksFitOnAThousandPixelScreen) {
  const auto full = layout_timeline(*session_, {});
  const auto compact = layout_timeline(*session_, {.compact = true});
  EXPECT_GT(kRulerHeight + full.height, 1000);
  EXPECT_LE(kRulerHeight + compact.height, 1000);
  EXPECT_EQ(compact.rows.size(), static_cast<std::size_t>(kRanks));  // one GPU each, no headers
}

// The ranks `gpuprof report` of these files calls stragglers (the job analysis's list) are marked on their
// rows, and only they. Rank 7 starts 2 ms late but nobody waits for it (one-GPU synthetic ranks have no
// collective to wait in): lateness alone is no evidence (issue 39), so no rank is a straggler here.
TEST_F(CompactJob, TheStragglersAndTheSlowestRankAreMarked) {
  const auto& job = session_->job.stragglers.job;
  const std::set<std::int32_t> stragglers(job.stragglers.begin(), job.stragglers.end());
  EXPECT_TRUE(stragglers.empty());
  ASSERT_GT(session_->job.stragglers.ranks.size(), static_cast<std::size_t>(kLateRank));
  EXPECT_GT(session_->job.stragglers.ranks[kLateRank].mean_lateness_ns, 1.9e6);  // still 2 ms late
  for (std::size_t index = 0; index < session_->ranks.size(); ++index) {
    const auto rank = session_->ranks[index]->analysis.rank;
    const auto mark = rank_mark(*session_, index);
    SCOPED_TRACE("rank " + std::to_string(rank) + ": " + mark.text);
    EXPECT_EQ(mark.text.find("straggler") != std::string::npos, stragglers.count(rank) == 1);
    EXPECT_EQ(mark.text.find("slowest") != std::string::npos, rank == job.slowest_rank);
  }
}

// At every screen size, compact: one row per rank, each at least a line of text tall and below the one
// before; the gap labels are whole, apart and inside their rows.
TEST_F(CompactJob, ThirtyTwoRanksAreLegibleAtEveryScreenSize) {
  for (const auto size : testing::kScreens) {
    SCOPED_TRACE(std::to_string(size.width()));
    const auto shown = testing::shown_timeline(session_, size, true);
    auto& view = *shown;
    const auto& layout = view.layout();
    const QFontMetrics metrics(view.font());
    ASSERT_EQ(layout.rows.size(), static_cast<std::size_t>(kRanks));
    for (std::size_t i = 0; i < layout.rows.size(); ++i) {
      EXPECT_GE(layout.rows[i].height, metrics.height()) << "row " << i;
      if (i > 0) {
        EXPECT_GE(layout.rows[i].y, layout.rows[i - 1].y + layout.rows[i - 1].height) << "row " << i;
      }
    }
    EXPECT_EQ(testing::timeline_label_problems(view), "");
    EXPECT_EQ(testing::labels_outside_their_rows(view), "");
    EXPECT_EQ(testing::elided_row_labels(view), "");  // the label column: ranks, GPUs, streams, threads whole
    const auto image = view.render_image(size);
    testing::save_screenshot(image, QStringLiteral("timeline_32_ranks_compact_%1").arg(size.width()));
    EXPECT_EQ(testing::timeline_layout_problems(view, image), "");  // what the screenshot shows, in place
  }
}

}  // namespace
}  // namespace gpuprof::gui

namespace gpuprof::gui {
namespace {

// A trace whose span reaches about INT64_MAX (one kernel near the end of the clock) froze the app in the
// ruler. Zoomed into its far end, the view now draws.
TEST(HostileSpan, TheRulerOfASpanNearInt64MaxIsDrawn) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("far.sqlite");
  synthetic::SynthOptions options;
  options.devices = 1;
  options.steps = 3;
  options.kernels_per_step = 4;
  gpuprof::testing::write_rank(path, 0, 1, options);
  gpuprof::testing::execute_sql(path,
                                "UPDATE kernels SET start_ns = 9223372036854770000, end_ns = 9223372036854775000 "
                                "WHERE rowid = (SELECT max(rowid) FROM kernels); "
                                "UPDATE kernels SET start_ns = 1, end_ns = 500 "
                                "WHERE rowid = (SELECT min(rowid) FROM kernels); DELETE FROM event_chunks;");
  const std::atomic<bool> cancel{false};
  const auto session = load_session({path}, {}, cancel);
  ASSERT_GT(session->end_ns, 9'200'000'000'000'000'000);  // the far kernels were loaded, not left out
  ASSERT_LT(session->start_ns, 1000);
  TimelineView view;
  view.resize(1000, 300);
  view.set_session(session);
  EXPECT_FALSE(view.render_image({1000, 300}).isNull());  // the whole span
  view.zoom_by(5e15);  // a view of 2 microseconds: a tick step below half a double ulp there
  EXPECT_FALSE(view.render_image({1000, 300}).isNull());
  view.pan_by_fraction(1e6);                              // and to the far end
  EXPECT_FALSE(view.render_image({1000, 300}).isNull());
}

}  // namespace
}  // namespace gpuprof::gui
