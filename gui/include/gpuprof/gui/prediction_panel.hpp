#pragma once

// `gpuprof predict` for the open trace (issue 29, item 4): controls for the
// GPU count, strategy, scaling, all-reduce schedule, link preset (or the user's nccl-tests files),
// gradient and split sizes; the predicted step with its band, speedup and
// efficiency, the sentence, the notes and the host warning in the text
// output's words; the terms as a waterfall; the replayed step of one replica
// beside the measured one. The analyzer computes it (predict::options_of,
// predict::predict) on a worker thread when asked; the panel only shows it.
// A job of several ranks is not predicted: the prediction reads a 1-GPU trace.

#include <QPointer>
#include <QThread>
#include <QWidget>
#include <memory>
#include <optional>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/predict/predict_request.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace gpuprof::gui {

class StepTimelineChart;
class WaterfallChart;

class PredictionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PredictionPanel(QWidget* parent = nullptr);
  ~PredictionPanel() override;

  // Forgets the previous trace's prediction; a job of several ranks disables the controls and says why.
  void set_session(std::shared_ptr<const Session> session);
  // The controls as a request (one GPU count), and back.
  predict::PredictRequest request() const;
  void set_request(const predict::PredictRequest& request);
  // What the Predict button does: the current request, on a worker thread.
  void start_prediction();

  bool busy() const { return busy_; }
  // The last prediction shown, for the current session (empty before one, after an error or another open).
  const std::optional<predict::Prediction>& prediction() const { return prediction_; }
  QString result_text() const;  // the figures and sentence as shown (plain text)
  QString error_text() const;   // the one-line error of the last request, or why the trace cannot be predicted
  WaterfallChart* waterfall() const { return waterfall_; }
  StepTimelineChart* step_chart() const { return step_chart_; }
  QPushButton* predict_button() const { return predict_button_; }

 signals:
  void prediction_shown();

 private:
  QWidget* build_controls();
  void show_prediction(predict::Prediction prediction);
  void show_error(const QString& message);
  void clear_results();
  void show_charts(bool visible);  // empty charts would only show an axis of nothing

  std::shared_ptr<const Session> session_;
  std::optional<predict::Prediction> prediction_;
  QSpinBox* gpus_ = nullptr;
  QComboBox* strategy_ = nullptr;
  QComboBox* scaling_ = nullptr;
  QComboBox* allreduce_ = nullptr;
  QComboBox* link_ = nullptr;
  QLineEdit* link_files_ = nullptr;
  QLineEdit* grad_bytes_ = nullptr;
  QLineEdit* split_bytes_ = nullptr;
  QPushButton* predict_button_ = nullptr;
  QLabel* result_ = nullptr;
  QLabel* error_ = nullptr;
  WaterfallChart* waterfall_ = nullptr;
  StepTimelineChart* step_chart_ = nullptr;
  QPointer<QThread> worker_;  // deletes itself once finished
  bool busy_ = false;
  std::uint64_t generation_ = 0;  // a result is shown only when no other request or open came after it
};

}  // namespace gpuprof::gui
