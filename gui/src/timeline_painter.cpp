#include "gpuprof/gui/timeline_painter.hpp"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

#include "gpuprof/gui/copy_arrows.hpp"
#include "gpuprof/gui/gap_bands.hpp"
#include "gpuprof/gui/rank_marks.hpp"
#include "gpuprof/gui/step_boundaries.hpp"
#include "gpuprof/gui/timeline_labels.hpp"
#include "gpuprof/gui/timeline_colors.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

// Below this width a block gets no text: eliding is the costliest part of a frame.
constexpr double kMinLabelPx = 40.0;

// Beside a rank's header: the clock its rows are drawn on and the GPUs left out.
QString rank_note(const Session& session, const TimelineLayout& layout, std::size_t rank) {
  QStringList parts;
  // The label column has the mark's words; the header's note, as wide as the timeline, its whole text.
  if (const auto mark = rank_mark(session, rank); !mark.text.empty()) parts << QString::fromStdString(mark.text);
  if (session.ranks.size() > 1) {
    const std::int64_t offset = rank < layout.clock_offset_ns.size() ? layout.clock_offset_ns[rank] : 0;
    if (!session.analysed) {
      parts << QStringLiteral("own clock until the analyses align it");
    } else if (layout.options.raw_clocks) {
      parts << QStringLiteral("drawn on its own clock");
    } else if (offset == 0) {
      parts << QStringLiteral("reference clock");
    } else {
      parts << QStringLiteral("clock aligned by %1%2 (%3)")
                   .arg(offset > 0 ? QStringLiteral("+") : QString())
                   .arg(QString::fromStdString(units::format_duration(offset)))
                   .arg(QString::fromStdString(std::string(job::to_string(session.job.clocks.method))));
    }
  }
  const int hidden = rank < layout.hidden_devices.size() ? layout.hidden_devices[rank] : 0;
  if (hidden > 0) parts << QStringLiteral("%1 GPU(s) without activity hidden").arg(hidden);
  return parts.join(QStringLiteral(" · "));
}

QColor mark_color(RankMarkKind kind) {
  switch (kind) {
    case RankMarkKind::slowest: return QColor(190, 20, 20);
    case RankMarkKind::straggler: return QColor(200, 100, 0);
    case RankMarkKind::none: break;
  }
  return Qt::black;
}

QColor event_color(const LoadedRank& rank, LaneKind kind, std::size_t row) {
  const auto& model = rank.model;
  switch (kind) {
    case LaneKind::kernels: {
      const auto name = model.kernels.name[row];
      return colors::kernel(name < rank.name_categories.size() ? rank.name_categories[name]
                                                                : analysis::KernelCategory::computation);
    }
    case LaneKind::memcpys: return colors::copy(model.memcpys.copy_kind[row]);
    case LaneKind::memsets: return colors::memset();
    case LaneKind::api_calls: return colors::api_call();
    case LaneKind::ranges: return colors::range();
  }
  return Qt::gray;
}

// Clipping to a little beyond the view keeps QPainter in int range at deep zoom.
QRectF clipped(double x0, double x1, const QRectF& band, double width) {
  x0 = std::max(x0, -2.0);
  x1 = std::min(x1, width + 2.0);
  return {band.left() + x0, band.top(), std::max(1.0, x1 - x0), band.height()};
}


}  // namespace

void TimelinePainter::paint(QPainter& painter, QSize size, const Session& session, const TimelineLayout& layout,
                            const TimeAxis& axis, const TimelineDecorations& decorations) {
  painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  // The scrolling rows first, then the pinned ones over whatever scrolled under them.
  paint_area(painter, size, session, layout, axis, decorations.scroll_y, false);
  if (layout.pinned_height > 0) paint_area(painter, size, session, layout, axis, decorations.scroll_y, true);
  painter.save();
  painter.setClipRect(QRect(kLabelWidth, kRulerHeight, size.width() - kLabelWidth, size.height() - kRulerHeight));
  paint_copy_arrows(painter, session, layout, axis, decorations.scroll_y);
  paint_decorations(painter, session, layout, axis, decorations);
  if (decorations.rubber_band) {
    const auto [x0, x1] = *decorations.rubber_band;
    painter.fillRect(QRect(std::min(x0, x1), kRulerHeight, std::abs(x1 - x0), size.height()),
                     QColor(30, 100, 200, 50));
  }
  painter.restore();
  paint_ruler(painter, size, session, axis);
}

