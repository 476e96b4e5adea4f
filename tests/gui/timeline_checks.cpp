#include "timeline_checks.hpp"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "gpuprof/gui/copy_arrows.hpp"
#include "gpuprof/gui/gap_bands.hpp"
#include "gpuprof/gui/step_boundaries.hpp"
#include "gpuprof/gui/timeline_painter.hpp"
#include "gui_fixtures.hpp"

namespace gpuprof::gui::testing {
namespace {

constexpr double kTolerancePx = 0.5;  // the model's doubles against times converted again here
constexpr int kInkDistance = 90;      // antialiased glyphs: the darkest pixels of a stem near the pen's colour

std::string number(double value) { return std::to_string(static_cast<long long>(std::lround(value))); }

// The widget y range of one area: the pinned rows under the ruler, the scrolling rows below them.
std::pair<int, int> area_of(const TimelineView& view, bool pinned) {
  const int split = kRulerHeight + view.layout().pinned_height;
  return pinned ? std::pair{kRulerHeight, split} : std::pair{split, view.height()};
}

bool shown_in(const LayoutRow& place, int scroll_y, std::pair<int, int> area) {
  const int y = row_top(place, scroll_y);
  return !(y + place.height < area.first || y > area.second);
}

std::string name_of(const TimelineView& view, const LayoutRow& place) {
  return "'" + row_label(*view.session(), view.layout(), place) + "'";
}

// Widget y from the top of (rank, device)'s GPU row to the bottom of its last stream row, if it is shown.
std::optional<std::pair<int, int>> gpu_rows(const TimelineView& view, std::size_t rank, std::int32_t device) {
  const auto& session = *view.session();
  const auto& layout = view.layout();
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto* row = device_row_at(session, layout, i);
    if (!row || layout.rows[i].rank != rank || row->device != device) continue;
    const auto& last = layout.rows[device_group_end(session, layout, i) - 1];
    return std::pair{row_top(layout.rows[i], view.scroll_y()), row_top(last, view.scroll_y()) + last.height};
  }
  return std::nullopt;
}

// [x0, x1] of a time span of rank `rank` in widget coordinates, clipped a little beyond the plot as drawn.
std::pair<double, double> span_x(const TimelineView& view, std::size_t rank, std::int64_t start, std::int64_t end) {
  const auto axis = view.layout().rank_axis(view.axis(), rank);
  return {kLabelWidth + std::max(axis.x_of(start), -2.0), kLabelWidth + std::min(axis.x_of(end), axis.width() + 2.0)};
}

const analysis::GpuStep* step_of(const LoadedRank& rank, std::int32_t device, std::int64_t number) {
  for (const auto& entry : rank.analysis.steps)
    if (entry.step.device == device && entry.step.step == number) return &entry.step;
  return nullptr;
}

std::vector<ChartText> row_labels_in_place(const TimelineView& view, bool pinned) {
  const auto area = area_of(view, pinned);
  return label_column_texts(*view.session(), view.layout(), view.scroll_y(), pinned, area.first, area.second);
}

std::string rect_text(const QRectF& rect) {
  return number(rect.left()) + ".." + number(rect.right()) + " x " + number(rect.top()) + ".." + number(rect.bottom());
}

// A step label names its step by number and lies over it, on the GPU whose row it is in.
std::string step_label_problem(const TimelineView& view, const ChartText& label, std::size_t rank,
                               std::int32_t device, const QString& shown) {
  bool ok = false;
  const auto number_shown = shown.section(QLatin1Char(' '), 1, 1).toLongLong(&ok);
  const auto* step = ok ? step_of(*view.session()->ranks[rank], device, number_shown) : nullptr;
  if (!step) return "names no step of its GPU: " + label.text.toStdString();
  const auto [x0, x1] = span_x(view, rank, step->start_ns, step->end_ns);
  if (label.rect.left() >= x0 && label.rect.right() <= x1) return {};
  return "off its step: " + label.text.toStdString() + " at " + rect_text(label.rect) + ", the step at x " +
         number(x0) + ".." + number(x1);
}

// A gap label lies over a gap of its GPU and names that gap's cause.
std::string gap_label_problem(const TimelineView& view, const ChartText& label, std::size_t rank,
                              std::int32_t device, const QString& shown) {
  for (const auto& gap : view.session()->ranks[rank]->analysis.gaps) {
    if (gap.device != device) continue;
    const auto [x0, x1] = span_x(view, rank, gap.start_ns, gap.end_ns);
    if (label.rect.left() < x0 || label.rect.right() > x1) continue;
    const auto cause = QStringLiteral("gap: ") + QString::fromUtf8(analysis::to_string(gap.cause).data());
    if (shown.startsWith(cause) || cause.startsWith(shown)) return {};
  }
  return "over no gap of its GPU with its cause: " + label.text.toStdString() + " at " + rect_text(label.rect);
}

std::vector<std::string> boundary_problems(const TimelineView& view, bool pinned) {
  std::vector<std::string> problems;
  const auto area = area_of(view, pinned);
  const auto& session = *view.session();
  for (const auto& boundary :
       step_boundaries(session, view.layout(), view.axis(), view.scroll_y(), pinned, area.first, area.second)) {
    const auto what = "step " + std::to_string(boundary.step) + "'s boundary (rank " + std::to_string(boundary.rank) +
                      ", GPU " + std::to_string(boundary.device) + (boundary.reference ? ", reference)" : ")");
    const auto* step = step_of(*session.ranks[boundary.rank], boundary.device, boundary.step);
    if (!step) {
      problems.push_back(what + ": no such step");
      continue;
    }
    const double x = kLabelWidth + view.layout().rank_axis(view.axis(), boundary.rank).x_of(step->start_ns);
    if (std::abs(boundary.line.x1() - x) > kTolerancePx || boundary.line.x1() != boundary.line.x2())
      problems.push_back(what + " at x " + number(boundary.line.x1()) + ", the step starts at " + number(x));
    const auto rows = gpu_rows(view, boundary.rank, boundary.device);
    const double top = boundary.reference ? area.first : rows ? rows->first : -1;
    if (boundary.line.y1() != top || (!boundary.reference && (!rows || boundary.line.y2() != rows->second)))
      problems.push_back(what + " from y " + number(boundary.line.y1()) + " to " + number(boundary.line.y2()) +
                         ", not across its GPU's rows");
  }
  return problems;
}

std::vector<std::string> gap_band_problems(const TimelineView& view, bool pinned) {
  std::vector<std::string> problems;
  const auto& session = *view.session();
  for (const auto& band :
       gap_bands(session, view.layout(), view.axis(), view.scroll_y(), pinned, area_of(view, pinned).second)) {
    const auto& gap = session.ranks[band.rank]->analysis.gaps[band.gap];
    const auto [x0, x1] = span_x(view, band.rank, gap.start_ns, gap.end_ns);
    const auto rows = gpu_rows(view, band.rank, band.device);
    const auto what = "gap band " + std::to_string(band.gap) + " (rank " + std::to_string(band.rank) + ", GPU " +
                      std::to_string(band.device) + ") at " + rect_text(band.rect);
    if (gap.device != band.device || std::abs(band.rect.left() - x0) > kTolerancePx ||
        std::abs(band.rect.left() + band.rect.width() - std::max(x1, x0 + 1)) > kTolerancePx)
      problems.push_back(what + ", its gap at x " + number(x0) + ".." + number(x1));
    if (!rows || band.rect.top() != rows->first || band.rect.top() + band.rect.height() != rows->second)
      problems.push_back(what + ": not across its GPU's rows");
  }
  return problems;
}

// The vertical middle of (rank, device)'s GPU row.
std::optional<double> middle_of(const TimelineView& view, std::size_t rank, std::int32_t device) {
  for (const auto& place : view.layout().rows) {
    if (place.rank != rank || !place.row) continue;
    const auto& row = view.session()->ranks[rank]->timeline.rows[*place.row];
    if (row.kind == RowKind::device && row.device == device) return row_top(place, view.scroll_y()) + place.height / 2.0;
  }
  return std::nullopt;
}

std::vector<std::string> arrow_problems(const TimelineView& view) {
  std::vector<std::string> problems;
  const auto& session = *view.session();
  for (const auto& arrow : copy_arrows(session, view.layout(), view.axis(), view.scroll_y())) {
    const auto what = "copy arrow GPU " + std::to_string(arrow.src_device) + " -> " +
                      std::to_string(arrow.dst_device) + " at x " + number(arrow.from.x()) + ".." + number(arrow.to.x());
    if (arrow.from.y() != middle_of(view, arrow.rank, arrow.src_device) ||
        arrow.to.y() != middle_of(view, arrow.rank, arrow.dst_device))
      problems.push_back(what + ": not from its source GPU's row to its destination's");
    // Its start is a peer copy's start between these GPUs, its end a copy's end (merged arrows end at the last).
    bool starts = false, ends = false;
    const auto& copies = session.ranks[arrow.rank]->model.memcpys;
    for (std::size_t c = 0; c < copies.size(); ++c) {
      if (copies.copy_kind[c] != trace::CopyKind::peer_to_peer || copies.src_device[c] != arrow.src_device ||
          copies.dst_device[c] != arrow.dst_device)
        continue;
      // A copy running past the plot's edge is drawn to just beyond it (merge_visible clips there).
      const auto axis = view.layout().rank_axis(view.axis(), arrow.rank);
      const double x0 = kLabelWidth + axis.x_of(copies.start_ns[c]), x1 = kLabelWidth + axis.x_of(copies.end_ns[c]);
      const double left = kLabelWidth, right = kLabelWidth + axis.width();
      starts = starts || std::abs(arrow.from.x() - x0) <= 1.0 || (x0 < left && arrow.from.x() <= left + 1.0);
      ends = ends || std::abs(arrow.to.x() - x1) <= 1.0 || (x1 > right && arrow.to.x() >= right - 1.0);
    }
    if (!starts || !ends) problems.push_back(what + ": at no copy's " + (starts ? "end" : "start"));
  }
  return problems;
}

bool has_ink(const QImage& image, const QRect& rect, const QColor& colour) {
  const QRect inside = rect.intersected(image.rect());
  for (int y = inside.top(); y <= inside.bottom(); ++y) {
    for (int x = inside.left(); x <= inside.right(); ++x) {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
              std::abs(pixel.blue() - colour.blue()) <= kInkDistance)
        return true;
    }
  }
  return false;
}

}  // namespace

