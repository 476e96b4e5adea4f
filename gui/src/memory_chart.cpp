#include "gpuprof/gui/memory_chart.hpp"

#include <algorithm>

#include "gpuprof/gui/step_lines_chart.hpp"

namespace gpuprof::gui {
namespace {

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(300, 220);
  chart()->setTitle(tr("GPU memory in use"));
}

void MemoryChart::set_session(const Session* session) {
  std::vector<StepLine> lines;
  lines_ = 0, highest_mib_ = 0;
  if (session) {
    for (const auto& rank : session->ranks) {
      for (const auto& device : rank->analysis.memory.devices) {
        if (device.timeline.empty()) continue;
        StepLine line{session->ranks.size() > 1 ? tr("r%1 GPU %2").arg(rank->analysis.rank).arg(device.device)
                                                : tr("GPU %1").arg(device.device),
                      {}};
        for (const auto& point : device.timeline) line.points.emplace_back(point.time_ns, mib(point.bytes));
        lines.push_back(std::move(line));
        highest_mib_ = std::max(highest_mib_, mib(device.peak_bytes));
        ++lines_;
      }
    }
  }
  QChart* old = chart();
  setChart(make_step_lines_chart(lines, tr("GPU memory in use (MiB, ms since the first allocation event)"),
                                 tr("GPU memory in use: not recorded (no allocation events in these traces)"), "%.0f"));
  delete old;
}

}  // namespace gpuprof::gui
