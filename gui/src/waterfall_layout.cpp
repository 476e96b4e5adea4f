#include "gpuprof/gui/waterfall_layout.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kMargin = 8, kPad = 6, kMinPlotWidth = 120, kMaxRowHeight = 28, kTickGap = 12;
const QColor kTextColour(34, 34, 34), kNoteColour(85, 85, 85);

QString q(const std::string& text) { return QString::fromStdString(text); }

int widest(const std::vector<comparison::WaterfallBar>& bars, const QFontMetrics& metrics,
           std::string comparison::WaterfallBar::*field) {
  int width = 0;
  for (const auto& bar : bars) width = std::max(width, metrics.horizontalAdvance(q(bar.*field)));
  return width + 2;  // advances are rounded; a pixel each side keeps the last glyph whole
}

struct TickLabels {
  comparison::WaterfallAxis axis;
  std::vector<ChartText> texts;
};

// Round ticks whose labels, centred under them, stay apart and inside [left, right]: as many as fit.
TickLabels tick_labels(const std::vector<comparison::WaterfallBar>& bars, int left, int right, int top,
                       const QFontMetrics& metrics) {
  TickLabels result;
  for (int count = 7; count >= 2; --count) {
    result.axis = comparison::waterfall_axis(bars, count);
    result.texts.clear();
    const auto& axis = result.axis;
    bool fits = true;
    int previous_right = left - kTickGap;
    for (const double value : axis.ticks.values) {
      const QString text = q(report::tick_label(value, axis.ticks.step)) + QLatin1Char(' ') + QLatin1String(axis.unit);
      const int width = metrics.horizontalAdvance(text) + 2;
      const double fraction = (value * axis.unit_ns - axis.low_ns) / (axis.high_ns - axis.low_ns);
      const int x = left + static_cast<int>(std::lround(fraction * (right - left)));
      const int x0 = std::max(left, std::min(x - width / 2, right - width));
      fits = fits && x0 >= previous_right + kTickGap && x0 + width <= right;
      previous_right = x0 + width;
      result.texts.push_back({QRect(x0, top, width, metrics.height()), text, Qt::AlignCenter, kNoteColour});
    }
    if (fits) return result;
  }
  // Two ticks are always the axis' ends; keep only those when even they collide.
  result.texts = {result.texts.front(), result.texts.back()};
  if (result.texts.front().rect.intersects(result.texts.back().rect)) result.texts.pop_back();
  return result;
}

}  // namespace

ChartText wrapped_text(const QString& text, int left, int top, int width, const QFontMetrics& metrics, QColor colour) {
  const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
  const QRect needed = metrics.boundingRect(QRect(left, top, std::max(1, width), 100000), flags, text);
  return {QRect(left, top, std::max(1, width), needed.height()), text, flags, colour};
}

WaterfallLayout layout_waterfall(const std::vector<comparison::WaterfallBar>& bars, const QString& title_text,
                                 QSize size, const QFontMetrics& metrics) {
  WaterfallLayout layout;
  const int label_width = widest(bars, metrics, &comparison::WaterfallBar::name);
  const int value_width = widest(bars, metrics, &comparison::WaterfallBar::value);
  const int row_floor = metrics.height() + 4;
  const int width = std::max(size.width(), 2 * kMargin + label_width + kPad + kMinPlotWidth + kPad + value_width);
  const int inner = width - 2 * kMargin;
  const auto title = wrapped_text(title_text, kMargin, kMargin, inner, metrics, kTextColour);
  layout.texts.push_back(title);
  const int plot_left = kMargin + label_width + kPad, plot_right = width - kMargin - value_width - kPad;
  const int plot_top = title.rect.bottom() + 1 + kPad;
  const auto rows = static_cast<int>(bars.size());
  // Below the rows: tick labels, then the note on the axis' floor, wrapped.
  const int tick_height = metrics.height() + 2;
  // The ticks depend on the plot's width only; they are placed first so that the note names their axis' floor
  // (fewer ticks can round it down), then moved below the rows once the rows' height is known.
  auto ticks = tick_labels(bars, plot_left, plot_right, 0, metrics);
  const auto& axis = ticks.axis;
  const auto note_text =
      axis.low_ns > 0 ? QObject::tr("The axis starts at %1, not at 0, so that small changes stay visible.")
                            .arg(q(units::format_duration(static_cast<std::int64_t>(axis.low_ns))))
                      : QString();
  const int note_height =
      note_text.isEmpty() ? 0 : wrapped_text(note_text, 0, 0, inner, metrics, kNoteColour).rect.height();
  const int below = kPad + tick_height + (note_height ? kPad + note_height : 0) + kMargin;
  const int row_height = std::clamp((size.height() - plot_top - below) / std::max(1, rows), row_floor, kMaxRowHeight);
  layout.plot = QRect(QPoint(plot_left, plot_top), QPoint(plot_right, plot_top + row_height * rows - 1));
  for (auto& tick : ticks.texts) tick.rect.moveTop(layout.plot.bottom() + 1 + kPad);
  const auto x_of = [&](double ns) {
    const double fraction = (std::clamp(ns, axis.low_ns, axis.high_ns) - axis.low_ns) / (axis.high_ns - axis.low_ns);
    return plot_left + static_cast<int>(std::lround(fraction * (plot_right - plot_left)));
  };
  for (const double value : axis.ticks.values) layout.tick_x.push_back(x_of(value * axis.unit_ns));
  for (int i = 0; i < rows; ++i) {
    const auto& bar = bars[static_cast<std::size_t>(i)];
    const int y = plot_top + i * row_height;
    const int x0 = x_of(std::min(bar.from_ns, bar.to_ns));
    const int x1 = std::max(x0 + 1, x_of(std::max(bar.from_ns, bar.to_ns)));
    layout.bars.push_back({QRect(x0, y + 2, x1 - x0, row_height - 4), QColor(comparison::bar_colour(bar.kind)),
                           q(bar.name + ": " + bar.value)});
    layout.texts.push_back({QRect(kMargin, y, label_width, row_height), q(bar.name), Qt::AlignRight | Qt::AlignVCenter,
                            kTextColour});
    layout.texts.push_back({QRect(x1 + 4, y, value_width, row_height), q(bar.value), Qt::AlignLeft | Qt::AlignVCenter,
                            kTextColour});
    if (i + 1 < rows && bar.kind != comparison::BarKind::other_step) {
      const int level = x_of(bar.to_ns);  // where the next term floats from
      layout.connectors.emplace_back(level, y + row_height - 2, level, y + row_height + 2);
    }
  }
  for (const auto& tick : ticks.texts) layout.texts.push_back(tick);
  if (!note_text.isEmpty()) {
    const int note_top = layout.plot.bottom() + 1 + kPad + tick_height + kPad;
    layout.texts.push_back(wrapped_text(note_text, kMargin, note_top, inner, metrics, kNoteColour));
  }
  const int minimum_width = 2 * kMargin + label_width + kPad + kMinPlotWidth + kPad + value_width;
  layout.minimum = QSize(minimum_width, plot_top + row_floor * rows + below);
  return layout;
}

}  // namespace gpuprof::gui
