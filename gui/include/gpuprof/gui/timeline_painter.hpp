#pragma once

// Draws the timeline of a session with QPainter: the widget paints through it
// and the benchmark and screenshots render it into a QImage.

#include <QPainter>
#include <QSize>

#include <optional>
#include <vector>

#include "gpuprof/gui/event_details.hpp"
#include "gpuprof/gui/idle_details.hpp"
#include "gpuprof/gui/label_cache.hpp"
#include "gpuprof/gui/lod_merge.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/gui/waterfall_layout.hpp"

namespace gpuprof::gui {

// Everything on top of the events themselves.
struct TimelineDecorations {
  std::optional<EventRef> selected;
  std::optional<IdleSelection> selected_idle;  // a clicked gap band or idle interval (never with `selected`)
  // Per rank, per timeline row: the instances of the highlighted kernel (empty lane: none).
  std::vector<std::vector<Lane>> highlights;
  std::optional<std::pair<int, int>> rubber_band;  // widget x range while shift-dragging
  int scroll_y = 0;
};

class TimelinePainter {
 public:
  void paint(QPainter& painter, QSize size, const Session& session, const TimelineLayout& layout,
             const TimeAxis& axis, const TimelineDecorations& decorations);

  // Rectangle (widget coordinates) of an event, for the selection outline and flow arrows.
  static std::optional<QRectF> event_rect(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                          const EventRef& ref, int scroll_y);
  // Rectangle (widget coordinates) of a selected gap or idle interval: its time across the GPU's rows.
  static std::optional<QRectF> idle_rect(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                         const IdleSelection& selection, int scroll_y);

 private:
  // The rows of one area (pinned or scrolling), clipped to it.
  void paint_area(QPainter& painter, QSize size, const Session& session, const TimelineLayout& layout,
                  const TimeAxis& axis, int scroll_y, bool pinned);
  void paint_row(QPainter& painter, const LoadedRank& rank, const TimelineRow& row, const LayoutRow& place,
                 const TimeAxis& axis, int y);
  void paint_lane(QPainter& painter, const LoadedRank& rank, const Lane& lane, const TimeAxis& axis, QRectF band,
                  const QColor* override_color = nullptr);
  void paint_device_row(QPainter& painter, const LoadedRank& rank, const TimelineRow& row, const TimeAxis& axis,
                        QRectF band);
  void paint_compact_device(QPainter& painter, const LoadedRank& rank, std::size_t device_row, const TimeAxis& axis,
                            QRectF band);
  void paint_gaps(QPainter& painter, const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                  int scroll_y, int bottom, bool pinned);
  void paint_step_boundaries(QPainter& painter, const Session& session, const TimelineLayout& layout,
                             const TimeAxis& axis, int scroll_y, bool pinned, int top, int bottom);
  void paint_copy_arrows(QPainter& painter, const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                         int scroll_y);
  void paint_decorations(QPainter& painter, const Session& session, const TimelineLayout& layout,
                         const TimeAxis& axis, const TimelineDecorations& decorations);
  void paint_labels(QPainter& painter, QSize size, const Session& session, const TimelineLayout& layout, int scroll_y,
                    bool pinned);
  void paint_ruler(QPainter& painter, QSize size, const Session& session, const TimeAxis& axis);

  std::vector<DrawBlock> blocks_;  // reused between lanes and frames
  LabelCache labels_;
};

// Row top in widget coordinates: pinned rows do not scroll.
inline int row_top(const LayoutRow& row, int scroll_y) { return kRulerHeight + row.y - (row.pinned ? 0 : scroll_y); }

// The label of a row in the label column: a header's group with its ▾/▸ marker, a GPU, a stream, a thread.
std::string row_label(const Session& session, const TimelineLayout& layout, const LayoutRow& place);
// The label column's texts of one area (pinned or not) between widget y `top` and `bottom`, each in the
// rectangle the painter draws it in (widget coordinates), whole: the painter elides what does not fit.
std::vector<ChartText> label_column_texts(const Session& session, const TimelineLayout& layout, int scroll_y,
                                          bool pinned, int top, int bottom);

}  // namespace gpuprof::gui
