#pragma once

// The main window: the timeline in the middle, the analyzer's tables and
// charts in docks, loading in the background with progress and cancel,
// errors shown in the window.

#include <QMainWindow>

#include <memory>

#include "gpuprof/gui/recent_files.hpp"
#include "gpuprof/gui/session.hpp"

class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gpuprof::gui {

class BreakdownChart;
class IdleCauseChart;
class MemoryChart;
class CompareView;
class HostSummaryPanel;
class PredictionPanel;
class TimelineView;
class TraceLoader;
class TransferHeatMap;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads the files as one job (one file per rank), in the background.
  void open_files(const QStringList& paths);
  // Loads two jobs one after the other, then shows them in the compare view.
  void compare_files(const QStringList& base, const QStringList& other);
  void cancel_loading();

  bool loading() const;
  std::shared_ptr<const Session> session() const { return session_; }
  QString error_text() const;
  // The data-loss warnings of the open session, one line each; empty when there are none.
  QString warning_text() const;
  QString summary_text() const;

  TimelineView* timeline() const { return timeline_; }
  CompareView* compare_view() const { return compare_view_; }
  QTableView* kernel_table() const { return kernel_table_; }
  QTableView* step_table() const { return step_table_; }
  QTableView* transfer_table() const { return transfer_table_; }
  QTableView* collective_table() const { return collective_table_; }
  HostSummaryPanel* host_summaries() const { return host_summaries_; }
  PredictionPanel* prediction() const { return prediction_; }
  QSortFilterProxyModel* kernel_proxy() const { return kernel_proxy_; }
  QLineEdit* kernel_filter() const { return kernel_filter_; }
  QList<QDockWidget*> docks() const;

  // The same actions the panels trigger, for tests and scripting.
  void select_step_row(int proxy_row);
  void select_kernel_row(int proxy_row);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void build_central();
  void build_docks();
  void build_menus();
  void rebuild_recent_menu();
  void show_timeline(std::shared_ptr<const Session> session);
  void show_analyses(const std::shared_ptr<const Session>& session);
  void show_error(const QString& message);
  void show_warnings();
  void set_loading(bool loading);
  void export_report(bool html);
  void export_png();
  void choose_compare();

  TraceLoader* loader_ = nullptr;
  std::shared_ptr<const Session> session_;
  QStringList pending_paths_;
  // Compare jobs load the base run, then the other run.
  QStringList compare_other_;
  std::shared_ptr<const Session> compare_base_;
  QStringList compare_base_paths_;
  bool comparing_ = false;

  RecentFiles recent_;
  TimelineView* timeline_ = nullptr;
  QLabel* error_banner_ = nullptr;
  QLabel* warning_banner_ = nullptr;
  QWidget* load_bar_ = nullptr;
  QLabel* load_label_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  BreakdownChart* breakdown_ = nullptr;
  IdleCauseChart* idle_causes_ = nullptr;
  MemoryChart* memory_ = nullptr;
  TransferHeatMap* heat_map_ = nullptr;
  QTableView* transfer_table_ = nullptr;
  QTableView* kernel_table_ = nullptr;
  QSortFilterProxyModel* kernel_proxy_ = nullptr;
  QLineEdit* kernel_filter_ = nullptr;
  QTableView* step_table_ = nullptr;
  QSortFilterProxyModel* step_proxy_ = nullptr;
  QSortFilterProxyModel* transfer_proxy_ = nullptr;
  QTableView* collective_table_ = nullptr;
  QDockWidget* collective_dock_ = nullptr;
  QSortFilterProxyModel* collective_proxy_ = nullptr;
  HostSummaryPanel* host_summaries_ = nullptr;
  PredictionPanel* prediction_ = nullptr;
  QPlainTextEdit* details_ = nullptr;
  QPlainTextEdit* summary_ = nullptr;
  QAction* compact_action_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  CompareView* compare_view_ = nullptr;
  std::vector<QDockWidget*> docks_;
};

}  // namespace gpuprof::gui
