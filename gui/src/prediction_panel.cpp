#include "gpuprof/gui/prediction_panel.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QTextDocument>
#include <QVBoxLayout>

#include "gpuprof/gui/step_timeline_chart.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/prediction_waterfall.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

QComboBox* combo(const std::vector<std::string>& names) {
  auto* box = new QComboBox;
  for (const auto& name : names) box->addItem(q(name));
  return box;
}

// A whole number of bytes, or empty for "not given".
QLineEdit* bytes_field(const QString& placeholder) {
  auto* field = new QLineEdit;
  field->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,18}")), field));
  field->setPlaceholderText(placeholder);
  return field;
}

std::optional<std::int64_t> bytes_of(const QLineEdit* field) {
  if (field->text().isEmpty()) return std::nullopt;
  return field->text().toLongLong();
}

QString bytes_text(const std::optional<std::int64_t>& bytes) { return bytes ? QString::number(*bytes) : QString(); }

QString step_title(const QString& what, const predict::StepTimeline& step) {
  return QObject::tr("%1: step %2, %3").arg(what).arg(step.step).arg(q(units::format_duration(step.step_ns)));
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
  column->addWidget(build_controls());
  column->addWidget(error_);
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
  clear_results();
}

PredictionPanel::~PredictionPanel() {
  if (worker_) worker_->wait();  // it reads the session; its result is then dropped with this panel
}

QWidget* PredictionPanel::build_controls() {
  gpus_ = new QSpinBox;
  gpus_->setRange(1, 65536);
  gpus_->setValue(2);
  strategy_ = combo(predict::strategy_names());
  scaling_ = combo(predict::scaling_names());
  allreduce_ = combo(predict::allreduce_names());
  link_ = combo(predict::link_preset_names());
  link_->setCurrentText(QStringLiteral("nvlink3"));
  link_files_ = new QLineEdit;
  link_files_->setPlaceholderText(tr("optional: all_reduce_perf outputs, separated by ;"));
  auto* browse = new QPushButton(tr("Link files…"));
  connect(browse, &QPushButton::clicked, this, [this] {
    const auto files = QFileDialog::getOpenFileNames(this, tr("nccl-tests all_reduce_perf outputs"));
    if (!files.isEmpty()) link_files_->setText(files.join(QStringLiteral("; ")));
  });
  grad_bytes_ = bytes_field(tr("from the trace, else required"));
  split_bytes_ = bytes_field(tr("placement only"));
  predict_button_ = new QPushButton(tr("Predict"));
  connect(predict_button_, &QPushButton::clicked, this, &PredictionPanel::start_prediction);
  auto* box = new QWidget;
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  const std::vector<std::pair<QString, QWidget*>> fields{{tr("GPUs"), gpus_},
                                                         {tr("Strategy"), strategy_},
                                                         {tr("Scaling"), scaling_},
                                                         {tr("Link"), link_},
                                                         {tr("All-reduce"), allreduce_},
                                                         {tr("Gradient bytes"), grad_bytes_},
                                                         {tr("Split bytes"), split_bytes_}};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const int row = static_cast<int>(i / 3), column = static_cast<int>(i % 3) * 2;
    grid->addWidget(new QLabel(fields[i].first), row, column);
    grid->addWidget(fields[i].second, row, column + 1);
  }
  grid->addWidget(new QLabel(tr("Link files")), 2, 2);
  grid->addWidget(link_files_, 2, 3);
  grid->addWidget(browse, 2, 4);
  grid->addWidget(predict_button_, 2, 5);
  return box;
}

void PredictionPanel::set_session(std::shared_ptr<const Session> session) {
  session_ = std::move(session);
  ++generation_;
  clear_results();
  const bool job = session_ && session_->ranks.size() > 1;
  predict_button_->setEnabled(session_ && !job);
  if (job)
    show_error(tr("The prediction reads a 1-GPU trace and this is a job of %1 ranks: open the trace of a 1-GPU run "
                  "(gpuprof predict FILE --gpus N gives the same figures).")
                   .arg(session_->ranks.size()));
}

predict::PredictRequest PredictionPanel::request() const {
  predict::PredictRequest request;
  request.gpus = {gpus_->value()};
  request.strategy = strategy_->currentText().toStdString();
  request.scaling = scaling_->currentText().toStdString();
  request.allreduce = allreduce_->currentText().toStdString();
  request.link = link_->currentText().toStdString();
  for (const auto& file : link_files_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
    if (!file.trimmed().isEmpty()) request.link_files.push_back(file.trimmed().toStdString());
  request.grad_bytes = bytes_of(grad_bytes_);
  request.split_bytes = bytes_of(split_bytes_);
  if (session_) request.step_pattern = session_->step_pattern;
  return request;
}

void PredictionPanel::set_request(const predict::PredictRequest& request) {
  if (!request.gpus.empty()) gpus_->setValue(request.gpus.front());
  strategy_->setCurrentText(q(request.strategy));
  scaling_->setCurrentText(q(request.scaling));
  allreduce_->setCurrentText(q(request.allreduce));
  link_->setCurrentText(q(request.link));
  QStringList files;
  for (const auto& file : request.link_files) files << q(file);
  link_files_->setText(files.join(QStringLiteral("; ")));
  grad_bytes_->setText(bytes_text(request.grad_bytes));
  split_bytes_->setText(bytes_text(request.split_bytes));
}

void PredictionPanel::start_prediction() {
  if (!session_ || session_->ranks.size() != 1) return;
  const auto generation = ++generation_;
  clear_results();
  if (busy_) {
    // One worker at a time: this request runs once the current one has finished (its result is dropped).
    connect(
        worker_, &QThread::finished, this,
        [this, generation] {
          if (generation == generation_) start_prediction();
        },
        Qt::SingleShotConnection);
    return;
  }
  busy_ = true;
  predict_button_->setEnabled(false);
  result_->setText(tr("Predicting…"));
  QPointer<PredictionPanel> self(this);
  worker_ = QThread::create([self, generation, session = session_, wanted = request()] {
    std::optional<predict::Prediction> prediction;
    QString error;
    try {
      auto options = predict::options_of(wanted);
      options.step_timelines = true;
      prediction = predict::predict({&session->ranks.front()->model}, options);
    } catch (const std::exception& failure) {
      error = QString::fromStdString(failure.what());
    }
    QMetaObject::invokeMethod(
        self,
        [self, generation, prediction = std::move(prediction), error]() mutable {
          if (!self || generation != self->generation_) return;  // another request or trace came since
          if (prediction)
            self->show_prediction(std::move(*prediction));
          else
            self->show_error(error);
        },
        Qt::QueuedConnection);
  });
  connect(worker_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &QThread::finished, this, [this] {
    busy_ = false;
    predict_button_->setEnabled(session_ && session_->ranks.size() == 1);
  });
  worker_->start();
}

void PredictionPanel::clear_results() {
  prediction_.reset();
  error_->clear();
  error_->hide();
  result_->setText(
      tr("Choose the GPU count, strategy and link, then Predict: the step time of one replica on N "
         "GPUs, predicted from this 1-GPU trace (gpuprof predict)."));
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
  const auto& p = *prediction_;
  const auto& row = p.rows.front();
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
  emit prediction_shown();
}

QString PredictionPanel::result_text() const {
  QTextDocument document;
  document.setHtml(result_->text());
  return document.toPlainText();
}

QString PredictionPanel::error_text() const { return error_->text(); }

}  // namespace gpuprof::gui
