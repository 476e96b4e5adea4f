#pragma once

// Why each GPU is idle, as stacked bars (Qt Charts): per device, its idle time
// over the steady step periods by cause (DESIGN.md, "Idle causes"), the figures
// of the report's "Idle by cause per device" table.

#include <QChartView>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

class IdleCauseChart : public QChartView {
  Q_OBJECT

 public:
  explicit IdleCauseChart(QWidget* parent = nullptr);
  void set_session(const Session* session);
  int bar_count() const { return bars_; }  // one per rank and device

 private:
  int bars_ = 0;
};

}  // namespace gpuprof::gui
