#pragma once

// The nsys-style host summaries as panels: NVTX ranges (nvtx_sum), CUDA API
// calls (cuda_api_sum), launch latency per kernel and the launch queue per
// device (a table, and a chart of each queue over time), the tables of `gpuprof report --sections nvtx,api,launches`. They
// are computed the first time the panel is shown, on a worker thread, so
// opening a trace costs nothing more (the open time is a tracked figure).

#include <QTabWidget>

#include <memory>
#include <vector>

#include "gpuprof/gui/background_job.hpp"
#include "gpuprof/gui/launch_queue_chart.hpp"
#include "gpuprof/gui/session.hpp"
#include "gpuprof/summaries/host_summary_report.hpp"

class QSortFilterProxyModel;
class QTableView;

namespace gpuprof::gui {

class HostSummaryPanel : public QTabWidget {
  Q_OBJECT

 public:
  explicit HostSummaryPanel(QWidget* parent = nullptr);
  ~HostSummaryPanel() override;

  // Forgets the previous session's tables; computes the new ones when (or as soon as) the panel is shown.
  void set_session(std::shared_ptr<const Session> session);
  bool ready() const { return ready_; }
  // The tables in tab order: ranges, API calls, launch latency, launch queues.
  QTableView* table(int tab) const { return tables_[static_cast<std::size_t>(tab)]; }
  // The last tab: each launch queue over time.
  LaunchQueueChart* queue_chart() const { return queue_chart_; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void compute();
  void show_results(std::vector<summaries::HostSummaries> host);

  std::shared_ptr<const Session> session_;
  std::vector<QTableView*> tables_;
  std::vector<QSortFilterProxyModel*> proxies_;
  LaunchQueueChart* queue_chart_ = nullptr;
  BackgroundJob* job_ = nullptr;
  bool requested_ = false;  // for session_: computing or done
  bool ready_ = false;
};

}  // namespace gpuprof::gui
