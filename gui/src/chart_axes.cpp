#include "gpuprof/gui/chart_axes.hpp"

#include <QBarCategoryAxis>
#include <QValueAxis>

namespace gpuprof::gui {

void set_value_range(QValueAxis* axis, double highest_ms) {
  axis->setRange(0, highest_ms > 0 ? highest_ms * 1.05 : 1);
  axis->applyNiceNumbers();  // ticks on round values, not 4.8 / 9.7 / 14.5
}

void add_with_device_axes(QChart* chart, QAbstractBarSeries* series, const QStringList& devices, double highest_ms) {
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(devices);
  auto* y = new QValueAxis;
  set_value_range(y, highest_ms);
  y->setLabelFormat(QStringLiteral("%g"));
  y->setTitleText(QObject::tr("ms"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
}

}  // namespace gpuprof::gui
