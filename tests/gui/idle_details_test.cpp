// A click on a batch gap band or on idle GPU time selects that stretch and fills the details pane with its
// cause, coverage and the host activity under it.

#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>

#include "gpuprof/gui/idle_details.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/rank/idle_description.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;

const analysis::BatchGap& steady_gap(const Session& session) {
  for (const auto& gap : session.ranks[0]->analysis.gaps) {
    if (!gap.after_warmup && gap.device == 0) return gap;
  }
  throw std::runtime_error("the synthetic trace has no steady batch gap on GPU 0");
}

TEST(IdleDetails, ClickOnAGapBandShowsItsCauseCoverageAndHostActivity) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("dp.sqlite"), 2, 8);
  const auto session = testing::load(folder.file("dp.sqlite"));
  const auto& gap = steady_gap(*session);
  TimelineView view;
  view.resize(1400, 700);
  view.show();
  view.set_session(session);
  view.zoom_to(gap.start_ns - (gap.end_ns - gap.start_ns), gap.end_ns + (gap.end_ns - gap.start_ns));
  QString details;
  QObject::connect(&view, &TimelineView::event_selected, [&details](const QString& text) { details = text; });
  const auto* device_row = view.layout().find(0, 0);
  ASSERT_NE(device_row, nullptr);
  const QPoint click(kLabelWidth + static_cast<int>(view.axis().x_of((gap.start_ns + gap.end_ns) / 2)),
                     row_top(*device_row, view.scroll_y()) + device_row->height / 2);
  QTest::mouseClick(&view, Qt::LeftButton, {}, click);

  ASSERT_TRUE(view.selected_idle());
  EXPECT_FALSE(view.selected());
  EXPECT_EQ(*view.selected_idle(), (IdleSelection{0, 0, gap.start_ns, gap.end_ns, true}));
  const std::string text = details.toStdString();
  // The same words and figures as the gap's line in `gpuprof report --gaps all`: cause and coverage.
  EXPECT_NE(text.find(idle::describe_gap(gap)), std::string::npos) << text;
  EXPECT_NE(text.find(std::string(idle::to_string(gap.cause))), std::string::npos) << text;
  EXPECT_NE(text.find("coverage"), std::string::npos) << text;
  // The synthetic host loads each batch in a "data" range while the GPUs wait.
  EXPECT_NE(text.find("Host activity under"), std::string::npos) << text;
  EXPECT_NE(text.find("range data on thread"), std::string::npos) << text;
  const auto outline = TimelinePainter::idle_rect(*session, view.layout(), view.axis(), *view.selected_idle(),
                                                  view.scroll_y());
  ASSERT_TRUE(outline);
  EXPECT_TRUE(outline->contains(click));
  QApplication::processEvents();
  testing::save_and_check(view.render_image({1400, 700}), QStringLiteral("gap_selected"));

  // Escape clears the selection and the pane.
  QTest::keyClick(&view, Qt::Key_Escape);
  EXPECT_FALSE(view.selected_idle());
  EXPECT_TRUE(details.isEmpty());
}

TEST(IdleDetails, AnIdleIntervalInsideAStepIsDescribedWithItsStep) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("dp.sqlite"), 1, 8);
  const auto session = testing::load(folder.file("dp.sqlite"));
  const auto& intervals = session->ranks[0]->analysis.idle_intervals;
  const auto inside = std::find_if(intervals.begin(), intervals.end(), [](const auto& interval) {
    return !interval.in_gap && interval.end_ns - interval.start_ns > 1;
  });
  ASSERT_NE(inside, intervals.end());
  const auto selection = idle_selection_at(*session, 0, inside->device, inside->start_ns);
  ASSERT_TRUE(selection);
  EXPECT_FALSE(selection->gap);
  EXPECT_EQ(selection->start_ns, inside->start_ns);
  EXPECT_EQ(selection->end_ns, inside->end_ns);
  const auto text = describe_idle_selection(*session, *selection);
  EXPECT_NE(text.find(idle::describe_idle(*inside)), std::string::npos) << text;
  EXPECT_NE(text.find("Host activity"), std::string::npos) << text;
  // Busy GPU time is neither.
  EXPECT_FALSE(idle_selection_at(*session, 0, inside->device, inside->end_ns));
}

}  // namespace
}  // namespace gpuprof::gui