std::string row_order_problems(const TimelineView& view) {
  const auto& session = *view.session();
  const auto& layout = view.layout();
  std::vector<std::string> problems;
  int below[2] = {0, layout.pinned_height};  // where the next row of each area may start: pinned, scrolling
  bool scrolling = false;
  std::optional<std::size_t> last_rank;
  std::optional<std::pair<std::size_t, std::int32_t>> gpu_above[2];  // the GPU row the streams below belong to
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto& place = layout.rows[i];
    const auto what = "row " + std::to_string(i) + " " + name_of(view, place);
    if (place.pinned && scrolling) problems.push_back(what + ": pinned, after the scrolling rows");
    scrolling = scrolling || !place.pinned;
    auto& next = below[place.pinned ? 0 : 1];
    if (place.height <= 0) problems.push_back(what + ": no height");
    if (place.y < next)
      problems.push_back(what + " at y " + std::to_string(place.y) + ", over the row above it (to " +
                         std::to_string(next) + ")");
    next = place.y + place.height;
    if (next > layout.height) problems.push_back(what + ": below the timeline's height");
    if (!place.pinned) {
      if (last_rank && place.rank < *last_rank) problems.push_back(what + ": rank " + std::to_string(place.rank) +
                                                                   " after rank " + std::to_string(*last_rank));
      last_rank = place.rank;
    }
    auto& gpu = gpu_above[place.pinned ? 0 : 1];
    const auto* row = place.row ? &session.ranks[place.rank]->timeline.rows[*place.row] : nullptr;
    if (!row || row->kind == RowKind::host_thread) {
      gpu.reset();
    } else if (row->kind == RowKind::device) {
      gpu = std::pair{place.rank, row->device};
    } else if (gpu != std::pair{place.rank, row->device} && gpu_rows(view, place.rank, row->device) &&
               layout.options.groups.pinned.empty()) {
      problems.push_back(what + ": a stream not under its GPU's row");
    }
  }
  return joined(problems);
}

