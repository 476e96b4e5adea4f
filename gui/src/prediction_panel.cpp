#include "gpuprof/gui/prediction_panel.hpp"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include "gpuprof/gui/models/prediction_rows.hpp"
#include "gpuprof/gui/step_timeline_chart.hpp"
#include "gpuprof/gui/table_views.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/predict/prediction_waterfall.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

QString step_title(const QString& what, const predict::StepTimeline& step) {
  return QObject::tr("%1: step %2, %3").arg(what).arg(step.step).arg(q(units::format_duration(step.step_ns)));
}

// `gpuprof predict` itself, off the GUI thread: the request read as the command line reads it, the second
// trace loaded as the command line loads its second argument.
predict::Prediction predict_for(const Session& session, const predict::PredictRequest& request,
                                const std::string& per_gpu_trace) {
  const auto& open = session.ranks.front();
  std::vector<std::string> paths{open->source_path};
  if (!per_gpu_trace.empty()) paths.push_back(per_gpu_trace);
  auto options = predict::check_prediction(request, paths).options;  // every option and path, first
  options.step_timelines = true;
  // A trace opened without its launch details (LoadedRank::launch_details_problem) is read as the command line
  // reads it: the grids can size the gradients.
  std::optional<trace::TraceModel> reread;
  const bool complete = open->model.kernels.grid.size() == open->model.kernels.size();
  std::vector<const trace::TraceModel*> models{
      complete ? &open->model : &reread.emplace(predict::load_prediction_trace(open->source_path))};
  std::optional<trace::TraceModel> per_gpu;
  if (!per_gpu_trace.empty()) models.push_back(&per_gpu.emplace(predict::load_prediction_trace(per_gpu_trace)));
  return predict::predict(models, options);
}

}  // namespace

PredictionPanel::PredictionPanel(QWidget* parent) : QWidget(parent) {
  result_ = new QLabel;
  result_->setWordWrap(true);
  result_->setTextFormat(Qt::RichText);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_ = new QLabel;
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b00020;"));
  error_->hide();
  waterfall_ = new WaterfallChart;
  step_chart_ = new StepTimelineChart;
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  // Narrow sides: the waterfall's minimum width (its longest term name) and the style's 9 px margins were 8 px
  // wider than the dock's 560 px less its vertical scroll bar, so it scrolled sideways after every prediction.
  const auto margins = column->contentsMargins();
  column->setContentsMargins(2, margins.top(), 2, margins.bottom());
  column->addWidget(build_controls());
  column->addWidget(error_);
  column->addWidget(build_rows_table());
  column->addWidget(result_);
  column->addWidget(waterfall_);
  column->addWidget(step_chart_);
  // The room left below the charts stays empty instead of stretching the rows of the waterfall or the controls.
  column->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
  job_ = new BackgroundJob(this);
  connect(job_, &BackgroundJob::idle, this, &PredictionPanel::enable_controls);
  clear_results();
  enable_controls();
}

PredictionPanel::~PredictionPanel() = default;  // the job waits for its worker, which reads the session

QTableView* PredictionPanel::build_rows_table() {
  rows_model_ = new TableModel(prediction_row_headers(), this);
  rows_proxy_ = make_proxy(this);
  rows_proxy_->setSourceModel(rows_model_);
  rows_view_ = make_table(rows_proxy_);
  // The GPU counts in the order asked, as the text output lists them, until a header is clicked.
  rows_view_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  // One line per GPU count: the verdict is elided to the width the figures leave, and the selected row's
  // whole verdict is the second line of the details under the table (wrapped in a dock beside the timeline,
  // it made each row ten lines tall and two rows fill the dock).
  rows_view_->setWordWrap(false);
  rows_view_->setTextElideMode(Qt::ElideRight);
  rows_view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // A wider or narrower table gives the verdicts more or less room.
  rows_view_->viewport()->installEventFilter(this);
  connect(rows_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) show_row(static_cast<std::size_t>(rows_proxy_->mapToSource(current).row()));
          });
  return rows_view_;
}

bool PredictionPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == rows_view_->viewport() && event->type() == QEvent::Resize) fit_rows_table();
  return QWidget::eventFilter(watched, event);
}

void PredictionPanel::fit_rows_table() {
  // The figures as wide as their widest cell or header; the verdict the rest of the width.
  fit_columns(rows_view_, kPredictionVerdictColumn, kPredictionVerdictColumn + 1);
  rows_view_->resizeRowsToContents();
  const auto* sideways = rows_view_->horizontalScrollBar();
  rows_view_->setFixedHeight(rows_view_->horizontalHeader()->height() + rows_view_->verticalHeader()->length() +
                             2 * rows_view_->frameWidth() + (sideways->isVisible() ? sideways->height() : 0));
}