void TimelinePainter::paint_area(QPainter& painter, QSize size, const Session& session, const TimelineLayout& layout,
                                 const TimeAxis& axis, int scroll_y, bool pinned) {
  const int area_top = kRulerHeight + (pinned ? 0 : layout.pinned_height);
  const int area_bottom = pinned ? kRulerHeight + layout.pinned_height : size.height();
  painter.save();
  painter.setClipRect(QRect(kLabelWidth, area_top, size.width() - kLabelWidth, area_bottom - area_top));
  painter.fillRect(QRect(kLabelWidth, area_top, size.width() - kLabelWidth, area_bottom - area_top), Qt::white);
  for (const auto& place : layout.rows) {
    const int y = row_top(place, scroll_y);
    if (place.pinned != pinned || y + place.height < area_top || y > area_bottom) continue;
    const auto& rank = *session.ranks[place.rank];
    if (!place.row) {
      const bool rank_header = place.heads && place.heads->kind == GroupKind::rank;
      painter.fillRect(QRect(kLabelWidth, y, size.width(), place.height),
                       rank_header ? QColor(235, 235, 240) : QColor(244, 244, 247));
      if (!rank_header) continue;
      painter.setPen(QColor(90, 90, 90));
      painter.drawText(QRect(kLabelWidth + 6, y, size.width() - kLabelWidth - 12, place.height),
                       Qt::AlignVCenter | Qt::AlignLeft, rank_note(session, layout, place.rank));
      continue;
    }
    if (layout.options.compact || place.collapsed) {
      const QRectF band(kLabelWidth, y, axis.width(), place.height);
      paint_compact_device(painter, rank, *place.row, layout.rank_axis(axis, place.rank), band);
      continue;
    }
    paint_row(painter, rank, rank.timeline.rows[*place.row], place, layout.rank_axis(axis, place.rank), y);
  }
  paint_gaps(painter, session, layout, axis, scroll_y, area_bottom, pinned);
  paint_step_boundaries(painter, session, layout, axis, scroll_y, pinned, area_top, area_bottom);
  const QFontMetrics metrics(painter.font());
  for (const auto& label :
       step_and_gap_labels(session, layout, axis, scroll_y, pinned, area_top, area_bottom, metrics)) {
    painter.setPen(label.colour);
    painter.drawText(label.rect, label.flags, label.text);
  }
  if (pinned) {
    painter.setPen(QColor(150, 150, 160));
    painter.drawLine(kLabelWidth, area_bottom - 1, size.width(), area_bottom - 1);
  }
  painter.restore();
  paint_labels(painter, QSize(size.width(), area_bottom), session, layout, scroll_y, pinned);
}

void TimelinePainter::paint_row(QPainter& painter, const LoadedRank& rank, const TimelineRow& row,
                                const LayoutRow& place, const TimeAxis& axis, int y) {
  const QRectF band(kLabelWidth, y, axis.width(), place.height);
  if (row.kind == RowKind::device) {
    paint_device_row(painter, rank, row, axis, band);
    return;
  }
  if (row.kind == RowKind::stream) {
    painter.fillRect(band, QColor(248, 248, 248));
    for (const auto& lane : row.lanes) paint_lane(painter, rank, lane, axis, band);
    return;
  }
  for (std::size_t i = 0; i < row.lanes.size(); ++i) {
    const QRectF lane_band(band.left(), band.top() + static_cast<double>(i) * kHostLaneHeight, band.width(),
                           kHostLaneHeight - 1);
    paint_lane(painter, rank, row.lanes[i], axis, lane_band);
  }
}

