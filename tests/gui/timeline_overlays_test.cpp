// What the timeline draws over the rows: step boundaries on the aligned clock (normal and compact mode) and
// arrows from the source to the destination GPU of peer-to-peer copies. Checked on the painter's data.

#include <gtest/gtest.h>

#include <QApplication>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>

#include "gpuprof/gui/copy_arrows.hpp"
#include "gpuprof/gui/step_boundaries.hpp"
#include "gpuprof/gui/timeline_painter.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "timeline_checks.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

constexpr std::int64_t kShiftNs = 2'000'000'000;  // rank 1's clock reads 2 s later
constexpr int kBottom = 100'000;

TimeAxis fitted(const TimelineLayout& layout, double width) {
  TimeAxis axis;
  axis.set_width(width);
  axis.set_limits(layout.start_ns, layout.end_ns);
  axis.fit_all();
  return axis;
}

// x of each (rank, step) boundary of GPU 0, not the reference lines.
std::map<std::pair<std::size_t, std::int64_t>, double> gpu0_boundaries(const std::vector<StepBoundary>& boundaries) {
  std::map<std::pair<std::size_t, std::int64_t>, double> xs;
  for (const auto& boundary : boundaries) {
    if (!boundary.reference && boundary.device == 0) xs[{boundary.rank, boundary.step}] = boundary.line.x1();
  }
  return xs;
}

class StepBoundaries : public ::testing::TestWithParam<bool> {
 protected:
  // Two ranks that ran the same steps at the same moments, rank 1's clock reading 2 s later and its
  // calibration gone, so the job analysis aligns it by the collectives.
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    synthetic::SynthOptions options;
    options.devices = 2;
    options.steps = 6;
    options.kernels_per_step = 6;
    const auto rank0 = folder_->file("rank0.sqlite"), rank1 = folder_->file("rank1.sqlite");
    gpuprof::testing::write_rank(rank0, 0, 2, options);
    std::filesystem::copy_file(rank0, rank1);
    gpuprof::testing::set_rank(rank1, 1);
    gpuprof::testing::shift_times(rank1, kShiftNs);
    gpuprof::testing::execute_sql(rank1, "DELETE FROM meta WHERE key = 'clock_calibration';");
    const std::atomic<bool> cancel{false};
    session_ = load_session({rank0, rank1}, {}, cancel);
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }
  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> StepBoundaries::folder_;
std::shared_ptr<const Session> StepBoundaries::session_;

TEST_P(StepBoundaries, EachRanksStepsLineUpOnTheAlignedClock) {
  LayoutOptions options;
  options.compact = GetParam();
  const auto aligned = layout_timeline(*session_, options);
  const auto axis = fitted(aligned, 1000);
  const auto boundaries = step_boundaries(*session_, aligned, axis, 0, false, kRulerHeight, kBottom);
  const auto xs = gpu0_boundaries(boundaries);
  options.raw_clocks = true;
  const auto raw = layout_timeline(*session_, options);
  auto raw_axis = fitted(raw, 1000);
  raw_axis.set_view(axis.view_start(), axis.view_end());  // where the aligned steps are
  const auto raw_xs = gpu0_boundaries(step_boundaries(*session_, raw, raw_axis, 0, false, kRulerHeight, kBottom));
  int compared = 0;
  for (const auto& [key, x] : xs) {
    const auto [rank, step] = key;
    if (rank != 0 || !xs.count({1, step})) continue;
    ++compared;
    // Same step, nearly the same pixel on the aligned clock.
    EXPECT_LT(std::abs(xs.at({1, step}) - x), 1.0) << "step " << step;
    // On its own clock rank 1 runs 2 s later, out of this view.
    EXPECT_TRUE(raw_xs.count({0, step})) << "step " << step;
    EXPECT_FALSE(raw_xs.count({1, step})) << "step " << step;
  }
  EXPECT_GE(compared, 4);
}

