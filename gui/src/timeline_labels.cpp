#include "gpuprof/gui/timeline_labels.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/gui/timeline_painter.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

// Below this width a step or gap gets no text (as blocks in the painter).
constexpr double kMinLabelPx = 40.0;
const QColor kStepColour(60, 60, 90), kGapColour(150, 20, 20);

QString q(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

// The x range [x0, x1) of a time span on the screen, kept a little beyond the plot as the painter clips it.
std::pair<double, double> screen_span(const TimeAxis& axis, std::int64_t start_ns, std::int64_t end_ns) {
  const double x0 = std::max(axis.x_of(start_ns), -2.0), x1 = std::min(axis.x_of(end_ns), axis.width() + 2.0);
  return {kLabelWidth + x0, kLabelWidth + std::max(x0 + 1.0, x1)};
}

// An elided label keeps at least this many characters ("gap: d…" says nothing).
constexpr qsizetype kMinShownChars = 10;

// `text` elided to `room` pixels, in a rectangle as wide as what is left of it, or nothing when too little
// of it would be left.
std::optional<ChartText> fitted(const QString& text, int room, const QFontMetrics& metrics, QColor colour) {
  const QString shown = metrics.elidedText(text, Qt::ElideRight, room);
  if (shown != text && shown.size() < kMinShownChars) return std::nullopt;
  return ChartText{QRect(0, 0, metrics.horizontalAdvance(shown) + 2, metrics.height()), shown,
                   Qt::AlignLeft | Qt::AlignVCenter, colour};
}

void add_step_labels(const LoadedRank& rank, std::int32_t device, const TimeAxis& axis, QRect row,
                     const QFontMetrics& metrics, std::vector<ChartText>& labels) {
  for (const auto& entry : rank.analysis.steps) {
    const auto& step = entry.step;
    if (step.device != device || step.end_ns < axis.view_start() || step.start_ns > axis.view_end()) continue;
    const auto [x0, x1] = screen_span(axis, step.start_ns, step.end_ns);
    if (x1 - x0 <= kMinLabelPx) continue;
    const QString text = QStringLiteral("step %1 · %2%3")
                             .arg(step.step)
                             .arg(QString::fromStdString(units::format_duration(step.end_ns - step.start_ns)))
                             .arg(step.warmup ? QStringLiteral(" (warm-up)") : QString());
    auto label = fitted(text, static_cast<int>(x1 - x0) - 8, metrics, kStepColour);
    if (!label) continue;
    label->rect.moveTopLeft(QPoint(static_cast<int>(std::ceil(x0)) + 3, row.top()));
    label->rect.setHeight(row.height());
    labels.push_back(*label);
  }
}

// `band`: where the labels go (their height), across the GPU's rows.
void add_gap_labels(const LoadedRank& rank, std::int32_t device, const TimeAxis& axis, QRect band,
                    const QFontMetrics& metrics, std::vector<ChartText>& labels) {
  for (const auto& gap : rank.analysis.gaps) {
    if (gap.device != device || gap.end_ns < axis.view_start() || gap.start_ns > axis.view_end()) continue;
    const auto [x0, x1] = screen_span(axis, gap.start_ns, gap.end_ns);
    if (x1 - x0 < kMinLabelPx) continue;
    const QString text = QStringLiteral("gap: %1 %2")
                             .arg(q(analysis::to_string(gap.cause)))
                             .arg(QString::fromStdString(units::format_duration(gap.end_ns - gap.start_ns)));
    auto label = fitted(text, static_cast<int>(x1 - x0) - 6, metrics, kGapColour);
    if (!label) continue;
    const int middle = static_cast<int>(std::lround((x0 + x1) / 2));
    label->rect.moveTopLeft(QPoint(middle - label->rect.width() / 2, band.top()));
    label->rect.setHeight(band.height());
    labels.push_back(*label);
  }
}

// Where gap labels share the steps' row (a GPU without stream rows), a step label ends before the first gap
// label it would run into, or is left out when none of it would be left.
void keep_apart(std::vector<ChartText>& steps, const std::vector<ChartText>& gaps, const QFontMetrics& metrics) {
  std::vector<ChartText> kept;
  for (auto step : steps) {
    bool keep = true;
    for (const auto& gap : gaps) {
      if (!step.rect.intersects(gap.rect)) continue;
      const int room = gap.rect.left() - 4 - step.rect.left();
      auto shorter = room > 0 ? fitted(step.text, room - 2, metrics, step.colour) : std::nullopt;
      if (!shorter) {
        keep = false;
        break;
      }
      shorter->rect.moveTopLeft(step.rect.topLeft());
      shorter->rect.setHeight(step.rect.height());
      step = *shorter;
    }
    if (keep) kept.push_back(step);
  }
  steps = std::move(kept);
}

}  // namespace

std::vector<ChartText> step_and_gap_labels(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                           int scroll_y, bool pinned, int top, int bottom,
                                           const QFontMetrics& metrics) {
  std::vector<ChartText> labels;
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto& place = layout.rows[i];
    const auto* gpu = device_row_at(session, layout, i);
    if (!gpu || place.pinned != pinned) continue;
    const auto& rank = *session.ranks[place.rank];
    const auto& row = *gpu;
    const int y = row_top(place, scroll_y);
    if (y + place.height < top || y > bottom) continue;
    const auto rank_axis = layout.rank_axis(axis, place.rank);
    const QRect own(kLabelWidth, y, static_cast<int>(axis.width()), std::min(place.height, kDeviceRowHeight));
    const bool one_row = layout.options.compact || place.collapsed;
    std::vector<ChartText> steps, gaps;
    if (!one_row) add_step_labels(rank, row.device, rank_axis, own, metrics, steps);
    // The row under the GPU's row is its first stream's: idle for the whole gap, so the label covers nothing.
    const bool stream_below = !one_row && device_group_end(session, layout, i) > i + 1;
    QRect gap_band = own;
    if (stream_below) {
      const auto& below = layout.rows[i + 1];
      gap_band = QRect(kLabelWidth, row_top(below, scroll_y), own.width(), std::min(below.height, kStreamRowHeight));
    }
    add_gap_labels(rank, row.device, rank_axis, gap_band, metrics, gaps);
    keep_apart(steps, gaps, metrics);
    // A row cut by the area's edge (scrolled half out of view) gets no half-drawn text.
    for (auto* kind : {&steps, &gaps}) {
      for (const auto& label : *kind)
        if (label.rect.top() >= top && label.rect.bottom() < bottom) labels.push_back(label);
    }
  }
  return labels;
}

}  // namespace gpuprof::gui