void TimelinePainter::paint_lane(QPainter& painter, const LoadedRank& rank, const Lane& lane, const TimeAxis& axis,
                                 QRectF band, const QColor* override_color) {
  const LaneView view = lane_view(rank.model, lane);
  merge_visible(view, axis, blocks_);
  for (const auto& block : blocks_) {
    const std::size_t row = view.row(block.first);
    QColor color = override_color ? *override_color : event_color(rank, lane.kind, row);
    if (block.merged() && !override_color) color = colors::merged(color);
    const QRectF rect = clipped(block.x0, block.x1, band, axis.width());
    painter.fillRect(rect, color);
    if (block.merged() || rect.width() < kMinLabelPx || override_color) continue;
    painter.setPen(Qt::white);
    labels_.draw(painter, rect.adjusted(2, 0, -2, 0), event_name(rank, {0, lane.kind, row}));
  }
}

void TimelinePainter::paint_device_row(QPainter& painter, const LoadedRank& rank, const TimelineRow& row,
                                       const TimeAxis& axis, QRectF band) {
  painter.fillRect(band, QColor(240, 244, 250));
  for (const auto& entry : rank.analysis.steps) {
    const auto& step = entry.step;
    if (step.device != row.device || step.end_ns < axis.view_start() || step.start_ns > axis.view_end()) continue;
    const QRectF rect = clipped(axis.x_of(step.start_ns), axis.x_of(step.end_ns), band, axis.width());
    const QColor fill = step.warmup ? QColor(225, 225, 225) : (step.step % 2 ? QColor(190, 215, 240)
                                                                             : QColor(160, 195, 230));
    painter.fillRect(rect, fill);
    painter.setPen(QColor(60, 60, 90));
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
  }
}

// One row for a GPU: its steps in the top third, below them the work of all its
// streams drawn over each other (communication in its own colour), as a heat strip.
void TimelinePainter::paint_compact_device(QPainter& painter, const LoadedRank& rank, std::size_t device_row,
                                           const TimeAxis& axis, QRectF band) {
  const auto& rows = rank.timeline.rows;
  const QRectF steps(band.left(), band.top(), band.width(), band.height() / 3);
  const QRectF work(band.left(), steps.bottom(), band.width(), band.height() - steps.height());
  paint_device_row(painter, rank, rows[device_row], axis, steps);
  painter.fillRect(work, QColor(248, 248, 248));
  for (std::size_t row = device_row + 1; row < rows.size() && rows[row].kind == RowKind::stream; ++row) {
    for (const auto& lane : rows[row].lanes) paint_lane(painter, rank, lane, axis, work);
  }
}

// Batch gaps shade the device row and its streams (their labels: step_and_gap_labels).
void TimelinePainter::paint_gaps(QPainter& painter, const Session& session, const TimelineLayout& layout,
                                 const TimeAxis& axis, int scroll_y, int bottom, bool pinned) {
  for (const auto& band : gap_bands(session, layout, axis, scroll_y, pinned, bottom))
    painter.fillRect(band.rect, QColor(220, 40, 40, 45));
}

void TimelinePainter::paint_step_boundaries(QPainter& painter, const Session& session, const TimelineLayout& layout,
                                            const TimeAxis& axis, int scroll_y, bool pinned, int top, int bottom) {
  const QPen own(QColor(40, 50, 110, 170), 1);
  const QPen reference(QColor(40, 50, 110, 110), 1, Qt::DashLine);
  for (const auto& boundary : step_boundaries(session, layout, axis, scroll_y, pinned, top, bottom)) {
    painter.setPen(boundary.reference ? reference : own);
    painter.drawLine(boundary.line);
  }
}

