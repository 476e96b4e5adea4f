#pragma once

// Kernels launched and not yet started, over time, one step line per rank and
// device: the analyzer's launch-queue series (HTA's queue length), the
// figures of the report's `launch_queues[].series` and its HTML chart.

#include <QChartView>

#include <cstdint>
#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/summaries/host_summary_report.hpp"

namespace gpuprof::gui {

class LaunchQueueChart : public QChartView {
  Q_OBJECT

 public:
  explicit LaunchQueueChart(QWidget* parent = nullptr);
  // `host`: the summaries of `session`'s ranks, in its order (the host summaries panel computes them).
  void set_queues(const Session& session, const std::vector<summaries::HostSummaries>& host);
  void clear();
  int line_count() const { return lines_; }
  std::int64_t deepest() const { return deepest_; }  // the largest depth drawn

 private:
  int lines_ = 0;
  std::int64_t deepest_ = 0;
};

}  // namespace gpuprof::gui
