#include "gpuprof/gui/idle_cause_chart.hpp"

#include <QBarSet>
#include <QChart>
#include <QStackedBarSeries>

#include <algorithm>
#include <array>

#include "gpuprof/gui/chart_axes.hpp"
#include "gpuprof/idle/idle_cause.hpp"

namespace gpuprof::gui {
namespace {

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

// One colour per label, in IdleCause order: host-side waits warm, GPU-side cool, unknown grey.
QColor label_color(std::size_t label) {
  static const std::array<QColor, idle::kIdleLabels> colors = {
      QColor(214, 39, 40), QColor(255, 127, 14), QColor(148, 103, 189), QColor(44, 160, 44),
      QColor(188, 189, 34), QColor(31, 119, 180), QColor(160, 160, 160), QColor(90, 90, 90)};
  return colors[label];
}

}  // namespace

IdleCauseChart::IdleCauseChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(300, 220);
  chart()->setTitle(tr("Idle by cause per device"));
}

void IdleCauseChart::set_session(const Session* session) {
  auto* chart = new QChart;
  chart->setTitle(tr("Idle by cause per device (ms, steady step periods)"));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setShowToolTips(true);
  bars_ = 0;
  if (session) {
    std::array<QBarSet*, idle::kIdleLabels> sets{};
    for (std::size_t i = 0; i < sets.size(); ++i) {
      sets[i] = new QBarSet(QString::fromLatin1(idle::to_string(static_cast<idle::IdleCause>(i)).data()));
      sets[i]->setColor(label_color(i));
      sets[i]->setBorderColor(label_color(i).darker(120));
    }
    QStringList categories;
    double highest = 0;
    for (const auto& rank : session->ranks) {
      for (const auto& device : rank->analysis.devices) {
        auto tally = device.step_basis().idle_in_steps_causes;
        tally += device.step_basis().batch_gap_causes;
        for (std::size_t i = 0; i < sets.size(); ++i) *sets[i] << ms(tally.label_ns[i]);
        highest = std::max(highest, ms(tally.total_ns()));
        categories << (session->ranks.size() > 1 ? tr("r%1 GPU %2").arg(rank->analysis.rank).arg(device.device)
                                                  : tr("GPU %1").arg(device.device));
        ++bars_;
      }
    }
    auto* series = new QStackedBarSeries;
    for (auto* set : sets) {
      // A cause no device has would only crowd the legend.
      if (set->sum() > 0) series->append(set); else delete set;
    }
    add_with_device_axes(chart, series, categories, highest);
  }
  QChart* old = this->chart();
  setChart(chart);
  delete old;
}

}  // namespace gpuprof::gui
