#include "gpuprof/gui/main_window.hpp"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFontDatabase>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gpuprof/gui/breakdown_chart.hpp"
#include "gpuprof/gui/idle_cause_chart.hpp"
#include "gpuprof/gui/memory_chart.hpp"
#include "gpuprof/gui/compare_view.hpp"
#include "gpuprof/gui/host_summary_panel.hpp"
#include "gpuprof/gui/prediction_panel.hpp"
#include "gpuprof/gui/report_export.hpp"
#include "gpuprof/gui/table_views.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/gui/trace_loader.hpp"
#include "gpuprof/gui/transfer_heat_map.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::gui {
namespace {

// A hidden, selectable line of text above the timeline.
QLabel* make_banner(const QString& colors) {
  auto* banner = new QLabel;
  banner->setWordWrap(true);
  banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner->setStyleSheet(QStringLiteral("QLabel { %1 padding: 6px; }").arg(colors));
  banner->hide();
  return banner;
}

QString file_names(const QStringList& paths) {
  QStringList names;
  for (const auto& path : paths) names << QFileInfo(path).fileName();
  return names.join(QStringLiteral(", "));
}

// Replaces a proxy's source model, deleting the old one.
void replace_source(QSortFilterProxyModel* proxy, QAbstractItemModel* model) {
  QAbstractItemModel* old = proxy->sourceModel();
  proxy->setSourceModel(model);
  delete old;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), loader_(new TraceLoader(this)) {
  setWindowTitle(tr("gpuprof"));
  setAcceptDrops(true);
  build_central();
  build_docks();
  build_menus();
  connect(loader_, &TraceLoader::progress, this, [this](int done, int total, const QString& stage) {
    progress_->setRange(0, total);
    progress_->setValue(done);
    load_label_->setText(stage);
  });
  connect(loader_, &TraceLoader::loaded, this, [this](std::shared_ptr<const Session> session) {
    set_loading(false);
    if (comparing_ && !compare_base_) {
      compare_base_ = std::move(session);
      set_loading(true);
      loader_->start(compare_other_);
      return;
    }
    if (comparing_) {
      comparing_ = false;
      if (!compare_view_) {
        compare_view_ = new CompareView(this);
        compare_view_->setWindowFlag(Qt::Window);
      }
      compare_view_->set_runs(compare_base_, session, file_names(compare_base_paths_), file_names(compare_other_));
      compare_base_.reset();
      compare_view_->show();
      return;
    }
    show_analyses(session);
  });
  connect(loader_, &TraceLoader::timeline_ready, this, [this](std::shared_ptr<const Session> session) {
    if (comparing_) return;  // the compare view needs both runs analysed
    recent_.add(pending_paths_);
    rebuild_recent_menu();
    show_timeline(std::move(session));
  });
  connect(loader_, &TraceLoader::failed, this, [this](const QString& message) {
    set_loading(false);
    // A trace drawn before its analyses failed is not left on screen as if it had opened.
    if (session_ && !session_->analysed) show_timeline(nullptr);
    comparing_ = false;
    compare_base_.reset();
    show_error(message);
  });
  connect(loader_, &TraceLoader::cancelled, this, [this] {
    set_loading(false);
    if (session_ && !session_->analysed) show_timeline(nullptr);
    comparing_ = false;
    compare_base_.reset();
    statusBar()->showMessage(tr("Loading cancelled"), 5000);
  });
  resize(1500, 950);
}

MainWindow::~MainWindow() = default;

void MainWindow::build_central() {
  timeline_ = new TimelineView;
  error_banner_ = make_banner(QStringLiteral("background: #fde2e1; color: #8a1010; border: 1px solid #d9534f;"));
  warning_banner_ = make_banner(QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0a800;"));
  load_bar_ = new QWidget;
  auto* load_layout = new QHBoxLayout(load_bar_);
  load_label_ = new QLabel;
  progress_ = new QProgressBar;
  cancel_ = new QPushButton(tr("Cancel"));
  load_layout->addWidget(load_label_);
  load_layout->addWidget(progress_, 1);
  load_layout->addWidget(cancel_);
  load_bar_->hide();
  connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancel_loading);
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(error_banner_);
  layout->addWidget(warning_banner_);
  layout->addWidget(load_bar_);
  layout->addWidget(timeline_, 1);
  setCentralWidget(central);
}

void MainWindow::build_docks() {
  auto add_dock = [this](const QString& title, QWidget* content, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(title);
    dock->setWidget(content);
    addDockWidget(area, dock);
    docks_.push_back(dock);
    return dock;
  };
  summary_ = new QPlainTextEdit;
  summary_->setReadOnly(true);
  summary_->setLineWrapMode(QPlainTextEdit::NoWrap);
  summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  summary_->setPlaceholderText(tr("Open a trace: where the step time goes, the largest gaps, the slowest rank"));
  auto* summary_dock = add_dock(tr("Summary"), summary_, Qt::RightDockWidgetArea);
  // Four tabs on the right fit a dock beside the timeline at 1280 pixels; eight were cut to "S…/Idl…/T…".
  // The three per-device charts share one of them, the tables of transfers and collectives go to the bottom.
  breakdown_ = new BreakdownChart;
  idle_causes_ = new IdleCauseChart;
  memory_ = new MemoryChart;
  auto* charts = new QTabWidget;
  charts->setDocumentMode(true);
  charts->addTab(breakdown_, tr("Time breakdown"));
  charts->addTab(idle_causes_, tr("Idle causes"));
  charts->addTab(memory_, tr("GPU memory"));
  auto* charts_dock = add_dock(tr("Charts"), charts, Qt::RightDockWidgetArea);

  transfer_proxy_ = make_proxy(this);
  transfer_table_ = make_table(transfer_proxy_);
  heat_map_ = new TransferHeatMap;
  auto* transfers = new QSplitter(Qt::Vertical);
  transfers->addWidget(transfer_table_);
  transfers->addWidget(heat_map_);
  auto* transfer_dock = add_dock(tr("Transfers"), transfers, Qt::BottomDockWidgetArea);
  collective_proxy_ = make_proxy(this);
  collective_table_ = make_table(collective_proxy_);
  collective_dock_ = add_dock(tr("Collectives"), collective_table_, Qt::BottomDockWidgetArea);
  host_summaries_ = new HostSummaryPanel;
  auto* host_dock = add_dock(tr("Host summaries"), host_summaries_, Qt::RightDockWidgetArea);
  prediction_ = new PredictionPanel;
  auto* prediction_dock = add_dock(tr("Prediction"), prediction_, Qt::RightDockWidgetArea);

  kernel_proxy_ = make_proxy(this);
  kernel_proxy_->setFilterKeyColumn(kKernelNameColumn);
  kernel_table_ = make_table(kernel_proxy_);
  kernel_filter_ = new QLineEdit;
  kernel_filter_->setPlaceholderText(tr("Filter kernels by name"));
  kernel_filter_->setClearButtonEnabled(true);
  connect(kernel_filter_, &QLineEdit::textChanged, kernel_proxy_, &QSortFilterProxyModel::setFilterFixedString);
  auto* kernels = new QWidget;
  auto* kernel_layout = new QVBoxLayout(kernels);
  kernel_layout->setContentsMargins(0, 0, 0, 0);
  kernel_layout->addWidget(kernel_filter_);
  kernel_layout->addWidget(kernel_table_);
  auto* kernel_dock = add_dock(tr("Kernels"), kernels, Qt::BottomDockWidgetArea);

  step_proxy_ = make_proxy(this);
  step_table_ = make_table(step_proxy_);
  add_dock(tr("Steps and gaps"), step_table_, Qt::BottomDockWidgetArea);
  details_ = new QPlainTextEdit;
  details_->setReadOnly(true);
  details_->setPlaceholderText(tr("Click an event, a gap band or idle GPU time on the timeline"));
  add_dock(tr("Details"), details_, Qt::BottomDockWidgetArea);
  tabifyDockWidget(summary_dock, charts_dock);
  tabifyDockWidget(charts_dock, host_dock);
  tabifyDockWidget(host_dock, prediction_dock);
  tabifyDockWidget(kernel_dock, transfer_dock);
  tabifyDockWidget(transfer_dock, collective_dock_);
  summary_dock->raise();
  kernel_dock->raise();
  // The summary's table is ~100 columns of fixed-width text: give the right-hand docks room for most of it.
  resizeDocks({summary_dock}, {560}, Qt::Horizontal);

  connect(timeline_, &TimelineView::event_selected, details_, &QPlainTextEdit::setPlainText);
  connect(kernel_table_, &QTableView::clicked, this, [this](const QModelIndex& index) { select_kernel_row(index.row()); });
  connect(step_table_, &QTableView::clicked, this, [this](const QModelIndex& index) { select_step_row(index.row()); });
}

void MainWindow::build_menus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    const auto paths = QFileDialog::getOpenFileNames(this, tr("Open traces (one file per rank)"), QString(),
                                                     tr("Traces (*.sqlite *.json *.json.gz *.gz *.nsys-rep *);;All files (*)"));
    if (!paths.isEmpty()) open_files(paths);
  });
  file->addAction(tr("Open &job folder..."), this, [this] {
    const auto folder = QFileDialog::getExistingDirectory(this, tr("Open a job: a folder with one trace per rank"));
    if (!folder.isEmpty()) open_files({folder});
  });
  file->addAction(tr("&Compare runs..."), this, &MainWindow::choose_compare);
  recent_menu_ = file->addMenu(tr("Open &recent"));
  rebuild_recent_menu();
  file->addSeparator();
  file->addAction(tr("Export report as &HTML..."), this, [this] { export_report(true); });
  file->addAction(tr("Export report as &CSV..."), this, [this] { export_report(false); });
  file->addAction(tr("Export view as &PNG..."), this, &MainWindow::export_png);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  auto* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { timeline_->zoom_by(1.25); });
  view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { timeline_->zoom_by(0.8); });
  view->addAction(tr("&Fit all"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] { timeline_->fit_all(); });
  view->addSeparator();
  const auto add_layout_toggle = [this, view](const QString& text, bool LayoutOptions::*option) {
    auto* action = view->addAction(text);
    action->setCheckable(true);
    connect(action, &QAction::toggled, this, [this, option](bool on) {
      auto options = timeline_->layout_options();
      options.*option = on;
      timeline_->set_layout_options(options);
    });
    return action;
  };
  add_layout_toggle(tr("Show GPUs without &activity"), &LayoutOptions::show_idle_devices);
  add_layout_toggle(tr("Draw ranks on their own &clocks"), &LayoutOptions::raw_clocks);
  compact_action_ = add_layout_toggle(tr("&Compact: one row per GPU"), &LayoutOptions::compact);
  for (auto* dock : docks_) view->addAction(dock->toggleViewAction());
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  for (const auto& job : recent_.jobs()) {
    recent_menu_->addAction(file_names(job), this, [this, job] { open_files(job); });
  }
  recent_menu_->setEnabled(!recent_menu_->isEmpty());
}

