// The Prediction panel's controls: `gpuprof predict`'s options and second trace, and the request they make.
// Nothing here checks a value: the analyzer's options_of reads the request exactly as it reads the command line.

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>

#include "gpuprof/gui/prediction_panel.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/sync_model.hpp"

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

// The analyzer's names, after a first choice that leaves the option out (the command line's default, which
// `explained` says); the request carries the chosen name, or nothing for the first.
QComboBox* combo_with_default(const std::vector<std::string>& names, const QString& explained) {
  auto* box = new QComboBox;
  box->addItem(QObject::tr("default"), QString());
  box->setItemData(0, explained, Qt::ToolTipRole);
  for (const auto& name : names) box->addItem(q(name), q(name));
  box->setToolTip(explained);
  return box;
}

std::string chosen_name(const QComboBox* box) { return box->currentData().toString().toStdString(); }

// A name the analyzer does not know is added, not dropped: Predict then says what is wrong with it.
void choose_name(QComboBox* box, const std::string& name) {
  if (box->findData(q(name)) < 0) box->addItem(q(name), q(name));
  box->setCurrentIndex(box->findData(q(name)));
}

// A file name as typed or picked, with a button that picks it.
QWidget* file_row(QLineEdit* field, QPushButton* browse) {
  auto* box = new QWidget;
  auto* row = new QHBoxLayout(box);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(field, 1);
  row->addWidget(browse);
  return box;
}

}  // namespace

QWidget* PredictionPanel::build_controls() {
  // The counts as typed: the analyzer's parser (the one `--gpus` uses) says what is wrong with them.
  gpus_ = new QLineEdit(QStringLiteral("2"));
  gpus_->setPlaceholderText(tr("e.g. 2,4,8"));
  strategy_ = combo(predict::strategy_names());
  scaling_ = combo(predict::scaling_names());
  allreduce_ = combo(predict::allreduce_names());
  link_ = combo_with_default(predict::link_preset_names(),
                             tr("--link: the default is chosen from the trace's GPU, and the result says which"));
  sync_ = combo_with_default(predict::sync_names(),
                             tr("--sync: the default is ring all-reduce; on a link without peer access the band "
                                "covers the parameter servers"));
  link_files_ = new QLineEdit;
  link_files_->setPlaceholderText(tr("optional: all_reduce_perf outputs"));
  link_files_->setToolTip(tr("nccl-tests all_reduce_perf outputs, separated by ;"));
  auto* browse = new QPushButton(tr("Link files…"));
  connect(browse, &QPushButton::clicked, this, [this] {
    const auto files = QFileDialog::getOpenFileNames(this, tr("nccl-tests all_reduce_perf outputs"));
    if (!files.isEmpty()) link_files_->setText(files.join(QStringLiteral("; ")));
  });
  topology_ = new QLineEdit;
  topology_->setPlaceholderText(tr("optional: nvidia-smi topo -m output"));
  topology_->setToolTip(tr("The machine's `nvidia-smi topo -m` output: a job on N GPUs uses GPUs 0 to N-1"));
  auto* browse_topology = new QPushButton(tr("Topology…"));
  connect(browse_topology, &QPushButton::clicked, this, [this] {
    const auto file = QFileDialog::getOpenFileName(this, tr("nvidia-smi topo -m output"));
    if (!file.isEmpty()) topology_->setText(file);
  });
  grad_bytes_ = bytes_field(tr("from the trace, else required"));
  split_bytes_ = bytes_field(tr("placement only"));
  predict_button_ = new QPushButton(tr("Predict"));
  connect(predict_button_, &QPushButton::clicked, this, &PredictionPanel::start_prediction);
  // Two short choices a line, and a line of its own for each field whose placeholder is a sentence: the grid
  // fits a dock beside the timeline without cutting a placeholder or scrolling sideways.
  auto* box = new QWidget;
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  const auto pair = [grid](int row, int column, const QString& label, QWidget* field) {
    grid->addWidget(new QLabel(label), row, column);
    grid->addWidget(field, row, column + 1);
  };
  pair(0, 0, tr("GPUs"), gpus_);
  pair(0, 2, tr("Strategy"), strategy_);
  pair(1, 0, tr("Scaling"), scaling_);
  pair(1, 2, tr("All-reduce"), allreduce_);
  pair(2, 0, tr("Link"), link_);
  pair(2, 2, tr("Sync"), sync_);
  const auto line = [grid](int row, const QString& label, QWidget* field) {
    grid->addWidget(new QLabel(label), row, 0);
    grid->addWidget(field, row, 1, 1, 3);
  };
  line(3, tr("Gradient bytes"), grad_bytes_);
  line(4, tr("Split bytes"), split_bytes_);
  line(5, tr("Link files"), file_row(link_files_, browse));
  line(6, tr("Topology"), file_row(topology_, browse_topology));
  line(7, tr("Per-GPU batch"), build_per_gpu_trace_controls());
  // Below every option it reads, at the right, where the eye ends after setting them.
  grid->addWidget(predict_button_, 8, 3, Qt::AlignRight);
  grid->setColumnStretch(1, 1);
  grid->setColumnStretch(3, 1);
  return box;
}

