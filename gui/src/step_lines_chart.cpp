#include "gpuprof/gui/step_lines_chart.hpp"

#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <limits>

namespace gpuprof::gui {

QChart* make_step_lines_chart(const std::vector<StepLine>& lines, const QString& title, const QString& empty_title,
                              const char* value_format) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  std::int64_t origin = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
  double highest = 0;
  for (const auto& line : lines) {
    if (line.points.empty()) continue;
    origin = std::min(origin, line.points.front().first), last = std::max(last, line.points.back().first);
    for (const auto& point : line.points) highest = std::max(highest, point.second);
  }
  if (origin > last) {
    chart->setTitle(empty_title);
    return chart;
  }
  const auto ms = [origin](std::int64_t ns) { return static_cast<double>(ns - origin) / 1e6; };
  for (const auto& line : lines) {
    if (line.points.empty()) continue;
    auto* series = new QLineSeries;
    series->setName(line.name);
    // Each value holds until the next point, so every point after the first is drawn as a step.
    for (std::size_t i = 0; i < line.points.size(); ++i) {
      if (i > 0) series->append(ms(line.points[i].first), line.points[i - 1].second);
      series->append(ms(line.points[i].first), line.points[i].second);
    }
    chart->addSeries(series);
  }
  chart->setTitle(title);
  auto* x = new QValueAxis;
  x->setRange(0, std::max(ms(last), 1e-3));
  x->setLabelFormat("%.1f");
  auto* y = new QValueAxis;
  y->setRange(0, std::max(highest * 1.05, 1e-3));
  y->applyNiceNumbers();  // round ticks: a label format without decimals must not misname them
  y->setLabelFormat(value_format);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* series : chart->series()) series->attachAxis(x), series->attachAxis(y);
  return chart;
}

}  // namespace gpuprof::gui