std::string row_label_problems(const TimelineView& view) {
  std::vector<std::string> problems;
  const QFontMetrics metrics(view.font());
  std::vector<QRect> placed;
  for (const bool pinned : {true, false}) {
    const auto area = area_of(view, pinned);
    const auto labels = row_labels_in_place(view, pinned);
    std::vector<const LayoutRow*> rows;
    for (const auto& place : view.layout().rows)
      if (place.pinned == pinned && shown_in(place, view.scroll_y(), area)) rows.push_back(&place);
    if (labels.size() != rows.size()) {
      problems.push_back(std::to_string(labels.size()) + " labels for " + std::to_string(rows.size()) + " rows");
      continue;
    }
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const auto& label = labels[k];
      const int top = row_top(*rows[k], view.scroll_y()), bottom = top + rows[k]->height;
      if (top < area.first || bottom > area.second) continue;  // cut by the view's edge: the user scrolls
      const auto what = "label " + label.text.toStdString() + " at " + rect_text(label.rect);
      if (label.rect.left() < 0 || label.rect.right() >= kLabelWidth) problems.push_back(what + ": off the label column");
      if (label.rect.top() < top || label.rect.bottom() >= bottom)
        problems.push_back(what + ": outside its row " + std::to_string(top) + ".." + std::to_string(bottom - 1));
      if (label.rect.height() < metrics.height())
        problems.push_back(what + ": lower than a line of text (" + std::to_string(metrics.height()) + " px)");
      for (const auto& other : placed)
        if (other.intersects(label.rect)) problems.push_back(what + ": over another label");
      placed.push_back(label.rect);
    }
  }
  return joined(problems);
}

