// The compare view's waterfall must be legible: no value over another, no category, value, tick or title
// cut off, everything inside the widget, at the two common screen widths. Checked on the rectangles the
// chart draws (waterfall_layout), and saved as PNGs to look at.

#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QRegularExpression>
#include <QValueAxis>
#include <QTest>
#include <string>
#include <vector>

#include "gpuprof/gui/breakdown_chart.hpp"
#include "gpuprof/gui/compare_view.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;
using testing::joined;
using testing::save_and_check;

// The texts' problems, and bars outside the plot or a plot outside the widget.
std::vector<std::string> legibility_problems(const WaterfallLayout& layout, QRect widget, const QFontMetrics& metrics) {
  std::vector<QRect> bars;
  for (const auto& bar : layout.bars) bars.push_back(bar.rect);
  auto problems = testing::text_legibility_problems(layout.texts, bars, widget, metrics);
  for (const auto& bar : layout.bars) {
    if (!layout.plot.contains(bar.rect)) problems.push_back("bar outside the plot: " + bar.tooltip.toStdString());
  }
  if (!widget.contains(layout.plot)) problems.push_back("plot outside the widget");
  return problems;
}

// A comparison of a base step and the changes of its terms, the other step where they lead.
comparison::RunComparison comparison_of(double base_step_ns, const std::vector<std::pair<std::string, double>>& terms) {
  comparison::RunComparison result;
  result.base.step_ns = base_step_ns;
  double level = result.base.step_ns;
  for (const auto& [name, delta] : terms) {
    result.waterfall.push_back({name, 0, 0, delta});
    level += delta;
  }
  result.other.step_ns = level;
  result.delta_step_ns = level - result.base.step_ns;
  return result;
}

