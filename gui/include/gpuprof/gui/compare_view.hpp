#pragma once

// Two runs side by side (say 1 GPU and 2 GPUs): their breakdowns, the
// comparison library's speedup and step-time waterfall, and both timelines
// aligned at their first steady step, panned and zoomed together.

#include <QWidget>

#include <memory>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/gui/session.hpp"

class QLabel;

namespace gpuprof::gui {

class BreakdownChart;
class WaterfallChart;
class TimelineView;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  void set_runs(std::shared_ptr<const Session> base, std::shared_ptr<const Session> other, const QString& base_name,
                const QString& other_name);
  const comparison::RunComparison& comparison() const { return comparison_; }
  WaterfallChart* waterfall() const { return waterfall_; }
  BreakdownChart* base_chart() const { return base_chart_; }
  BreakdownChart* other_chart() const { return other_chart_; }
  TimelineView* base_timeline() const { return base_timeline_; }
  TimelineView* other_timeline() const { return other_timeline_; }
  // One legend for both breakdown charts (same colours, same scale), as wide as its entries: beside each
  // chart, at 1280 pixels, it was cut to "comput…/expose…" (issue 39).
  QLabel* breakdown_legend() const { return breakdown_legend_; }
  QString summary_text() const;

 private:
  void follow(TimelineView* leader, TimelineView* follower, std::int64_t leader_anchor, std::int64_t follower_anchor);

  std::shared_ptr<const Session> base_, other_;
  comparison::RunComparison comparison_;
  QLabel* summary_ = nullptr;
  QLabel* breakdown_legend_ = nullptr;
  BreakdownChart* base_chart_ = nullptr;
  BreakdownChart* other_chart_ = nullptr;
  WaterfallChart* waterfall_ = nullptr;
  TimelineView* base_timeline_ = nullptr;
  TimelineView* other_timeline_ = nullptr;
  bool syncing_ = false;
};

}  // namespace gpuprof::gui