QWidget* PredictionPanel::build_per_gpu_trace_controls() {
  per_gpu_name_ = new QLabel;
  per_gpu_name_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  per_gpu_button_ = new QPushButton(tr("Per-GPU-batch trace…"));
  per_gpu_button_->setToolTip(tr("Strong scaling: a 1-GPU trace recorded at the per-GPU batch (global batch / N), "
                                 "as the second trace of gpuprof predict"));
  connect(per_gpu_button_, &QPushButton::clicked, this, [this] {
    const auto file = QFileDialog::getOpenFileName(this, tr("1-GPU trace at the per-GPU batch"));
    if (!file.isEmpty()) set_per_gpu_trace(file);
  });
  per_gpu_clear_ = new QPushButton(tr("Clear"));
  connect(per_gpu_clear_, &QPushButton::clicked, this, [this] { set_per_gpu_trace({}); });
  auto* box = new QWidget;
  auto* row = new QHBoxLayout(box);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(per_gpu_name_, 1);
  row->addWidget(per_gpu_button_);
  row->addWidget(per_gpu_clear_);
  set_per_gpu_trace({});
  return box;
}

void PredictionPanel::set_per_gpu_trace(const QString& path) {
  per_gpu_trace_ = path;
  // The name is what one recognises; the whole path is in the tooltip and in the prediction's context line.
  per_gpu_name_->setText(path.isEmpty() ? tr("none: the open trace alone") : QFileInfo(path).fileName());
  per_gpu_name_->setToolTip(path);
  per_gpu_clear_->setEnabled(!path.isEmpty());
}

QString PredictionPanel::per_gpu_trace_label() const { return per_gpu_name_->text(); }

void PredictionPanel::enable_controls() {
  const bool one_gpu = session_ && session_->ranks.size() == 1;
  predict_button_->setEnabled(one_gpu && !job_->busy());
  per_gpu_button_->setEnabled(one_gpu);
}

predict::PredictRequest PredictionPanel::request() const {
  predict::PredictRequest request;
  request.gpus = gpus_->text().toStdString();
  request.strategy = strategy_->currentText().toStdString();
  request.scaling = scaling_->currentText().toStdString();
  request.allreduce = allreduce_->currentText().toStdString();
  request.link = chosen_name(link_);
  request.sync = chosen_name(sync_);
  request.topology = topology_->text().trimmed().toStdString();
  for (const auto& file : link_files_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
    if (!file.trimmed().isEmpty()) request.link_files.push_back(file.trimmed().toStdString());
  request.grad_bytes = bytes_of(grad_bytes_);
  request.split_bytes = bytes_of(split_bytes_);
  if (session_) request.step_pattern = session_->step_pattern;
  return request;
}

void PredictionPanel::set_request(const predict::PredictRequest& request) {
  gpus_->setText(q(request.gpus));
  strategy_->setCurrentText(q(request.strategy));
  scaling_->setCurrentText(q(request.scaling));
  allreduce_->setCurrentText(q(request.allreduce));
  choose_name(link_, request.link);
  choose_name(sync_, request.sync);
  topology_->setText(q(request.topology));
  QStringList files;
  for (const auto& file : request.link_files) files << q(file);
  link_files_->setText(files.join(QStringLiteral("; ")));
  grad_bytes_->setText(bytes_text(request.grad_bytes));
  split_bytes_->setText(bytes_text(request.split_bytes));
}

}  // namespace gpuprof::gui
