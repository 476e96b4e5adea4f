#pragma once

// Where the time of each device goes, as stacked bars (Qt Charts):
// computation, exposed communication, exposed copies and idle add up to the
// device's window, as in the report.

#include <QChartView>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

class BreakdownChart : public QChartView {
  Q_OBJECT

 public:
  explicit BreakdownChart(QWidget* parent = nullptr);
  // `steady`: leave out warm-up steps (the figures the comparison uses).
  void set_session(const Session* session, const QString& title = {}, bool steady = false);
  // Bars shown (one per rank and device).
  int bar_count() const { return bars_; }
  // The longest window shown, in ms; charts shown side by side share one scale: use_scale(the largest).
  double highest_ms() const { return highest_ms_; }
  void use_scale(double highest_ms);

 private:
  int bars_ = 0;
  double highest_ms_ = 0;
};

}  // namespace gpuprof::gui