void MainWindow::open_files(const QStringList& paths) {
  if (paths.isEmpty()) return;
  pending_paths_ = paths;
  comparing_ = false;
  error_banner_->hide();
  warning_banner_->hide();
  set_loading(true);
  loader_->start(paths);
}

void MainWindow::compare_files(const QStringList& base, const QStringList& other) {
  if (base.isEmpty() || other.isEmpty()) return;
  comparing_ = true;
  compare_base_.reset();
  compare_base_paths_ = base;
  compare_other_ = other;
  error_banner_->hide();
  set_loading(true);
  loader_->start(base);
}

void MainWindow::choose_compare() {
  const auto base = QFileDialog::getOpenFileNames(this, tr("Base run (e.g. 1 GPU): one file per rank"));
  if (base.isEmpty()) return;
  const auto other = QFileDialog::getOpenFileNames(this, tr("Other run (e.g. 2 GPUs): one file per rank"));
  compare_files(base, other);
}

void MainWindow::cancel_loading() { loader_->cancel(); }

bool MainWindow::loading() const { return loader_->busy(); }

QString MainWindow::error_text() const { return error_banner_->isVisible() || !error_banner_->isHidden() ? error_banner_->text() : QString(); }

QList<QDockWidget*> MainWindow::docks() const { return {docks_.begin(), docks_.end()}; }