TEST_P(StepBoundaries, ALineSpansItsGpusRowsAndTheReferenceSpansAll) {
  LayoutOptions options;
  options.compact = GetParam();
  const auto layout = layout_timeline(*session_, options);
  const auto axis = fitted(layout, 1000);
  const auto boundaries = step_boundaries(*session_, layout, axis, 0, false, kRulerHeight, 700);
  int references = 0, own = 0;
  for (const auto& boundary : boundaries) {
    if (boundary.reference) {
      ++references;
      // From the top to the last row's bottom (or the widget's, when the rows go on below it).
      const auto& last_row = layout.rows.back();
      EXPECT_EQ(boundary.line.y1(), kRulerHeight);
      EXPECT_EQ(boundary.line.y2(), std::min(700, row_top(last_row, 0) + last_row.height));
      EXPECT_EQ(boundary.rank, 0u);
      continue;
    }
    ++own;
    // From the top of the GPU's row to the bottom of its last stream (its one row in compact mode).
    const auto& rows = session_->ranks[boundary.rank]->timeline.rows;
    std::size_t index = 0;
    const auto heads_gpu = [&](const LayoutRow& place) {
      return place.rank == boundary.rank && place.row && rows[*place.row].kind == RowKind::device &&
             rows[*place.row].device == boundary.device;
    };
    while (!heads_gpu(layout.rows[index])) ++index;
    const auto& last = layout.rows[device_group_end(*session_, layout, index) - 1];
    EXPECT_EQ(boundary.line.y1(), row_top(layout.rows[index], 0));
    EXPECT_EQ(boundary.line.y2(), row_top(last, 0) + last.height);
    if (GetParam()) {
      EXPECT_EQ(&last, &layout.rows[index]);
    }
  }
  EXPECT_GE(references, 4);
  EXPECT_GE(own, 4 * 4);  // 2 ranks x 2 GPUs, 6 steps each
}

INSTANTIATE_TEST_SUITE_P(NormalAndCompact, StepBoundaries, ::testing::Values(false, true));

class CopyArrows : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    testing::write_trace(folder_->file("dp4.sqlite"), 4, 8);
    session_ = testing::load(folder_->file("dp4.sqlite"));
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }
  // The layout and an axis zoomed to steady step 4 of GPU 0.
  static std::pair<TimelineLayout, TimeAxis> step_view(const LayoutOptions& options) {
    auto layout = layout_timeline(*session_, options);
    auto axis = fitted(layout, 1200);
    for (const auto& entry : session_->ranks[0]->analysis.steps) {
      if (entry.step.device == 0 && entry.step.step == 4) axis.set_view(entry.step.start_ns, entry.step.end_ns);
    }
    return {std::move(layout), axis};
  }
  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> CopyArrows::folder_;
std::shared_ptr<const Session> CopyArrows::session_;

// Peer-to-peer copies in the view at least kMinCopyPx wide.
int wide_copies(const Session& session, const TimeAxis& axis) {
  const auto& copies = session.ranks[0]->model.memcpys;
  int wide = 0;
  for (std::size_t row = 0; row < copies.size(); ++row) {
    if (copies.copy_kind[row] != trace::CopyKind::peer_to_peer || copies.end_ns[row] <= axis.view_start() ||
        copies.start_ns[row] >= axis.view_end()) {
      continue;
    }
    wide += axis.x_of(copies.end_ns[row]) - axis.x_of(copies.start_ns[row]) >= kMinCopyPx;
  }
  return wide;
}

// The vertical middle of GPU `device`'s row.
double middle_of(const Session& session, const TimelineLayout& layout, std::int32_t device) {
  for (const auto& place : layout.rows) {
    if (!place.row) continue;
    const auto& row = session.ranks[place.rank]->timeline.rows[*place.row];
    if (row.kind == RowKind::device && row.device == device) return row_top(place, 0) + place.height / 2.0;
  }
  return -1;
}

TEST_F(CopyArrows, EachPeerCopyPointsFromItsSourceGpuToItsDestination) {
  const auto [layout, axis] = step_view({});
  const auto arrows = copy_arrows(*session_, layout, axis, 0);
  ASSERT_FALSE(arrows.empty());
  // Every arrow stands for peer-to-peer copies of the view at least a pixel wide, and no more than there are.
  const int wide = wide_copies(*session_, axis);
  int counted = 0;
  for (const auto& arrow : arrows) {
    counted += arrow.count;
    EXPECT_NE(arrow.src_device, arrow.dst_device);
    EXPECT_DOUBLE_EQ(arrow.from.y(), middle_of(*session_, layout, arrow.src_device));
    EXPECT_DOUBLE_EQ(arrow.to.y(), middle_of(*session_, layout, arrow.dst_device));
    EXPECT_LT(arrow.from.x(), arrow.to.x());  // from the copy's start to its end
    EXPECT_GE(arrow.from.x(), kLabelWidth - 1);
  }
  EXPECT_GT(counted, 0);
  EXPECT_LE(counted, wide);
}

