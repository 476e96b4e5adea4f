#include "gpuprof/gui/compare_view.hpp"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

#include "gpuprof/gui/breakdown_chart.hpp"
#include "gpuprof/gui/run_alignment.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

QString duration_text(double ns) {
  return QString::fromStdString(units::format_duration(static_cast<std::int64_t>(ns + 0.5)));
}

QString side_text(const QString& name, const comparison::RunSide& side) {
  return QStringLiteral("<b>%1</b>: %2 rank(s), %3 GPU(s), mean steady step %4%5")
      .arg(name.toHtmlEscaped())
      .arg(side.ranks)
      .arg(side.gpus)
      .arg(duration_text(side.step_ns))
      .arg(side.samples_per_second ? QStringLiteral(", %1 samples/s").arg(*side.samples_per_second, 0, 'f', 1)
                                   : QString());
}

// The entries of a chart's legend as one line of coloured squares and names.
QString legend_line(const QChart& chart) {
  QStringList entries;
  for (auto* series : chart.series()) {
    const auto* bars = qobject_cast<const QAbstractBarSeries*>(series);
    if (!bars) continue;
    for (auto* set : bars->barSets()) {
      entries << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                     .arg(set->color().name(), set->label().toHtmlEscaped());
    }
  }
  return entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp;"));
}

QWidget* titled(const QString& title, QWidget* content) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(title));
  layout->addWidget(content, 1);
  return box;
}

}  // namespace

namespace {
constexpr int kCompareTimelineMinimum = 120;
}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  setWindowTitle(tr("gpuprof: compare runs"));
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  breakdown_legend_ = new QLabel;
  breakdown_legend_->setTextFormat(Qt::RichText);
  base_chart_ = new BreakdownChart;
  other_chart_ = new BreakdownChart;
  base_timeline_ = new TimelineView;
  other_timeline_ = new TimelineView;
  waterfall_ = new WaterfallChart;
  // Two timelines under the charts: at their own 200 px minimum the view needed 826 px and did not fit a
  // 1280x800 screen; the splitter lets the user give them the room back.
  for (auto* timeline : {base_timeline_, other_timeline_}) timeline->setMinimumHeight(kCompareTimelineMinimum);
  auto* charts = new QHBoxLayout;
  charts->addWidget(base_chart_);
  charts->addWidget(other_chart_);
  charts->addWidget(waterfall_, 1);
  auto* timelines = new QSplitter(Qt::Vertical);
  timelines->addWidget(titled(tr("Base run"), base_timeline_));
  timelines->addWidget(titled(tr("Other run (aligned at the first steady step)"), other_timeline_));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(breakdown_legend_);
  layout->addLayout(charts, 2);
  layout->addWidget(timelines, 3);
  resize(1400, 1000);
}

void CompareView::set_runs(std::shared_ptr<const Session> base, std::shared_ptr<const Session> other,
                           const QString& base_name, const QString& other_name) {
  base_ = std::move(base);
  other_ = std::move(other);
  comparison_ = comparison::compare_runs(base_->job, other_->job);
  summary_->setText(summary_text() + QStringLiteral("<br>") + side_text(base_name, comparison_.base) +
                    QStringLiteral("<br>") + side_text(other_name, comparison_.other));
  waterfall_->set_comparison(comparison_);
  base_chart_->set_session(base_.get(), tr("Base: %1 (steady steps, ms)").arg(base_name), true);
  other_chart_->set_session(other_.get(), tr("Other: %1 (steady steps, ms)").arg(other_name), true);
  // One scale for both runs: the taller bar is the longer step.
  const double highest = std::max(base_chart_->highest_ms(), other_chart_->highest_ms());
  base_chart_->use_scale(highest);
  other_chart_->use_scale(highest);
  // The bars get the charts' whole width; the shared legend names their colours once, whole.
  breakdown_legend_->setText(tr("Breakdown charts: %1").arg(legend_line(*base_chart_->chart())));
  base_chart_->chart()->legend()->hide();
  other_chart_->chart()->legend()->hide();
  base_timeline_->set_session(base_);
  other_timeline_->set_session(other_);
  const std::int64_t base_anchor = alignment_anchor(*base_), other_anchor = alignment_anchor(*other_);
  // Start both views at the aligned step, showing a few of the base run's steps.
  const auto span = static_cast<std::int64_t>(std::max(mean_steady_step_ns(*base_), 1000.0) * 3);
  base_timeline_->zoom_to(base_anchor, base_anchor + span);
  connect(base_timeline_, &TimelineView::view_changed, this,
          [this, base_anchor, other_anchor] { follow(base_timeline_, other_timeline_, base_anchor, other_anchor); });
  connect(other_timeline_, &TimelineView::view_changed, this,
          [this, base_anchor, other_anchor] { follow(other_timeline_, base_timeline_, other_anchor, base_anchor); });
  follow(base_timeline_, other_timeline_, base_anchor, other_anchor);
}

QString CompareView::summary_text() const {
  QString text;
  for (const auto& assumption : comparison_.assumptions) {
    text += tr("<b>Assumption:</b> %1<br>").arg(QString::fromStdString(assumption).toHtmlEscaped());
  }
  text += tr("Speedup (%1): <b>%2x</b>").arg(QString::fromStdString(comparison_.speedup_basis))
              .arg(comparison_.speedup, 0, 'f', 2);
  if (comparison_.scaling_efficiency) {
    text += tr(", scaling efficiency %1%").arg(*comparison_.scaling_efficiency * 100, 0, 'f', 0);
  }
  text += tr(", step time %1 → %2").arg(duration_text(comparison_.base.step_ns), duration_text(comparison_.other.step_ns));
  for (const auto& notice : comparison_.notices) text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(notice).toHtmlEscaped());
  return text;
}

// Same span, same offset from each run's anchor: steps line up across the two views.
void CompareView::follow(TimelineView* leader, TimelineView* follower, std::int64_t leader_anchor,
                         std::int64_t follower_anchor) {
  if (syncing_) return;
  syncing_ = true;
  const auto& axis = leader->axis();
  const std::int64_t offset = axis.view_start() - leader_anchor;
  const auto span = static_cast<std::int64_t>(axis.view_span_ns());
  follower->set_view(follower_anchor + offset, follower_anchor + offset + span);
  syncing_ = false;
}

}  // namespace gpuprof::gui
