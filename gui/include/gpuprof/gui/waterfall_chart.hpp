#pragma once

// The comparison library's waterfall: from the base run's step time, each
// term's change (computation, exposed copies, exposed communication, sync
// wait, batch gaps, other) as a floating bar, to the other run's step time.

#include <QWidget>

#include "gpuprof/comparison/run_comparison.hpp"

namespace gpuprof::gui {

class WaterfallChart : public QWidget {
  Q_OBJECT

 public:
  explicit WaterfallChart(QWidget* parent = nullptr);
  void set_comparison(const comparison::RunComparison& comparison);
  std::size_t term_count() const { return comparison_.waterfall.size(); }

  QSize sizeHint() const override { return {600, 300}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  comparison::RunComparison comparison_;
};

}  // namespace gpuprof::gui