TEST_F(CopyArrows, OnlyWhenBothGpusAreShown) {
  LayoutOptions options;
  options.groups.collapsed = {{0, GroupKind::streams, 0}, {0, GroupKind::streams, 1}};
  // A collapsed GPU keeps its row: the arrows stay.
  EXPECT_FALSE(copy_arrows(*session_, step_view(options).first, step_view(options).second, 0).empty());
  options.groups.collapsed = {{0, GroupKind::rank}};
  EXPECT_TRUE(copy_arrows(*session_, step_view(options).first, step_view(options).second, 0).empty());
  // Zoomed out so far that every copy is narrower than a pixel: none.
  const auto layout = layout_timeline(*session_);
  TimeAxis axis = fitted(layout, 20);
  ASSERT_EQ(wide_copies(*session_, axis), 0);
  EXPECT_TRUE(copy_arrows(*session_, layout, axis, 0).empty());
}

TEST(CopyArrowMerge, ArrowsOfOnePairStartingWithinAFewPixelsMerge) {
  const std::vector<CopyArrow> arrows{{{10, 50}, {20, 90}, 0, 2, 3, 1},
                                      {{13, 50}, {25, 90}, 0, 2, 3, 1},
                                      {{12, 90}, {15, 50}, 0, 3, 2, 1},
                                      {{30, 50}, {40, 90}, 0, 2, 3, 1}};
  const auto merged = merge_close_arrows(arrows, 6.0);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].count, 2);
  EXPECT_EQ(merged[0].from, QPointF(10, 50));
  EXPECT_EQ(merged[0].to, QPointF(25, 90));
  EXPECT_EQ(merged[1].count, 1);
  EXPECT_EQ(merged[1].from, QPointF(30, 50));
  EXPECT_EQ(merged[2].src_device, 3);
}

// At every screen size, zoomed into a step: the arrows lie on the plot, from their source GPU's row, and the
// step and gap labels are whole and apart.
TEST_F(CopyArrows, ArrowsAndLabelsAreInPlaceAtEveryScreenSize) {
  for (const auto size : testing::kScreens) {
    SCOPED_TRACE(std::to_string(size.width()));
    const auto shown = testing::shown_timeline(session_, size);
    auto& view = *shown;
    for (const auto& entry : session_->ranks[0]->analysis.steps) {
      if (entry.step.device == 0 && entry.step.step == 4) view.set_view(entry.step.start_ns, entry.step.end_ns);
    }
    QApplication::processEvents();
    const auto arrows = copy_arrows(*session_, view.layout(), view.axis(), view.scroll_y());
    ASSERT_FALSE(arrows.empty());
    const QRectF plot(kLabelWidth - 3, kRulerHeight, size.width() - kLabelWidth + 6, size.height() - kRulerHeight);
    for (const auto& arrow : arrows) {
      // At least one end on screen (a copy that runs past the view's edge is clipped there).
      EXPECT_TRUE(plot.contains(arrow.from) || plot.contains(arrow.to)) << arrow.from.x() << " " << arrow.to.x();
      EXPECT_LT(arrow.from.x(), arrow.to.x());
      EXPECT_DOUBLE_EQ(arrow.from.y(), middle_of(*session_, view.layout(), arrow.src_device));
    }
    EXPECT_EQ(testing::timeline_label_problems(view), "");
    const auto image = view.render_image(size);
    testing::save_screenshot(image, QStringLiteral("timeline_peer_copies_and_steps_%1").arg(size.width()));
    // The arrows from a copy's start to a copy's end, the boundaries and gap bands at their times, the rows and
    // labels in place, each label drawn where the model places it.
    EXPECT_EQ(testing::timeline_layout_problems(view, image), "");
    EXPECT_EQ(testing::elided_row_labels(view), "");  // the label column: ranks, GPUs, streams, threads whole
  }
}

}  // namespace
}  // namespace gpuprof::gui