std::string interval_label_problems(const TimelineView& view) {
  std::vector<std::string> problems;
  for (const auto& label : timeline_labels(view)) {
    const auto* place = view.layout().row_at(label.rect.center().y(), view.scroll_y());
    if (!place || !place->row) {
      problems.push_back("over no GPU's rows: " + label.text.toStdString());
      continue;
    }
    const auto& row = view.session()->ranks[place->rank]->timeline.rows[*place->row];
    QString shown = label.text;
    if (shown.endsWith(QChar(0x2026))) shown.chop(1);
    std::string problem;
    if (shown.startsWith(QStringLiteral("step ")))
      problem = step_label_problem(view, label, place->rank, row.device, shown);
    else if (shown.startsWith(QStringLiteral("gap: ")))
      problem = gap_label_problem(view, label, place->rank, row.device, shown);
    else
      problem = "neither a step's nor a gap's label: " + label.text.toStdString();
    if (!problem.empty()) problems.push_back(problem);
  }
  return joined(problems);
}

std::string overlay_problems(const TimelineView& view) {
  std::vector<std::string> problems;
  for (const bool pinned : {true, false}) {
    for (auto&& problem : boundary_problems(view, pinned)) problems.push_back(std::move(problem));
    for (auto&& problem : gap_band_problems(view, pinned)) problems.push_back(std::move(problem));
  }
  for (auto&& problem : arrow_problems(view)) problems.push_back(std::move(problem));
  return joined(problems);
}

std::string ink_problems(const TimelineView& view, const QImage& image) {
  std::vector<std::string> problems;
  auto texts = timeline_labels(view);
  for (const bool pinned : {true, false}) {
    const auto area = area_of(view, pinned);
    for (const auto& label : row_labels_in_place(view, pinned))
      if (label.rect.top() >= area.first && label.rect.bottom() < area.second) texts.push_back(label);
  }
  for (const auto& text : texts)
    if (!has_ink(image, text.rect, text.colour))
      problems.push_back("nothing drawn in the colour of " + text.text.toStdString() + " at " + rect_text(text.rect));
  return joined(problems);
}

std::string timeline_layout_problems(const TimelineView& view, const QImage& image) {
  return row_order_problems(view) + row_label_problems(view) + interval_label_problems(view) +
         overlay_problems(view) + ink_problems(view, image);
}

}  // namespace gpuprof::gui::testing