// Many terms with long names and changes far smaller than the step: what once drew values over each other.
comparison::RunComparison crowded_comparison() {
  return comparison_of(
      48'300'000,
      {{"computation", -21'400'000},      {"exposed transfer HtoD", 310'000},     {"exposed transfer DtoH", -2'000},
       {"exposed transfer DtoD", 1'000},  {"exposed transfer PtoP", 6'900'000},   {"exposed communication", 2'450'000},
       {"synchronization wait", 880'000}, {"batch gaps: data_loading", -140'000}, {"batch gaps: sync_wait", 12'000},
       {"batch gaps: host_bound", 0},     {"other (idle inside steps)", 95'000}});
}

class WaterfallWidths : public ::testing::TestWithParam<int> {};

TEST_P(WaterfallWidths, CompareViewWaterfallIsLegible) {
  const int width = GetParam();
  TemporaryFolder folder;
  testing::write_trace(folder.file("one.sqlite"), 1, 10);
  testing::write_trace(folder.file("two.sqlite"), 2, 10);
  CompareView view;
  view.resize(width, width * 9 / 16);
  view.show();
  view.set_runs(testing::load(folder.file("one.sqlite")), testing::load(folder.file("two.sqlite")),
                QStringLiteral("1 GPU"), QStringLiteral("2 GPUs"));
  QApplication::processEvents();
  auto* chart = view.waterfall();
  ASSERT_GT(chart->term_count(), 3u);
  const auto layout = chart->current_layout();
  EXPECT_EQ(layout.bars.size(), chart->term_count() + 2);
  EXPECT_EQ(joined(legibility_problems(layout, chart->rect(), chart->fontMetrics())), "");
  // The chart lies inside the window the user sees.
  EXPECT_TRUE(view.rect().contains(QRect(chart->mapTo(&view, QPoint(0, 0)), chart->size())));
  EXPECT_LE(view.width(), width);
  const QString name = QStringLiteral("compare_view_%1").arg(width);
  save_and_check(view.grab().toImage(), name);
  save_and_check(chart->grab().toImage(), QStringLiteral("waterfall_%1").arg(width));
}

TEST_P(WaterfallWidths, CrowdedWaterfallIsLegibleAtItsShareOfTheWidth) {
  WaterfallChart chart;
  chart.set_comparison(crowded_comparison());
  // Beside two breakdown charts the waterfall gets about half of the window.
  chart.resize(std::max(chart.minimumSizeHint().width(), GetParam() / 2), 420);
  chart.show();
  QApplication::processEvents();
  const auto layout = chart.current_layout();
  EXPECT_EQ(layout.bars.size(), 13u);
  EXPECT_EQ(joined(legibility_problems(layout, chart.rect(), chart.fontMetrics())), "");
  save_and_check(chart.grab().toImage(), QStringLiteral("waterfall_crowded_%1").arg(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Screens, WaterfallWidths, ::testing::Values(1280, 1920));

TEST(Waterfall, AtItsMinimumSizeEverythingStillFits) {
  WaterfallChart chart;
  chart.set_comparison(crowded_comparison());
  chart.resize(chart.minimumSizeHint());
  EXPECT_EQ(joined(legibility_problems(chart.current_layout(), chart.rect(), chart.fontMetrics())), "");
}

TEST(Waterfall, TheCheckFindsOverlapsAndClipping) {
  // The check itself must be able to fail: two values on one spot and a category in a narrow box.
  WaterfallLayout layout;
  layout.plot = QRect(0, 0, 100, 100);
  layout.texts.push_back({QRect(10, 10, 60, 20), QStringLiteral("+1.20 ms"), Qt::AlignLeft, Qt::black});
  layout.texts.push_back({QRect(12, 12, 60, 20), QStringLiteral("-3.40 ms"), Qt::AlignLeft, Qt::black});
  layout.texts.push_back({QRect(10, 60, 5, 20), QStringLiteral("exposed communication"), Qt::AlignLeft, Qt::black});
  QWidget widget;
  const auto problems = legibility_problems(layout, QRect(0, 0, 200, 200), widget.fontMetrics());
  EXPECT_NE(joined(problems).find("overlaps: -3.40 ms"), std::string::npos) << joined(problems);
  EXPECT_NE(joined(problems).find("clipped: exposed communication"), std::string::npos) << joined(problems);
}

TEST(Waterfall, BarsAddUpToTheOtherRun) {
  const auto comparison = crowded_comparison();
  const auto bars = comparison::waterfall_bars(comparison);
  ASSERT_EQ(bars.size(), comparison.waterfall.size() + 2);
  EXPECT_DOUBLE_EQ(bars[bars.size() - 2].to_ns, comparison.other.step_ns);
  const auto axis = comparison::waterfall_axis(bars);
  for (const auto& bar : bars) {
    EXPECT_LE(axis.low_ns, std::min(bar.from_ns == 0 ? bar.to_ns : bar.from_ns, bar.to_ns)) << bar.name;
    EXPECT_GE(axis.high_ns, std::max(bar.from_ns, bar.to_ns)) << bar.name;
  }
}

// "12.5 ms", "60 ms", "800 us": the time a label or the axis note names, in ns (negative: none found).
double time_in(const QString& text) {
  static const QRegularExpression time(QStringLiteral("([0-9]+(?:\\.[0-9]+)?) ?(ns|us|µs|ms|s)\\b"));
  const auto match = time.match(text);
  if (!match.hasMatch()) return -1;
  const auto unit = match.captured(2);
  const double scale = unit == QStringLiteral("s")    ? 1e9
                       : unit == QStringLiteral("ms") ? 1e6
                       : unit == QStringLiteral("ns") ? 1.0
                                                      : 1e3;
  return match.captured(1).toDouble() * scale;
}

// Issue 39: the left tick read "0 ms" where the note said the axis starts at 60 ms. At every width, the
// note names the value of the leftmost tick, which sits on the plot's left edge.
// A step of about 60 ms that changes by a millisecond or two: an axis that starts far from 0.
comparison::RunComparison small_changes_comparison() {
  return comparison_of(61'200'000,
                       {{"computation", -1'300'000}, {"exposed communication", 450'000}, {"batch gaps: data_loading", -220'000}});
}

TEST(Waterfall, TheAxisNoteNamesTheLeftTicksValueAtEveryWidth) {
  WaterfallChart chart;
  chart.set_comparison(small_changes_comparison());
  int noted = 0;
  for (int width = chart.minimumSizeHint().width(); width <= 1920; width += 20) {
    chart.resize(width, 420);
    const auto layout = chart.current_layout();
    const ChartText* left_tick = nullptr;
    const ChartText* note = nullptr;
    for (const auto& text : layout.texts) {
      if (text.flags == Qt::AlignCenter && (!left_tick || text.rect.left() < left_tick->rect.left())) left_tick = &text;
      if (text.text.startsWith(QStringLiteral("The axis starts at"))) note = &text;
    }
    ASSERT_NE(left_tick, nullptr);
    ASSERT_FALSE(layout.tick_x.empty());
    EXPECT_EQ(layout.tick_x.front(), layout.plot.left()) << width;
    const double left = time_in(left_tick->text);
    if (!note) {
      EXPECT_EQ(left, 0.0) << "width " << width << ": no note, but the axis starts at " << left_tick->text.toStdString();
      continue;
    }
    ++noted;
    EXPECT_DOUBLE_EQ(time_in(note->text), left)
        << "width " << width << ": " << note->text.toStdString() << " / left tick " << left_tick->text.toStdString();
  }
  EXPECT_GT(noted, 0);  // this comparison's axis does not start at 0
}

// Issue 39: the compare view's two stacked-bar charts drew their runs on different scales; one scale makes
// the taller bar the longer step.
TEST(CompareView, BothBreakdownChartsShareOneScale) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("one.sqlite"), 1, 10);
  testing::write_trace(folder.file("two.sqlite"), 2, 10);
  CompareView view;
  view.resize(1600, 1000);
  view.set_runs(testing::load(folder.file("one.sqlite")), testing::load(folder.file("two.sqlite")),
                QStringLiteral("1 GPU"), QStringLiteral("2 GPUs"));
  const auto range = [](BreakdownChart* chart) {
    const auto axes = chart->chart()->axes(Qt::Vertical);
    const auto* y = axes.size() == 1 ? qobject_cast<QValueAxis*>(axes.front()) : nullptr;
    return y ? std::pair{y->min(), y->max()} : std::pair{-1.0, -1.0};
  };
  const auto base = range(view.base_chart()), other = range(view.other_chart());
  EXPECT_GT(base.second, 0.0);
  EXPECT_EQ(base, other);
}


// Issue 39: at 1280x800 each breakdown chart's legend beside its bars was cut to "comput…/expose…". At
// 1280x800 and 1920x1080 every legend the compare view shows names each series whole: a chart's own legend
// is at least as wide as its longest entry (marker included), the shared one as wide as its text, inside
// the window.
TEST(CompareView, EveryLegendEntryIsWholeAt1280And1920) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("one.sqlite"), 1, 10);
  testing::write_trace(folder.file("two.sqlite"), 2, 10);
  const auto base = testing::load(folder.file("one.sqlite")), other = testing::load(folder.file("two.sqlite"));
  for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
    SCOPED_TRACE(std::to_string(size.width()));
    CompareView view;
    view.resize(size);
    view.show();
    view.set_runs(base, other, QStringLiteral("1 GPU"), QStringLiteral("2 GPUs"));
    QApplication::processEvents();
    ASSERT_LE(view.width(), size.width());
    // The whole view fits the screen's height too (it was 826 px at least: two timelines of 200 px).
    EXPECT_LE(view.height(), size.height());
    QStringList names;
    for (auto* chart : {view.base_chart(), view.other_chart()}) {
      auto* legend = chart->chart()->legend();
      const QFontMetrics metrics(legend->font());
      for (auto* marker : legend->markers()) {
        names << marker->label();
        if (!legend->isVisible()) continue;
        const double needed = metrics.horizontalAdvance(marker->label()) + metrics.height() * 2.0;
        EXPECT_GE(legend->geometry().width(), needed) << "cut: " << marker->label().toStdString();
      }
    }
    ASSERT_FALSE(names.isEmpty());
    auto* shared = view.breakdown_legend();
    if (shared && shared->isVisible()) {
      for (const auto& name : names) EXPECT_TRUE(shared->text().contains(name)) << name.toStdString();
      EXPECT_GE(shared->width(), shared->sizeHint().width()) << "the shared legend is cut";
      EXPECT_TRUE(view.rect().contains(QRect(shared->mapTo(&view, QPoint(0, 0)), shared->size())));
    } else {
      // Without a shared legend each chart must show its own.
      EXPECT_TRUE(view.base_chart()->chart()->legend()->isVisible());
    }
    save_and_check(view.grab().toImage(), QStringLiteral("compare_view_legends_%1").arg(size.width()));
  }
}

}  // namespace
}  // namespace gpuprof::gui