// An arrow per peer-to-peer copy, source GPU to destination GPU; a merged one says how many it stands for.
void TimelinePainter::paint_copy_arrows(QPainter& painter, const Session& session, const TimelineLayout& layout,
                                        const TimeAxis& axis, int scroll_y) {
  const auto arrows = copy_arrows(session, layout, axis, scroll_y);
  if (arrows.empty()) return;
  const QColor colour = colors::copy(trace::CopyKind::peer_to_peer).darker(150);
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  for (const auto& arrow : arrows) {
    painter.setPen(QPen(colour, arrow.count > 1 ? 2.0 : 1.2));
    painter.drawLine(arrow.from, arrow.to);
    const QPointF direction = arrow.to - arrow.from;
    const double length = std::hypot(direction.x(), direction.y());
    if (length < 1) continue;
    const QPointF unit = direction / length, normal(-unit.y(), unit.x());
    const QPointF head[3] = {arrow.to, arrow.to - unit * 7 + normal * 3.5, arrow.to - unit * 7 - normal * 3.5};
    painter.setBrush(colour);
    painter.drawPolygon(head, 3);
    if (arrow.count > 1) {
      painter.drawText((arrow.from + arrow.to) / 2 + QPointF(4, 0), QStringLiteral("×%1").arg(arrow.count));
    }
  }
  painter.restore();
}

