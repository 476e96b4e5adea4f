#include "gpuprof/gui/host_summary_panel.hpp"

#include <QSortFilterProxyModel>
#include <QTableView>

#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gpuprof/gui/table_views.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kTabs = 4;

// Replaces a proxy's source model, deleting the old one.
void replace_source(QSortFilterProxyModel* proxy, QAbstractItemModel* model) {
  QAbstractItemModel* old = proxy->sourceModel();
  proxy->setSourceModel(model);
  delete old;
}

}  // namespace

HostSummaryPanel::HostSummaryPanel(QWidget* parent) : QTabWidget(parent) {
  // Short titles fit a dock beside the timeline; the tooltips say what each is.
  const QString titles[kTabs] = {tr("NVTX"), tr("CUDA API"), tr("Launch latency"), tr("Queue")};
  const QString tips[kTabs] = {tr("NVTX ranges (nsys nvtx_sum)"), tr("CUDA API calls (nsys cuda_api_sum)"),
                               tr("Launch latency per kernel"), tr("Launch queue per device")};
  setDocumentMode(true);
  for (int tab = 0; tab < kTabs; ++tab) {
    proxies_.push_back(make_proxy(this));
    tables_.push_back(make_table(proxies_.back()));
    // One line a row; a long name shows its start and its end (a kernel's name and its arguments).
    tables_.back()->setWordWrap(false);
    tables_.back()->setTextElideMode(Qt::ElideMiddle);
    addTab(tables_.back(), titles[tab]);
    setTabToolTip(tab, tips[tab]);
  }
  queue_chart_ = new LaunchQueueChart;
  addTab(queue_chart_, tr("Queue over time"));
  setTabToolTip(kTabs, tr("Launch queue depth of each device over time"));
  setToolTip(tr("The tables of gpuprof report --sections nvtx,api,launches, computed when this panel is first shown"));
  job_ = new BackgroundJob(this);
}

HostSummaryPanel::~HostSummaryPanel() = default;  // the job waits for its worker, which reads the session

void HostSummaryPanel::set_session(std::shared_ptr<const Session> session) {
  session_ = std::move(session);
  job_->drop();  // a result for the previous session is not shown
  requested_ = false;
  ready_ = false;
  for (auto* proxy : proxies_) replace_source(proxy, nullptr);
  queue_chart_->clear();
  if (isVisible()) compute();
}

void HostSummaryPanel::showEvent(QShowEvent* event) {
  QTabWidget::showEvent(event);
  compute();
}

void HostSummaryPanel::compute() {
  if (!session_ || requested_) return;
  requested_ = true;
  job_->start([this, session = session_]() -> std::function<void()> {
    std::vector<summaries::HostSummaries> host;
    for (const auto& rank : session->ranks) {
      host.push_back(rank->correlations ? summaries::summarize_host(rank->model, *rank->correlations)
                                        : summaries::HostSummaries{});
    }
    return [this, host = std::move(host)]() mutable { show_results(std::move(host)); };
  });
}

void HostSummaryPanel::show_results(std::vector<summaries::HostSummaries> host) {
  const HostTable tables[] = {HostTable::ranges, HostTable::api_calls, HostTable::launch_latency};
  for (int tab = 0; tab < 3; ++tab) {
    replace_source(proxies_[static_cast<std::size_t>(tab)], make_host_table_model(*session_, host, tables[tab], this));
  }
  replace_source(proxies_[3], make_launch_queue_model(*session_, host, this));
  queue_chart_->set_queues(*session_, host);
  for (std::size_t tab = 0; tab < tables_.size(); ++tab) {
    auto* table = tables_[tab];
    table->sortByColumn(-1, Qt::AscendingOrder);  // the analyzer's order: total time, largest first
    // A name is often longer than the dock is wide: the figures stay whole, the name takes the rest.
    if (tab < 3) {
      // One rank's tables need no Rank column.
      table->setColumnHidden(kHostTableRankColumn, session_->ranks.size() < 2);
      fit_columns(table, 0, kHostTableShownColumns);
    } else {
      fit_columns(table, -1, table->model()->columnCount());
    }
  }
  ready_ = true;
}

}  // namespace gpuprof::gui
