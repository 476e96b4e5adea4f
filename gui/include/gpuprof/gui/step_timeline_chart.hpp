#pragma once

// The replayed N-GPU step beside the measured one: the prediction's step
// timelines (predict::StepTimeline), one lane per stream, drawn on one time
// axis from each step's start, laid out by step_timeline_layout and drawn
// with the timeline's level-of-detail merging and colours.

#include <QWidget>

#include "gpuprof/gui/step_timeline_layout.hpp"

namespace gpuprof::gui {

class StepTimelineChart : public QWidget {
  Q_OBJECT

 public:
  explicit StepTimelineChart(QWidget* parent = nullptr);
  void set_steps(predict::StepTimeline measured, const QString& measured_title, predict::StepTimeline replayed,
                 const QString& replayed_title);
  StepChartLayout current_layout() const;
  const predict::StepTimeline& measured() const { return measured_; }
  const predict::StepTimeline& replayed() const { return replayed_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<StepSection> sections() const;

  predict::StepTimeline measured_, replayed_;
  QString measured_title_, replayed_title_;
};

}  // namespace gpuprof::gui