void MainWindow::set_loading(bool loading) {
  load_bar_->setVisible(loading);
  progress_->setRange(0, 0);
  load_label_->setText(tr("Loading..."));
}

// Data loss recorded by the collector or an importer, one line each, the same lines `gpuprof report` prints.
void MainWindow::show_warnings() {
  QStringList lines;
  for (const auto& rank : session_->ranks) {
    for (const auto& warning : rank->analysis.warnings) {
      lines << tr("Warning: rank %1: %2").arg(rank->analysis.rank).arg(QString::fromStdString(warning));
    }
  }
  warning_banner_->setText(lines.join(QLatin1Char('\n')));
  warning_banner_->setVisible(!lines.isEmpty());
}

QString MainWindow::summary_text() const { return summary_->toPlainText(); }

QString MainWindow::warning_text() const { return warning_banner_->isHidden() ? QString() : warning_banner_->text(); }

void MainWindow::show_error(const QString& message) {
  error_banner_->setText(tr("Could not open the trace. %1").arg(message));
  error_banner_->show();
}

// The first timeline, before the analyses: the docks that need them are emptied until they arrive.
void MainWindow::show_timeline(std::shared_ptr<const Session> session) {
  session_ = std::move(session);
  if (session_) setWindowTitle(tr("gpuprof: %1").arg(file_names(pending_paths_)));
  // Many ranks open compact, so the whole job (and its straggler) is on the first screen.
  if (session_) compact_action_->setChecked(session_->ranks.size() >= kCompactFromRanks);
  timeline_->set_session(session_);
  summary_->clear();
  breakdown_->set_session(nullptr);
  idle_causes_->set_session(nullptr);
  memory_->set_session(nullptr);
  heat_map_->set_session(nullptr);
  // The host summaries (computed when their dock shows) wait for the analyses, so that opening never computes
  // them beside the first timeline; the Prediction dock waits for the launch details read beside the analyses.
  host_summaries_->set_session(nullptr);
  prediction_->set_session(nullptr);
  for (auto* proxy : {kernel_proxy_, step_proxy_, transfer_proxy_, collective_proxy_}) replace_source(proxy, nullptr);
  warning_banner_->hide();
  if (session_) statusBar()->showMessage(tr("%1 events in %2 rank(s); analysing").arg(session_->event_count()).arg(session_->ranks.size()));
}

