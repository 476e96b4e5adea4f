#pragma once

// The timeline widget: paints through TimelinePainter and turns mouse and
// keys into TimeAxis changes. Ctrl+wheel or +/- zoom, drag or arrows pan,
// shift+drag zooms to the dragged range, F fits all, click selects; a click on a
// group's label collapses it, its context menu pins it to the top.

#include <QWidget>

#include <memory>

#include "gpuprof/gui/timeline_painter.hpp"

namespace gpuprof::gui {

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);

  void set_session(std::shared_ptr<const Session> session);
  // Lays the session out again after its analyses were stored in it (steps, gaps, aligned clocks), keeping the
  // view, the groups and the selection.
  void refresh() { set_layout_options(layout_options_); }
  const Session* session() const { return session_.get(); }
  const TimeAxis& axis() const { return axis_; }
  const TimelineLayout& layout() const { return layout_; }
  int scroll_y() const { return decorations_.scroll_y; }

  void fit_all();
  // Shows [start, end) exactly; zoom_to adds a small margin on both sides.
  void set_view(std::int64_t start_ns, std::int64_t end_ns);
  void zoom_to(std::int64_t start_ns, std::int64_t end_ns);
  // zoom_to for times read on rank `rank`'s (index) own clock.
  void zoom_to_rank_range(std::size_t rank, std::int64_t start_ns, std::int64_t end_ns);
  // Hidden idle GPUs and aligned clocks by default; both can be shown.
  void set_layout_options(const LayoutOptions& options);
  const LayoutOptions& layout_options() const { return layout_options_; }
  // The group whose label is at `position` (label column): a header's group; in compact mode the row's rank.
  std::optional<GroupKey> group_at(QPoint position) const;
  // Collapse or expand, pin or unpin a group; kept until another session is shown. Also by a click on a
  // group's label (collapse) and its context menu (both).
  void toggle_collapsed(const GroupKey& key);
  void toggle_pinned(const GroupKey& key);
  void zoom_by(double factor);
  void pan_by_fraction(double fraction);
  // Selects an event (and shows its launching call); empty clears.
  void select_event(const std::optional<EventRef>& ref);
  const std::optional<EventRef>& selected() const { return decorations_.selected; }
  // Highlights every instance of the kernel with this name; empty clears.
  void highlight_kernel(const QString& name);
  std::size_t highlighted_instances() const;

  std::optional<EventRef> event_at(QPoint position) const;
  // Over a device or stream row where the GPU is idle: that idle interval's causes and coverage.
  std::optional<std::string> idle_at(QPoint position) const;
  // Over a device or stream row: the batch gap there, else the idle interval there.
  std::optional<IdleSelection> idle_selection_at(QPoint position) const;
  // Selects a gap or idle interval and shows its causes and host activity; empty clears.
  void select_idle(const std::optional<IdleSelection>& selection);
  const std::optional<IdleSelection>& selected_idle() const { return decorations_.selected_idle; }
  // Renders the current view into an image of any size (screenshots, benchmark).
  QImage render_image(QSize size);

  QSize sizeHint() const override { return {1000, 600}; }

 signals:
  void event_selected(const QString& details);
  void view_changed();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void update_width();
  void scroll_by(int dy);
  void after_view_change();
  // The rank (index), device and time (the rank's clock) under a GPU row, if the position is over one.
  struct DeviceTime {
    std::size_t rank = 0;
    std::int32_t device = 0;
    std::int64_t t_ns = 0;
  };
  std::optional<DeviceTime> device_time_at(QPoint position) const;

  std::shared_ptr<const Session> session_;
  TimelineLayout layout_;
  LayoutOptions layout_options_;
  TimeAxis axis_;
  TimelineDecorations decorations_;
  TimelinePainter painter_;
  QPoint press_position_;
  QPoint last_position_;
  bool dragging_ = false;
  bool selecting_range_ = false;
};

}  // namespace gpuprof::gui
