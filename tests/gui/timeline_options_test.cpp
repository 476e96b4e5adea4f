#include <gtest/gtest.h>

#include <QApplication>
#include <QBarCategoryAxis>
#include <QLegend>
#include <QChart>
#include <QValueAxis>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>

#include "gpuprof/gui/breakdown_chart.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/gui/event_details.hpp"
#include "gpuprof/gui/timeline_painter.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "timeline_checks.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

constexpr std::int64_t kShiftNs = 3'000'000'000;  // rank 1's clock reads 3 s later

std::shared_ptr<const Session> load_job(const std::vector<std::string>& paths) {
  const std::atomic<bool> cancel{false};
  return load_session(paths, {}, cancel);
}

// Index of the `nth` kernel of rank `rank` whose name contains `part`, in start order.
std::size_t nth_kernel(const LoadedRank& rank, const std::string& part, int nth) {
  const auto& kernels = rank.model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    if (rank.model.strings[kernels.name[row]].find(part) != std::string::npos && nth-- == 0) return row;
  }
  ADD_FAILURE() << "no kernel " << part;
  return 0;
}

class TimelineOptions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    const auto rank0 = folder_->file("rank0.sqlite"), rank1 = folder_->file("rank1.sqlite");
    synthetic::SynthOptions options;
    options.devices = 2;  // the synthetic trace all-reduces across its devices
    options.steps = 6;
    options.kernels_per_step = 8;
    gpuprof::testing::write_rank(rank0, 0, 2, options);
    // A copy of rank 0 on its own clock (its collectives end when rank 0's do), with a GPU it never used.
    std::filesystem::copy_file(rank0, rank1);
    gpuprof::testing::set_rank(rank1, 1);
    gpuprof::testing::shift_times(rank1, kShiftNs);
    gpuprof::testing::execute_sql(rank1, "DELETE FROM meta WHERE key = 'clock_calibration';"
                                         "INSERT INTO devices (id, name) VALUES (7, 'unused GPU');");
    session_ = load_job({rank0, rank1});
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }

  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};

std::unique_ptr<gpuprof::testing::TemporaryFolder> TimelineOptions::folder_;
std::shared_ptr<const Session> TimelineOptions::session_;

TEST_F(TimelineOptions, GpusWithoutActivityAreHiddenUnlessAskedFor) {
  const auto hidden = layout_timeline(*session_);
  ASSERT_EQ(hidden.hidden_devices.size(), 2U);
  EXPECT_EQ(hidden.hidden_devices[0], 0);
  EXPECT_EQ(hidden.hidden_devices[1], 1);
  for (const auto& place : hidden.rows) {
    if (place.row) {
      EXPECT_NE(session_->ranks[place.rank]->timeline.rows[*place.row].device, 7);
    }
  }
  LayoutOptions options;
  options.show_idle_devices = true;
  const auto shown = layout_timeline(*session_, options);
  EXPECT_EQ(shown.rows.size(), hidden.rows.size() + 1);
  EXPECT_EQ(shown.hidden_devices[1], 0);
  EXPECT_GT(shown.height, hidden.height);
}

TEST_F(TimelineOptions, RanksAreDrawnOnTheReferenceClockByDefault) {
  const auto offset = session_->job.clocks.offset_of(1);
  EXPECT_EQ(offset, -kShiftNs);  // from the collectives
  const auto aligned = layout_timeline(*session_);
  ASSERT_EQ(aligned.clock_offset_ns.size(), 2U);
  EXPECT_EQ(aligned.clock_offset_ns[0], 0);
  EXPECT_EQ(aligned.clock_offset_ns[1], offset);
  EXPECT_LT(aligned.end_ns - aligned.start_ns, kShiftNs / 2);  // not the union of two clocks 3 s apart

  TimeAxis axis;
  axis.set_width(1000);
  axis.set_limits(aligned.start_ns, aligned.end_ns);
  axis.fit_all();
  // The same all-reduce ends at nearly the same x on both ranks.
  const EventRef first{0, LaneKind::kernels, nth_kernel(*session_->ranks[0], "AllReduce", 2)};
  const EventRef second{1, LaneKind::kernels, nth_kernel(*session_->ranks[1], "AllReduce", 2)};
  const auto a = TimelinePainter::event_rect(*session_, aligned, axis, first, 0);
  const auto b = TimelinePainter::event_rect(*session_, aligned, axis, second, 0);
  ASSERT_TRUE(a && b);
  EXPECT_NEAR(a->right(), b->right(), 0.5);

  LayoutOptions options;
  options.raw_clocks = true;
  const auto raw = layout_timeline(*session_, options);
  EXPECT_EQ(raw.clock_offset_ns[1], 0);
  EXPECT_GT(raw.end_ns - raw.start_ns, kShiftNs);
  TimeAxis raw_axis;
  raw_axis.set_width(1000);
  raw_axis.set_limits(raw.start_ns, raw.end_ns);
  raw_axis.fit_all();
  const auto c = TimelinePainter::event_rect(*session_, raw, raw_axis, second, 0);
  ASSERT_TRUE(c);
  EXPECT_GT(c->left(), 500.0);  // three seconds to the right of rank 0 on a ~3 s axis
}

