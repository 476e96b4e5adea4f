#include "gpuprof/gui/step_timeline_chart.hpp"

#include <QPainter>

#include "gpuprof/gui/lod_merge.hpp"
#include "gpuprof/gui/timeline_colors.hpp"

namespace gpuprof::gui {
namespace {

// What the prediction added is drawn in one colour, so it stands out against the recorded work.
const QColor kInserted(214, 39, 40);

QColor event_colour(const predict::StepEvent& event) {
  switch (event.kind) {
    case predict::OpKind::compute:
      return colors::kernel(analysis::KernelCategory::computation);
    case predict::OpKind::communication:
      return colors::kernel(analysis::KernelCategory::communication);
    case predict::OpKind::copy:
      return colors::copy(event.copy_kind);
    case predict::OpKind::inserted:
      break;
  }
  return kInserted;
}

// One lane's events as the start/end columns a LaneView reads, so the timeline's merging draws it.
struct LaneColumns {
  std::vector<std::int64_t> start, end;
  LaneView view;

  explicit LaneColumns(const predict::StepLane& lane) {
    for (const auto& event : lane.events) {
      start.push_back(event.start_ns), end.push_back(event.end_ns);
      view.max_duration = std::max(view.max_duration, event.end_ns - event.start_ns);
    }
    view.start = start.data(), view.end = end.data(), view.size = start.size();
  }
};

void paint_lane(QPainter& painter, const predict::StepLane& lane, QRect band, const TimeAxis& axis,
                std::vector<DrawBlock>& blocks) {
  const LaneColumns columns(lane);
  merge_visible(columns.view, axis, blocks);
  painter.save();
  painter.setClipRect(band);
  for (const auto& block : blocks) {
    const QColor colour = event_colour(lane.events[block.first]);
    const QRectF rect(band.left() + block.x0, band.top(), std::max(1.0, block.x1 - block.x0), band.height());
    painter.fillRect(rect, block.merged() ? colors::merged(colour) : colour);
  }
  painter.restore();
}

}  // namespace

StepTimelineChart::StepTimelineChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void StepTimelineChart::set_steps(predict::StepTimeline measured, const QString& measured_title,
                                  predict::StepTimeline replayed, const QString& replayed_title) {
  measured_ = std::move(measured), replayed_ = std::move(replayed);
  measured_title_ = measured_title, replayed_title_ = replayed_title;
  updateGeometry();
  update();
}

std::vector<StepSection> StepTimelineChart::sections() const {
  return {{&measured_, measured_title_}, {&replayed_, replayed_title_}};
}

StepChartLayout StepTimelineChart::current_layout() const {
  return layout_step_chart(sections(), size(), fontMetrics());
}

QSize StepTimelineChart::minimumSizeHint() const {
  // The titles wrap, so the height depends on the width: measure at the width the chart would get at least.
  const auto first = layout_step_chart(sections(), QSize(0, 0), fontMetrics()).minimum;
  return layout_step_chart(sections(), QSize(first.width(), 0), fontMetrics()).minimum;
}

QSize StepTimelineChart::sizeHint() const {
  const QSize minimum = minimumSizeHint();
  return {std::max(600, minimum.width() + 200), minimum.height()};
}

void StepTimelineChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  const auto layout = current_layout();
  painter.setPen(QColor(221, 221, 221));
  // Grid lines through the lanes only: a section's title between them stays clear.
  for (const auto& lane : layout.lanes)
    for (const int x : layout.tick_x) painter.drawLine(x, lane.top() - 2, x, lane.bottom() + 2);
  TimeAxis axis;
  axis.set_width(layout.plot.width());
  axis.set_limits(0, static_cast<std::int64_t>(layout.span_ns));
  axis.fit_all();
  std::vector<DrawBlock> blocks;
  std::size_t band = 0;
  for (const auto* timeline : {&measured_, &replayed_})
    for (const auto& lane : timeline->lanes) paint_lane(painter, lane, layout.lanes[band++], axis, blocks);
  for (const auto& text : layout.texts) {
    painter.setPen(text.colour);
    painter.drawText(text.rect, text.flags, text.text);
  }
}

}  // namespace gpuprof::gui