void PredictionPanel::set_session(std::shared_ptr<const Session> session) {
  session_ = std::move(session);
  job_->drop();  // a prediction for the previous trace is not shown
  clear_results();
  set_per_gpu_trace({});
  enable_controls();
  if (session_ && session_->ranks.size() > 1)
    show_error(tr("The prediction reads a 1-GPU trace and this is a job of %1 ranks: open the trace of a 1-GPU run "
                  "(gpuprof predict FILE --gpus N gives the same figures).")
                   .arg(session_->ranks.size()));
}

void PredictionPanel::start_prediction() {
  if (!session_ || session_->ranks.size() != 1) return;
  clear_results();
  result_->setText(tr("Predicting…"));
  job_->start([this, session = session_, wanted = request(),
               per_gpu = per_gpu_trace_.toStdString()]() -> std::function<void()> {
    try {
      return [this, prediction = predict_for(*session, wanted, per_gpu)]() mutable {
        show_prediction(std::move(prediction));
      };
    } catch (const std::exception& failure) {
      return [this, error = QString::fromStdString(failure.what())] { show_error(error); };
    }
  });
  enable_controls();
}

void PredictionPanel::clear_results() {
  prediction_.reset();
  selected_row_ = 0;
  error_->clear();
  error_->hide();
  result_->setText(
      tr("Choose the GPU counts (e.g. 2,4,8), strategy and link, then Predict: the step time of one replica on N "
         "GPUs, predicted from this 1-GPU trace and, for strong scaling, optionally a trace recorded at the per-GPU "
         "batch (gpuprof predict)."));
  rows_model_->set_rows({});
  rows_view_->hide();
  // Empty charts would only show an axis of nothing: they appear with a prediction.
  waterfall_->set_bars({}, QString());
  step_chart_->set_steps({}, QString(), {}, QString());
  show_charts(false);
}

void PredictionPanel::show_charts(bool visible) {
  waterfall_->setVisible(visible);
  step_chart_->setVisible(visible);
}

void PredictionPanel::show_error(const QString& message) {
  prediction_.reset();
  result_->clear();
  error_->setText(message);
  error_->show();
}

void PredictionPanel::show_prediction(predict::Prediction prediction) {
  prediction_ = std::move(prediction);
  rows_model_->set_rows(prediction_rows(*prediction_));
  rows_view_->show();
  fit_rows_table();
  select_row(0);
  emit prediction_shown();
}

void PredictionPanel::select_row(std::size_t index) {
  if (!prediction_ || index >= prediction_->rows.size()) return;
  // Selecting the row in the table shows it (currentRowChanged), as a click does.
  const int row = rows_proxy_->mapFromSource(rows_model_->index(static_cast<int>(index), 0)).row();
  if (rows_view_->currentIndex().row() == row)
    show_row(index);
  else
    rows_view_->selectRow(row);
}

void PredictionPanel::show_row(std::size_t index) {
  if (!prediction_ || index >= prediction_->rows.size()) return;
  selected_row_ = index;
  const auto& p = *prediction_;
  const auto& row = p.rows[index];
  QString html =
      QStringLiteral("<b>%1</b><br>%2").arg(q(row_headline(row)).toHtmlEscaped(), q(row.verdict).toHtmlEscaped());
  for (const auto& line : predict::prediction_context(p)) html += QStringLiteral("<br>") + q(line).toHtmlEscaped();
  for (const auto& note : p.notes) html += QStringLiteral("<br><i>note: %1</i>").arg(q(note).toHtmlEscaped());
  html += QStringLiteral("<br><b>warning:</b> %1").arg(q(predict::host_warning(p)).toHtmlEscaped());
  result_->setText(html);
  waterfall_->set_bars(predict::prediction_waterfall(p, row),
                       tr("Step time waterfall: measured 1-GPU step → predicted step of one replica on %1 GPUs, the "
                          "terms largest first, ms per step (red: slower, green: faster)")
                           .arg(row.gpus));
  step_chart_->set_steps(
      p.measured_step, step_title(tr("Measured on 1 GPU"), p.measured_step), row.replayed_step,
      step_title(tr("Replayed, one replica of %1 GPUs (red: inserted by the prediction)").arg(row.gpus),
                 row.replayed_step));
  show_charts(true);
}

QString PredictionPanel::result_text() const {
  QTextDocument document;
  document.setHtml(result_->text());
  return document.toPlainText();
}

QString PredictionPanel::error_text() const { return error_->text(); }

}  // namespace gpuprof::gui
