#include "gpuprof/gui/breakdown_chart.hpp"

#include <QBarSet>
#include <QChart>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

#include "gpuprof/gui/chart_axes.hpp"
#include "gpuprof/gui/timeline_colors.hpp"

namespace gpuprof::gui {
namespace {

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

QBarSet* bar_set(const QString& name, const QColor& color) {
  auto* set = new QBarSet(name);
  set->setColor(color);
  set->setBorderColor(color.darker(120));
  return set;
}

}  // namespace

BreakdownChart::BreakdownChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(300, 220);
  chart()->setTitle(tr("Time breakdown per device"));
}

void BreakdownChart::set_session(const Session* session, const QString& title, bool steady) {
  auto* chart = new QChart;
  chart->setTitle(title.isEmpty() ? tr("Time breakdown per device (ms)") : title);
  // On the right the legend lists one entry per line, so no entry is cut to "com…"; a
  // label that still does not fit is elided with its full text as a tooltip.
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setShowToolTips(true);
  bars_ = 0;
  highest_ms_ = 0;
  if (session) {
    auto* computation = bar_set(tr("computation"), colors::computation());
    auto* comm = bar_set(tr("exposed comm"), colors::exposed_comm());
    auto* memcpy = bar_set(tr("exposed memcpy"), colors::exposed_memcpy());
    auto* idle = bar_set(tr("idle in steps"), colors::idle());
    auto* gaps = bar_set(tr("batch gaps"), colors::batch_gaps());
    QStringList categories;
    double highest = 0;
    for (const auto& rank : session->ranks) {
      for (const auto& device : rank->analysis.devices) {
        const auto& b = steady ? device.steady : device.total;
        *computation << ms(b.computation_ns);
        *comm << ms(b.exposed_comm_ns);
        *memcpy << ms(b.exposed_memcpy_ns);
        *idle << ms(b.idle_in_steps_ns);
        *gaps << ms(b.batch_gap_ns);
        highest = std::max(highest, ms(b.window_ns));
        categories << (session->ranks.size() > 1 ? tr("r%1 GPU %2").arg(rank->analysis.rank).arg(device.device)
                                                  : tr("GPU %1").arg(device.device));
        ++bars_;
      }
    }
    auto* series = new QStackedBarSeries;
    series->append({computation, comm, memcpy, idle, gaps});
    // Each part's milliseconds on the bar, as the HTML report's chart writes them.
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    for (auto* set : {computation, comm, memcpy, gaps}) set->setLabelColor(Qt::white);
    idle->setLabelColor(QColor(34, 34, 34));
    add_with_device_axes(chart, series, categories, highest);
    highest_ms_ = highest;
  }
  QChart* old = this->chart();
  setChart(chart);
  delete old;
}

void BreakdownChart::use_scale(double highest_ms) {
  for (auto* axis : chart()->axes(Qt::Vertical)) {
    if (auto* y = qobject_cast<QValueAxis*>(axis)) set_value_range(y, highest_ms);
  }
}

}  // namespace gpuprof::gui