// The analyses, stored in the session drawn since show_timeline: steps, gaps and aligned clocks join the
// timeline where the user left it, the docks fill.
void MainWindow::show_analyses(const std::shared_ptr<const Session>& session) {
  if (session != session_) show_timeline(session);
  timeline_->refresh();
  host_summaries_->set_session(session_);
  prediction_->set_session(session_);
  summary_->setPlainText(QString::fromStdString(gui::summary_text(*session_)));
  breakdown_->set_session(session_.get());
  idle_causes_->set_session(session_.get());
  memory_->set_session(session_.get());
  heat_map_->set_session(session_.get());
  replace_source(kernel_proxy_, make_kernel_model(*session_, this));
  replace_source(step_proxy_, make_step_model(*session_, this));
  replace_source(transfer_proxy_, make_transfer_model(*session_, this));
  replace_source(collective_proxy_, make_collective_model(*session_, this));
  for (auto* table : {kernel_table_, step_table_, transfer_table_, collective_table_}) table->resizeColumnsToContents();
  // An empty table alone would read as "no collectives ran"; say that the metadata is what is missing.
  const bool collectives_known = collective_proxy_->rowCount() > 0;
  collective_dock_->setWindowTitle(collectives_known ? tr("Collectives") : tr("Collectives (no metadata)"));
  collective_table_->setToolTip(collectives_known
                                    ? QString()
                                    : tr("These traces carry no collective metadata (name, message size, group). "
                                         "PyTorch profiler traces of NCCL kernels do; the gpuprof collector, "
                                         "Nsight Systems and nvprof files do not."));
  kernel_table_->setColumnWidth(kKernelNameColumn, 320);
  kernel_table_->sortByColumn(kKernelTotalColumn, Qt::DescendingOrder);
  show_warnings();
  std::size_t notices = 0;
  for (const auto& rank : session_->ranks) notices += rank->analysis.notices.size();
  statusBar()->showMessage(tr("%1 events in %2 rank(s)%3")
                               .arg(session_->event_count())
                               .arg(session_->ranks.size())
                               .arg(notices ? tr(", %1 analysis notice(s)").arg(notices) : QString()));
}

void MainWindow::select_kernel_row(int proxy_row) {
  // The payload is the full name: short names are shared by several kernels.
  const QString name = kernel_proxy_->index(proxy_row, 0).data(TableModel::PayloadRole).toString();
  timeline_->highlight_kernel(name);
  statusBar()->showMessage(tr("%1: %2 instance(s) highlighted").arg(name).arg(timeline_->highlighted_instances()));
}

void MainWindow::select_step_row(int proxy_row) {
  const auto range = step_proxy_->index(proxy_row, 0).data(TableModel::PayloadRole).value<QList<qint64>>();
  if (range.size() == 3) timeline_->zoom_to_rank_range(static_cast<std::size_t>(range[2]), range[0], range[1]);
}

void MainWindow::export_report(bool html) {
  if (!session_) return;
  const QString path = html ? QFileDialog::getSaveFileName(this, tr("Export report"), QStringLiteral("report.html"),
                                                           tr("HTML (*.html)"))
                            : QFileDialog::getExistingDirectory(this, tr("Export CSV tables into folder"));
  if (path.isEmpty()) return;
  try {
    gui::export_report(*session_, html ? report::Format::html : report::Format::csv,
                       html ? path.toStdString() : (path + QLatin1Char('/')).toStdString());
    statusBar()->showMessage(tr("Report written to %1").arg(path), 5000);
  } catch (const std::exception& error) {
    show_error(QString::fromUtf8(error.what()));
  }
}

void MainWindow::export_png() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), QStringLiteral("timeline.png"),
                                                    tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  if (!timeline_->render_image(timeline_->size()).save(path, "PNG")) show_error(tr("%1: cannot write the image").arg(path));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const auto& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) paths << url.toLocalFile();
  }
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  open_files(paths);
}

}  // namespace gpuprof::gui
