#pragma once

// Where every piece of the app's step-time waterfall goes, computed from the
// widget's size and font before anything is drawn: one row per bar (category
// on the left, bar, its value right of the bar), round ticks below, the title
// and the axis note wrapped to the width. Nothing is elided or placed over
// anything else, so the chart is legible at any width it accepts, and a test
// can check that on the rectangles themselves.

#include <QColor>
#include <QFontMetrics>
#include <QLine>
#include <QRect>
#include <QSize>
#include <QString>

#include <vector>

#include "gpuprof/comparison/waterfall_bars.hpp"

namespace gpuprof::gui {

struct ChartText {
  QRect rect;  // large enough for the whole text at the font it was measured with
  QString text;
  int flags = 0;  // Qt alignment and wrapping flags for QPainter::drawText
  QColor colour;
};

// `text` wrapped to `width` at the left of a rectangle from `top`, as tall as it needs at `metrics`: the
// charts' titles and notes (waterfall, replayed step).
ChartText wrapped_text(const QString& text, int left, int top, int width, const QFontMetrics& metrics, QColor colour);

struct ChartBar {
  QRect rect;
  QColor colour;
  QString tooltip;
};

struct WaterfallLayout {
  std::vector<ChartText> texts;  // title, categories, values, tick labels, axis note
  std::vector<ChartBar> bars;
  std::vector<int> tick_x;           // grid lines, from `plot.top()` to `plot.bottom()`
  std::vector<QLine> connectors;     // from each bar's end level to where the next bar starts
  QRect plot;                        // the bars' area
  QSize minimum;                     // below this size some text would not fit
};

// `title` is wrapped above the bars.
WaterfallLayout layout_waterfall(const std::vector<comparison::WaterfallBar>& bars, const QString& title, QSize size,
                                 const QFontMetrics& metrics);

}  // namespace gpuprof::gui
