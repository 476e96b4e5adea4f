#include "gpuprof/gui/step_timeline_layout.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/report/chart_scale.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kMargin = 8, kPad = 6, kMinPlotWidth = 160, kTickGap = 12;
constexpr int kMaxTicks = 12;
const QColor kTextColour(34, 34, 34), kNoteColour(85, 85, 85);

int widest_label(const std::vector<StepSection>& sections, const QFontMetrics& metrics) {
  int width = 0;
  for (const auto& section : sections)
    for (const auto& lane : section.timeline->lanes)
      width = std::max(width, metrics.horizontalAdvance(QString::fromStdString(lane.label)));
  return width + 2;  // advances are rounded; a pixel each side keeps the last glyph whole
}

// Round ticks (the reports' nice_ticks, in ms or us as the waterfall's) whose labels, centred under them, stay
// apart and inside [left, right]: as many as fit. The axis ends at the last tick.
void place_ticks(StepChartLayout& layout, double span_ns, int left, int right, int top, const QFontMetrics& metrics) {
  const bool ms = span_ns >= 1e6;
  const double unit_ns = ms ? 1e6 : 1e3;
  const QString unit = ms ? QStringLiteral(" ms") : QStringLiteral(" us");
  for (int wanted = kMaxTicks; wanted >= 2; --wanted) {
    const auto ticks = report::nice_ticks(0, span_ns / unit_ns, wanted);
    const double axis_ns = ticks.values.back() * unit_ns;
    std::vector<ChartText> texts;
    std::vector<int> xs;
    bool fits = true;
    int previous_right = left - kTickGap;
    for (const double value : ticks.values) {
      const QString text = QString::fromStdString(report::tick_label(value, ticks.step)) + unit;
      const int width = metrics.horizontalAdvance(text) + 2;
      const int x = left + static_cast<int>(std::lround(value * unit_ns / axis_ns * (right - left)));
      const int x0 = std::max(left, std::min(x - width / 2, right - width));
      fits = fits && x0 >= previous_right + kTickGap;
      previous_right = x0 + width;
      texts.push_back({QRect(x0, top, width, metrics.height()), text, Qt::AlignCenter, kNoteColour});
      xs.push_back(x);
    }
    if (fits || wanted == 2) {
      if (!fits) texts = {texts.back()}, xs = {xs.back()};  // the axis' end alone always fits
      layout.span_ns = axis_ns;
      layout.texts.insert(layout.texts.end(), texts.begin(), texts.end());
      layout.tick_x = xs;
      return;
    }
  }
}

}  // namespace

StepChartLayout layout_step_chart(const std::vector<StepSection>& sections, QSize size, const QFontMetrics& metrics) {
  StepChartLayout layout;
  const int label_width = widest_label(sections, metrics);
  const int minimum_width = 2 * kMargin + label_width + kPad + kMinPlotWidth;
  const int width = std::max(size.width(), minimum_width);
  const int inner = width - 2 * kMargin;
  const int row_height = metrics.height() + 4;
  const int plot_left = kMargin + label_width + kPad, plot_right = width - kMargin;
  double span_ns = 1;
  for (const auto& section : sections) span_ns = std::max(span_ns, static_cast<double>(section.timeline->step_ns));
  int y = kMargin, first_lane = -1;
  for (const auto& section : sections) {
    const auto title = wrapped_text(section.title, kMargin, y, inner, metrics, kTextColour);
    layout.texts.push_back(title);
    y = title.rect.bottom() + 1 + kPad;
    for (const auto& lane : section.timeline->lanes) {
      if (first_lane < 0) first_lane = y;
      layout.texts.push_back({QRect(kMargin, y, label_width, row_height), QString::fromStdString(lane.label),
                              Qt::AlignRight | Qt::AlignVCenter, kTextColour});
      layout.lanes.emplace_back(plot_left, y + 2, plot_right - plot_left, row_height - 4);
      y += row_height;
    }
    y += kPad;
  }
  layout.plot = QRect(QPoint(plot_left, first_lane < 0 ? y : first_lane), QPoint(plot_right, y - kPad - 1));
  place_ticks(layout, span_ns, plot_left, plot_right, y, metrics);
  layout.minimum = QSize(minimum_width, y + metrics.height() + kMargin);
  return layout;
}

}  // namespace gpuprof::gui
