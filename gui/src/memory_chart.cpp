#include "gpuprof/gui/memory_chart.hpp"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <limits>

namespace gpuprof::gui {
namespace {

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// Each value holds until the next point, so every point after the first is drawn as a step.
QLineSeries* step_line(const memory::DeviceMemory& device, std::int64_t origin_ns, const QString& name) {
  auto* line = new QLineSeries;
  line->setName(name);
  const auto ms = [origin_ns](std::int64_t ns) { return static_cast<double>(ns - origin_ns) / 1e6; };
  for (std::size_t i = 0; i < device.timeline.size(); ++i) {
    const auto& point = device.timeline[i];
    if (i > 0) line->append(ms(point.time_ns), mib(device.timeline[i - 1].bytes));
    line->append(ms(point.time_ns), mib(point.bytes));
  }
  return line;
}

std::int64_t first_event(const Session& session) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  for (const auto& rank : session.ranks) {
    for (const auto& device : rank->analysis.memory.devices) {
      if (!device.timeline.empty()) first = std::min(first, device.first_ns);
    }
  }
  return first;
}

}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(300, 220);
  chart()->setTitle(tr("GPU memory in use"));
}

void MemoryChart::set_session(const Session* session) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  lines_ = 0, highest_mib_ = 0;
  double longest_ms = 0;
  if (session) {
    const auto origin = first_event(*session);
    for (const auto& rank : session->ranks) {
      for (const auto& device : rank->analysis.memory.devices) {
        if (device.timeline.empty()) continue;
        const auto name = session->ranks.size() > 1 ? tr("r%1 GPU %2").arg(rank->analysis.rank).arg(device.device)
                                                     : tr("GPU %1").arg(device.device);
        chart->addSeries(step_line(device, origin, name));
        highest_mib_ = std::max(highest_mib_, mib(device.peak_bytes));
        longest_ms = std::max(longest_ms, static_cast<double>(device.last_ns - origin) / 1e6);
        ++lines_;
      }
    }
  }
  chart->setTitle(lines_ > 0 ? tr("GPU memory in use (MiB, ms since the first allocation event)")
                             : tr("GPU memory in use: not recorded (no allocation events in these traces)"));
  if (lines_ > 0) {
    auto* x = new QValueAxis;
    x->setRange(0, std::max(longest_ms, 1e-3));
    x->setLabelFormat("%.1f");
    auto* y = new QValueAxis;
    y->setRange(0, std::max(highest_mib_ * 1.05, 1e-3));
    y->setLabelFormat("%.0f");
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart->series()) series->attachAxis(x), series->attachAxis(y);
  }
  QChart* old = this->chart();
  setChart(chart);
  delete old;
}

}  // namespace gpuprof::gui
