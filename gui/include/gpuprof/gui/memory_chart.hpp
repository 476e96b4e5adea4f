#pragma once

// GPU memory in use over time (Qt Charts): one step line per rank and device,
// the analyzer's timeline (RankAnalysis::memory), in MiB against milliseconds
// since the session's first memory event: the figures of the report's `memory`
// section and its JSON timeline.

#include <QChartView>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

class MemoryChart : public QChartView {
  Q_OBJECT

 public:
  explicit MemoryChart(QWidget* parent = nullptr);
  void set_session(const Session* session);
  int line_count() const { return lines_; }  // one per rank and device with memory events
  double highest_mib() const { return highest_mib_; }  // the largest peak drawn

 private:
  int lines_ = 0;
  double highest_mib_ = 0;
};

}  // namespace gpuprof::gui