TEST_F(TimelineOptions, BreakdownAxisTicksFallOnRoundValues) {
  BreakdownChart chart;
  chart.resize(800, 400);
  chart.set_session(session_.get());
  const auto axes = chart.chart()->axes(Qt::Vertical);
  ASSERT_EQ(axes.size(), 1);
  const auto* y = qobject_cast<QValueAxis*>(axes.front());
  ASSERT_NE(y, nullptr);
  const double interval = (y->max() - y->min()) / (y->tickCount() - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(interval)));
  const double mantissa = interval / magnitude;
  EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 2.5) < 1e-9 ||
              std::fabs(mantissa - 5) < 1e-9)
      << "tick interval " << interval;
  EXPECT_EQ(std::fmod(y->min(), interval), 0.0);
  EXPECT_TRUE(chart.chart()->legend()->showToolTips());
}

// At every screen size: the step and gap labels of the aligned job are whole and apart, rank 1's steps are
// drawn where rank 0's are (aligned), and the breakdown's plot and legend lie inside the chart.
TEST_F(TimelineOptions, TheAlignedJobAndItsBreakdownAreLegibleAtEveryScreenSize) {
  for (const auto size : testing::kScreens) {
    SCOPED_TRACE(std::to_string(size.width()));
    const auto shown = testing::shown_timeline(session_, size);
    auto& view = *shown;
    const auto& steps = session_->ranks[0]->analysis.steps;
    ASSERT_GT(steps.size(), 3u);
    view.set_view(steps[1].step.start_ns, steps[3].step.end_ns);
    QApplication::processEvents();
    const auto labels = testing::timeline_labels(view);
    EXPECT_EQ(testing::timeline_label_problems(view), "");
    EXPECT_EQ(testing::elided_row_labels(view), "");  // the label column: ranks, GPUs, streams, threads whole
    // Each rank's step labels: rank 1's start where rank 0's do, its clock aligned.
    std::vector<int> first_step_x[2];
    for (const auto& label : labels) {
      if (!label.text.startsWith(QStringLiteral("step "))) continue;
      const auto* row = view.layout().row_at(label.rect.center().y(), view.scroll_y());
      ASSERT_NE(row, nullptr);
      if (row->rank < 2) first_step_x[row->rank].push_back(label.rect.left());
    }
    ASSERT_FALSE(first_step_x[0].empty());
    ASSERT_FALSE(first_step_x[1].empty());
    EXPECT_NEAR(*std::min_element(first_step_x[0].begin(), first_step_x[0].end()),
                *std::min_element(first_step_x[1].begin(), first_step_x[1].end()), 2);
    const auto image = view.render_image(size);
    testing::save_screenshot(image, QStringLiteral("timeline_job_aligned_%1").arg(size.width()));
    // What the screenshot shows: rows in order and apart, labels in their rows and over their steps and gaps,
    // boundaries and gap bands at their times, each label drawn where the model places it.
    EXPECT_EQ(testing::timeline_layout_problems(view, image), "");

    BreakdownChart chart;
    chart.resize(size.width() * 2 / 5, size.height() * 2 / 5);
    chart.set_session(session_.get());
    chart.show();
    QApplication::processEvents();
    const QRectF inside(QPointF(0, 0), QSizeF(chart.viewport()->size()));
    EXPECT_TRUE(inside.contains(chart.chart()->plotArea())) << "plot area outside the chart";
    EXPECT_TRUE(inside.contains(chart.chart()->legend()->geometry())) << "legend outside the chart";
    EXPECT_FALSE(chart.chart()->plotArea().intersects(chart.chart()->legend()->geometry()));
    EXPECT_GT(chart.chart()->plotArea().width(), chart.width() / 3.0);  // the legend leaves the bars room
    testing::save_screenshot(chart.grab().toImage(), QStringLiteral("breakdown_chart_%1").arg(size.width()));
  }
}

}  // namespace
}  // namespace gpuprof::gui
