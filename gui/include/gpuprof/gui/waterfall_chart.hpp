#pragma once

// A step-time waterfall: from a step time, each term's change as a floating
// bar, to another step time. The comparison library's (the base run's step,
// computation, exposed copies and communication, sync wait, batch gaps, other,
// the other run's step) or a prediction's terms. One row per bar, as in the
// HTML report, laid out by waterfall_layout.

#include <QWidget>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/gui/waterfall_layout.hpp"

namespace gpuprof::gui {

class WaterfallChart : public QWidget {
  Q_OBJECT

 public:
  explicit WaterfallChart(QWidget* parent = nullptr);
  void set_comparison(const comparison::RunComparison& comparison);
  // Any bars from comparison::waterfall_bars (a prediction's terms, say), under `title`.
  void set_bars(std::vector<comparison::WaterfallBar> bars, const QString& title);
  // The bars between the first step and the last.
  std::size_t term_count() const { return bars_.size() < 2 ? 0 : bars_.size() - 2; }
  // What a paint at the current size draws.
  WaterfallLayout current_layout() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  std::vector<comparison::WaterfallBar> bars_;
  QString title_;
};

}  // namespace gpuprof::gui
