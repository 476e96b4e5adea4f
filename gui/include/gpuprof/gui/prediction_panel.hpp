#pragma once

// `gpuprof predict TRACE [PER_GPU_TRACE] --gpus N[,N…]` for the open trace (issue 29, item 4): controls for
// the GPU counts, strategy, scaling, all-reduce schedule, link preset (or the user's nccl-tests files),
// synchronisation (--sync) and machine topology (--topology), gradient and split sizes, and the optional trace recorded at the per-GPU batch; one row per GPU count
// (predicted step, band, speedup, efficiency, verdict) in the text output's words; for the selected row the
// terms as a waterfall and the replayed step of one replica beside the measured one, with the context, the
// notes and the host warning. The analyzer reads the request and the second trace (predict::options_of,
// predict::load_prediction_trace, predict::predict) on a worker thread when asked; the panel only shows it.
// A job of several ranks is not predicted: the prediction reads a 1-GPU trace.

#include <QString>
#include <QWidget>
#include <memory>
#include <optional>

#include "gpuprof/gui/background_job.hpp"
#include "gpuprof/gui/session.hpp"
#include "gpuprof/predict/predict_request.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gpuprof::gui {

class StepTimelineChart;
class TableModel;
class WaterfallChart;

class PredictionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PredictionPanel(QWidget* parent = nullptr);
  ~PredictionPanel() override;

  // Forgets the previous trace's prediction and per-GPU-batch trace (it was recorded for that trace); a job
  // of several ranks disables the controls and says why.
  void set_session(std::shared_ptr<const Session> session);
  // The controls as a request (the GPU counts as typed, for the analyzer to read), and back.
  predict::PredictRequest request() const;
  void set_request(const predict::PredictRequest& request);
  // The trace at the per-GPU batch, `gpuprof predict`'s second argument: what "Per-GPU-batch trace…" picks;
  // empty clears it (Clear).
  void set_per_gpu_trace(const QString& path);
  const QString& per_gpu_trace() const { return per_gpu_trace_; }
  // What the Predict button does: the current request, on a worker thread.
  void start_prediction();
  // Shows the waterfall and the replayed step of prediction()->rows[index] (what selecting its row does).
  void select_row(std::size_t index);

  bool busy() const { return job_->busy(); }
  // The last prediction shown, for the current session (empty before one, after an error or another open).
  const std::optional<predict::Prediction>& prediction() const { return prediction_; }
  std::size_t selected_row() const { return selected_row_; }  // the row the charts show
  QString result_text() const;  // the selected row's figures, the context and notes as shown (plain text)
  QString error_text() const;   // the one-line error of the last request, or why the trace cannot be predicted
  QString per_gpu_trace_label() const;  // what the panel says of the per-GPU-batch trace
  QTableView* rows_table() const { return rows_view_; }
  WaterfallChart* waterfall() const { return waterfall_; }
  StepTimelineChart* step_chart() const { return step_chart_; }
  QPushButton* predict_button() const { return predict_button_; }
  QPushButton* per_gpu_button() const { return per_gpu_button_; }
  QPushButton* per_gpu_clear_button() const { return per_gpu_clear_; }

 signals:
  void prediction_shown();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // the table's width: fit_rows_table

 private:
  QWidget* build_controls();
  QWidget* build_per_gpu_trace_controls();
  QTableView* build_rows_table();
  void enable_controls();
  void show_prediction(predict::Prediction prediction);
  void show_row(std::size_t index);  // its figures, waterfall and replayed step
  void show_error(const QString& message);
  void clear_results();
  void show_charts(bool visible);  // empty charts would only show an axis of nothing
  void fit_rows_table();           // as tall as its rows: the panel scrolls, the table never hides a row

  std::shared_ptr<const Session> session_;
  std::optional<predict::Prediction> prediction_;
  std::size_t selected_row_ = 0;
  QString per_gpu_trace_;
  QLineEdit* gpus_ = nullptr;
  QComboBox* strategy_ = nullptr;
  QComboBox* scaling_ = nullptr;
  QComboBox* allreduce_ = nullptr;
  QComboBox* link_ = nullptr;
  QLineEdit* link_files_ = nullptr;
  QComboBox* sync_ = nullptr;
  QLineEdit* topology_ = nullptr;
  QLineEdit* grad_bytes_ = nullptr;
  QLineEdit* split_bytes_ = nullptr;
  QLabel* per_gpu_name_ = nullptr;
  QPushButton* per_gpu_button_ = nullptr;
  QPushButton* per_gpu_clear_ = nullptr;
  QPushButton* predict_button_ = nullptr;
  QLabel* result_ = nullptr;
  QLabel* error_ = nullptr;
  TableModel* rows_model_ = nullptr;
  QSortFilterProxyModel* rows_proxy_ = nullptr;
  QTableView* rows_view_ = nullptr;
  WaterfallChart* waterfall_ = nullptr;
  StepTimelineChart* step_chart_ = nullptr;
  BackgroundJob* job_ = nullptr;  // one prediction at a time; the newest request or open wins
};

}  // namespace gpuprof::gui