void TimelinePainter::paint_decorations(QPainter& painter, const Session& session, const TimelineLayout& layout,
                                        const TimeAxis& axis, const TimelineDecorations& decorations) {
  const int scroll_y = decorations.scroll_y;
  const QColor highlight(255, 200, 0);
  for (std::size_t rank = 0; rank < decorations.highlights.size() && rank < session.ranks.size(); ++rank) {
    for (std::size_t row = 0; row < decorations.highlights[rank].size(); ++row) {
      const auto& lane = decorations.highlights[rank][row];
      if (lane.size() == 0) continue;
      const auto* place = layout.find(rank, row);
      if (!place) continue;
      const QRectF band(kLabelWidth, row_top(*place, scroll_y) + place->height * 0.55, axis.width(),
                        place->height * 0.45);
      paint_lane(painter, *session.ranks[rank], lane, layout.rank_axis(axis, rank), band, &highlight);
    }
  }
  if (decorations.selected_idle) {
    if (const auto rect = idle_rect(session, layout, axis, *decorations.selected_idle, scroll_y)) {
      painter.setPen(QPen(QColor(150, 20, 20), 2));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(rect->adjusted(-1, -1, 1, 1));
    }
  }
  if (!decorations.selected) return;
  const auto rect = event_rect(session, layout, axis, *decorations.selected, scroll_y);
  if (rect) {
    painter.setPen(QPen(Qt::black, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect->adjusted(-1, -1, 1, 1));
  }
  const auto& rank = *session.ranks[decorations.selected->rank];
  const auto call = launching_call(rank, *decorations.selected);
  if (!call || !rect) return;
  // The flow: from the launching API call on the host to the GPU work it started.
  const auto from = event_rect(session, layout, axis, *call, scroll_y);
  if (!from) return;
  painter.setPen(QPen(QColor(160, 0, 160), 2));
  painter.drawRect(from->adjusted(-1, -1, 1, 1));
  const QPointF a(from->left(), from->center().y()), b(rect->left(), rect->center().y());
  painter.drawLine(a, b);
  painter.setBrush(QColor(160, 0, 160));
  painter.drawEllipse(b, 3, 3);
}

std::string row_label(const Session& session, const TimelineLayout& layout, const LayoutRow& place) {
  const auto& rank = *session.ranks[place.rank];
  const auto mark = rank_mark(session, place.rank);
  const std::string marked = mark.label.empty() ? std::string() : " · " + mark.label;
  const std::string rank_name = "r" + std::to_string(rank.analysis.rank) + " ";
  const bool compact = layout.options.compact;
  // Compact rows, and groups pinned without their rank, say whose they are.
  const bool away = place.pinned && !layout.options.groups.is_pinned({place.rank, GroupKind::rank});
  const std::string marker = !compact && place.heads ? (place.collapsed ? "▸ " : "▾ ") : "";
  if (!place.row) {
    if (place.heads && place.heads->kind == GroupKind::host_threads) {
      return marker + (away ? rank_name : "") + "host threads (" + std::to_string(place.members) + ")";
    }
    return marker + "Rank " + std::to_string(rank.analysis.rank) + marked;
  }
  const auto& row = rank.timeline.rows[*place.row];
  if (compact) return rank_name + row.label + marked;
  std::string text = marker + (away && row.kind == RowKind::device ? rank_name : "") + row.label;
  if (place.collapsed) text += " (" + std::to_string(place.members) + (place.members == 1 ? " stream)" : " streams)");
  return text;
}

std::vector<ChartText> label_column_texts(const Session& session, const TimelineLayout& layout, int scroll_y,
                                          bool pinned, int top, int bottom) {
  std::vector<ChartText> texts;
  for (const auto& place : layout.rows) {
    const int y = row_top(place, scroll_y);
    if (place.pinned != pinned || y + place.height < top || y > bottom) continue;
    const auto* row = place.row ? &session.ranks[place.rank]->timeline.rows[*place.row] : nullptr;
    const bool rank_level = layout.options.compact || (place.heads && place.heads->kind == GroupKind::rank);
    int indent = rank_level ? 4 : 10;
    if (row && row->kind != RowKind::device) indent = 22;
    const QColor colour = rank_level ? mark_color(rank_mark(session, place.rank).kind)
                          : row && row->kind != RowKind::device ? QColor(70, 70, 70)
                                                                : QColor(Qt::black);
    texts.push_back({QRect(indent, y, kLabelWidth - indent - 2, std::min(place.height, 20)),
                     QString::fromStdString(row_label(session, layout, place)), Qt::AlignVCenter | Qt::AlignLeft,
                     colour});
  }
  return texts;
}

void TimelinePainter::paint_labels(QPainter& painter, QSize size, const Session& session,
                                   const TimelineLayout& layout, int scroll_y, bool pinned) {
  const int area_top = kRulerHeight + (pinned ? 0 : layout.pinned_height);
  painter.save();
  painter.setClipRect(QRect(0, area_top, kLabelWidth, size.height() - area_top));
  // The pinned area's labels are tinted, so a glance tells which rows stay put.
  painter.fillRect(QRect(0, area_top, kLabelWidth, size.height() - area_top),
                   pinned ? QColor(250, 244, 222) : QColor(245, 245, 245));
  const QFontMetrics metrics(painter.font());
  for (const auto& label : label_column_texts(session, layout, scroll_y, pinned, area_top, size.height())) {
    painter.setPen(label.colour);
    // A label wider than the column (a long thread name) is elided; the layout tests check that none is.
    painter.drawText(label.rect, label.flags, metrics.elidedText(label.text, Qt::ElideRight, label.rect.width()));
  }
  painter.setPen(QColor(200, 200, 200));
  painter.drawLine(kLabelWidth - 1, area_top, kLabelWidth - 1, size.height());
  if (pinned) painter.drawLine(0, size.height() - 1, kLabelWidth, size.height() - 1);
  painter.restore();
}

void TimelinePainter::paint_ruler(QPainter& painter, QSize size, const Session& session, const TimeAxis& axis) {
  painter.fillRect(QRect(0, 0, size.width(), kRulerHeight), QColor(230, 230, 230));
  painter.setPen(Qt::black);
  painter.drawText(QRect(4, 0, kLabelWidth - 8, kRulerHeight), Qt::AlignVCenter,
                   QStringLiteral("view %1").arg(QString::fromStdString(
                       units::format_duration(static_cast<std::int64_t>(axis.view_span_ns())))));
  // Labels are relative to the session start: absolute clocks are 19 digits long. In doubles, so that spans
  // near INT64_MAX neither overflow nor stall the ticks (a hostile file once froze the app here).
  const double from = static_cast<double>(axis.view_start()) - static_cast<double>(session.start_ns);
  const double to = static_cast<double>(axis.view_end()) - static_cast<double>(session.start_ns);
  const auto max_ticks = static_cast<std::size_t>(axis.width() / 40) + 2;
  constexpr double kLargestTime = 9.2e18;  // below INT64_MAX, so a cast back is defined
  for (const double t : ruler_ticks(from, to, ruler_step(axis.ns_per_px() * 100), max_ticks)) {
    const double at = static_cast<double>(session.start_ns) + t;
    if (std::fabs(at) > kLargestTime || std::fabs(t) > kLargestTime) continue;
    const double x = kLabelWidth + axis.x_of(static_cast<std::int64_t>(at));
    painter.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
    painter.drawText(QPointF(x + 2, kRulerHeight - 8),
                     QString::fromStdString(units::format_duration(static_cast<std::int64_t>(t))));
  }
}

std::optional<QRectF> TimelinePainter::idle_rect(const Session& session, const TimelineLayout& layout,
                                                 const TimeAxis& axis, const IdleSelection& selection, int scroll_y) {
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto& place = layout.rows[i];
    if (place.rank != selection.rank || !place.row) continue;
    const auto& row = session.ranks[place.rank]->timeline.rows[*place.row];
    if (row.kind != RowKind::device || row.device != selection.device) continue;
    const auto& last = layout.rows[device_group_end(session, layout, i) - 1];
    const auto rank_axis = layout.rank_axis(axis, place.rank);
    const double x0 = kLabelWidth + rank_axis.x_of(selection.start_ns);
    const double x1 = kLabelWidth + rank_axis.x_of(selection.end_ns);
    const double y0 = row_top(place, scroll_y), y1 = row_top(last, scroll_y) + last.height;
    return QRectF(x0, y0, std::max(2.0, x1 - x0), y1 - y0);
  }
  return std::nullopt;
}

