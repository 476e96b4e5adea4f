#include "gpuprof/gui/launch_queue_chart.hpp"

#include <algorithm>

#include "gpuprof/gui/step_lines_chart.hpp"

namespace gpuprof::gui {

LaunchQueueChart::LaunchQueueChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(300, 220);
  clear();
}

void LaunchQueueChart::clear() {
  lines_ = 0, deepest_ = 0;
  QChart* old = chart();
  setChart(make_step_lines_chart({}, {}, tr("Launch queue: computed when this panel is shown"), "%.0f"));
  delete old;
}

void LaunchQueueChart::set_queues(const Session& session, const std::vector<summaries::HostSummaries>& host) {
  std::vector<StepLine> lines;
  lines_ = 0, deepest_ = 0;
  for (std::size_t index = 0; index < host.size() && index < session.ranks.size(); ++index) {
    for (const auto& queue : host[index].launch_queues) {
      if (queue.series.empty()) continue;
      StepLine line{session.ranks.size() > 1
                        ? tr("r%1 GPU %2").arg(session.ranks[index]->analysis.rank).arg(queue.device)
                        : tr("GPU %1").arg(queue.device),
                    {}};
      for (const auto& point : queue.series) line.points.emplace_back(point.time_ns, static_cast<double>(point.depth));
      lines.push_back(std::move(line));
      deepest_ = std::max(deepest_, queue.max_depth);
      ++lines_;
    }
  }
  QChart* old = chart();
  setChart(make_step_lines_chart(
      lines, tr("Kernels launched, not yet started (ms since the first launch)"),
      tr("Launch queue: no kernel with a known launching call"), "%.0f"));
  delete old;
}

}  // namespace gpuprof::gui
