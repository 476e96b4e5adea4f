#pragma once

// The comparison library's waterfall: from the base run's step time, each
// term's change (computation, exposed copies, exposed communication, sync
// wait, batch gaps, other) as a floating bar, to the other run's step time.
// One row per bar, as in the HTML report, laid out by waterfall_layout.

#include <QWidget>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/gui/waterfall_layout.hpp"

namespace gpuprof::gui {

class WaterfallChart : public QWidget {
  Q_OBJECT

 public:
  explicit WaterfallChart(QWidget* parent = nullptr);
  void set_comparison(const comparison::RunComparison& comparison);
  std::size_t term_count() const { return comparison_.waterfall.size(); }
  // What a paint at the current size draws.
  WaterfallLayout current_layout() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  comparison::RunComparison comparison_;
  std::vector<comparison::WaterfallBar> bars_;
};

}  // namespace gpuprof::gui