std::optional<QRectF> TimelinePainter::event_rect(const Session& session, const TimelineLayout& layout,
                                                  const TimeAxis& axis, const EventRef& ref, int scroll_y) {
  if (ref.rank >= session.ranks.size()) return std::nullopt;
  const auto& rank = *session.ranks[ref.rank];
  const auto span = event_span(rank, ref);
  const auto rank_axis = layout.rank_axis(axis, ref.rank);
  for (std::size_t row = 0; row < rank.timeline.rows.size(); ++row) {
    const auto& lanes = rank.timeline.rows[row].lanes;
    for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
      if (lanes[lane].kind != ref.kind) continue;
      const auto view = lane_view(rank.model, lanes[lane]);
      // Several events may share a start; the row number tells them apart.
      bool found = false;
      for (std::size_t i = view.lower_bound_start(span.start_ns); i < view.size && view.start_at(i) == span.start_ns;
           ++i) {
        found = found || view.row(i) == ref.row;
      }
      if (!found) continue;
      const auto* place = layout.find(ref.rank, row);
      if (!place) return std::nullopt;
      const bool host = rank.timeline.rows[row].kind == RowKind::host_thread;
      const double y = row_top(*place, scroll_y) + (host ? static_cast<double>(lane) * kHostLaneHeight : 0);
      const double h = host ? kHostLaneHeight - 1 : place->height;
      const double x0 = kLabelWidth + rank_axis.x_of(span.start_ns), x1 = kLabelWidth + rank_axis.x_of(span.end_ns);
      return QRectF(x0, y, std::max(2.0, x1 - x0), h);
    }
  }
  return std::nullopt;
}

}  // namespace gpuprof::gui
