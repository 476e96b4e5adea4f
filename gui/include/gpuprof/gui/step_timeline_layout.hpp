#pragma once

// Where every piece of the app's step timelines goes (the measured 1-GPU step
// above, the replayed step of one replica below, on one time axis from the
// step's start), computed from the widget's size and font before anything is
// drawn: a title over each, a stream label left of each lane, round tick
// labels below. Nothing is elided or placed over anything else, and a test
// checks that on the rectangles, as for the waterfall.

#include <QFontMetrics>
#include <QRect>
#include <QSize>
#include <QString>
#include <vector>

#include "gpuprof/gui/waterfall_layout.hpp"
#include "gpuprof/predict/step_timeline.hpp"

namespace gpuprof::gui {

struct StepSection {
  const predict::StepTimeline* timeline = nullptr;
  QString title;
};

struct StepChartLayout {
  std::vector<ChartText> texts;  // section titles, lane labels, tick labels
  std::vector<QRect> lanes;      // per section, per lane in order: where its events are drawn
  std::vector<int> tick_x;       // grid lines, from the first lane's top to the last lane's bottom
  std::vector<double> tick_ns;   // the ticks' times from the step's start
  QRect plot;                    // the lanes' horizontal extent, first lane's top to last lane's bottom
  double span_ns = 1;            // the axis: [0, span_ns) across plot's width
  QSize minimum;                 // below this size some text would not fit
};

StepChartLayout layout_step_chart(const std::vector<StepSection>& sections, QSize size, const QFontMetrics& metrics);

}  // namespace gpuprof::gui
