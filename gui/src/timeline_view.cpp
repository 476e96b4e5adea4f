#include "gpuprof/gui/timeline_view.hpp"

#include <QHelpEvent>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "gpuprof/rank/idle_description.hpp"
#include "gpuprof/analysis/kernel_names.hpp"
#include "gpuprof/trace/symbol_names.hpp"

namespace gpuprof::gui {
namespace {

constexpr double kZoomStep = 1.25;
constexpr double kPanFraction = 0.1;
constexpr double kHitTolerancePx = 3.0;
constexpr int kClickSlopPx = 3;  // a press that moves less than this is a click, not a drag

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setMinimumSize(400, 200);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void TimelineView::set_session(std::shared_ptr<const Session> session) {
  session_ = std::move(session);
  decorations_ = {};
  layout_options_.groups = {};  // groups name rank indices of the session they were made in
  layout_ = session_ ? layout_timeline(*session_, layout_options_) : TimelineLayout{};
  if (session_) axis_.set_limits(layout_.start_ns, layout_.end_ns);
  update_width();
  fit_all();
}

void TimelineView::update_width() { axis_.set_width(std::max(1, width() - kLabelWidth)); }

void TimelineView::after_view_change() {
  update();
  emit view_changed();
}

void TimelineView::fit_all() {
  axis_.fit_all();
  after_view_change();
}

void TimelineView::set_view(std::int64_t start_ns, std::int64_t end_ns) {
  axis_.set_view(start_ns, end_ns);
  after_view_change();
}

void TimelineView::zoom_to(std::int64_t start_ns, std::int64_t end_ns) {
  // A little room on both sides, so the edges of what was asked for stay visible.
  const std::int64_t margin = (end_ns - start_ns) / 20;
  set_view(start_ns - margin, end_ns + margin);
}

void TimelineView::zoom_to_rank_range(std::size_t rank, std::int64_t start_ns, std::int64_t end_ns) {
  const std::int64_t offset = rank < layout_.clock_offset_ns.size() ? layout_.clock_offset_ns[rank] : 0;
  zoom_to(start_ns + offset, end_ns + offset);
}

void TimelineView::set_layout_options(const LayoutOptions& options) {
  layout_options_ = options;
  if (!session_) return;
  // The view keeps its place on the screen; only rows and rank positions change.
  const auto start = axis_.view_start(), end = axis_.view_end();
  layout_ = layout_timeline(*session_, layout_options_);
  axis_.set_limits(layout_.start_ns, layout_.end_ns);
  decorations_.scroll_y = std::clamp(decorations_.scroll_y, 0, std::max(0, layout_.height));
  axis_.set_view(start, end);
  after_view_change();
}

std::optional<GroupKey> TimelineView::group_at(QPoint position) const {
  if (!session_ || position.x() >= kLabelWidth) return std::nullopt;
  const auto* place = layout_.row_at(position.y(), decorations_.scroll_y);
  if (!place) return std::nullopt;
  // Compact rows have no headers: a row stands for its rank.
  if (layout_options_.compact) return GroupKey{place->rank, GroupKind::rank};
  return place->heads;
}

void TimelineView::toggle_collapsed(const GroupKey& key) {
  if (layout_options_.compact) return;  // nothing collapses there
  auto options = layout_options_;
  options.groups.toggle_collapsed(key);
  set_layout_options(options);
}

void TimelineView::toggle_pinned(const GroupKey& key) {
  auto options = layout_options_;
  options.groups.toggle_pinned(key);
  set_layout_options(options);
}

void TimelineView::zoom_by(double factor) {
  axis_.zoom(factor, axis_.width() / 2);
  after_view_change();
}

void TimelineView::pan_by_fraction(double fraction) {
  axis_.pan_px(fraction * axis_.width());
  after_view_change();
}

void TimelineView::scroll_by(int dy) {
  const int max_scroll = std::max(0, layout_.height - (height() - kRulerHeight));
  decorations_.scroll_y = std::clamp(decorations_.scroll_y + dy, 0, max_scroll);
  update();
}

void TimelineView::select_event(const std::optional<EventRef>& ref) {
  decorations_.selected = ref;
  decorations_.selected_idle.reset();
  if (ref && session_ && ref->rank < session_->ranks.size()) {
    emit event_selected(QString::fromStdString(describe_event(*session_->ranks[ref->rank], *ref)));
  } else {
    emit event_selected(QString());
  }
  update();
}

void TimelineView::highlight_kernel(const QString& name) {
  decorations_.highlights.clear();
  if (!session_ || name.isEmpty()) {
    update();
    return;
  }
  const std::string wanted = name.toStdString();
  for (const auto& rank : session_->ranks) {
    auto& per_row = decorations_.highlights.emplace_back(rank->timeline.rows.size());
    const auto& strings = rank->model.strings;
    // Tables show names demangled; an older file may still store them mangled.
    auto it = std::find(strings.begin(), strings.end(), wanted);
    if (it == strings.end()) {
      it = std::find_if(strings.begin(), strings.end(), [&wanted](const std::string& stored) {
        return trace::is_mangled_symbol(stored) && analysis::readable_kernel_name(stored) == wanted;
      });
    }
    if (it == strings.end()) continue;
    const auto id = static_cast<trace::StringId>(it - strings.begin());
    for (std::size_t row = 0; row < rank->timeline.rows.size(); ++row) {
      if (rank->timeline.rows[row].kind == RowKind::stream) {
        per_row[row] = kernel_instances(rank->model, rank->timeline.rows[row], id);
      }
    }
  }
  update();
}

std::size_t TimelineView::highlighted_instances() const {
  std::size_t count = 0;
  for (const auto& rank : decorations_.highlights) {
    for (const auto& lane : rank) count += lane.size();
  }
  return count;
}

std::optional<EventRef> TimelineView::event_at(QPoint position) const {
  if (!session_ || position.x() < kLabelWidth || position.y() < kRulerHeight) return std::nullopt;
  const auto* place = layout_.row_at(position.y(), decorations_.scroll_y);
  if (!place || !place->row) return std::nullopt;
  const auto& rank = *session_->ranks[place->rank];
  const auto& row = rank.timeline.rows[*place->row];
  const double x = position.x() - kLabelWidth;
  const std::int64_t t = layout_.rank_axis(axis_, place->rank).ns_of(x);
  const auto tolerance = static_cast<std::int64_t>(std::ceil(axis_.ns_per_px() * kHitTolerancePx));
  std::size_t first_lane = 0, last_lane = row.lanes.size();
  if (row.kind == RowKind::host_thread) {
    // Host lanes are stacked: only the one under the pointer counts.
    first_lane = static_cast<std::size_t>((position.y() - row_top(*place, decorations_.scroll_y)) / kHostLaneHeight);
    last_lane = std::min(last_lane, first_lane + 1);
  }
  for (std::size_t i = first_lane; i < last_lane; ++i) {
    const auto view = lane_view(rank.model, row.lanes[i]);
    const std::size_t at = find_event_at(view, t, tolerance);
    if (at < view.size) return EventRef{place->rank, row.lanes[i].kind, view.row(at)};
  }
  return std::nullopt;
}

std::optional<TimelineView::DeviceTime> TimelineView::device_time_at(QPoint position) const {
  if (!session_ || position.x() < kLabelWidth || position.y() < kRulerHeight) return std::nullopt;
  const auto* place = layout_.row_at(position.y(), decorations_.scroll_y);
  if (!place || !place->row) return std::nullopt;
  const auto& row = session_->ranks[place->rank]->timeline.rows[*place->row];
  if (row.kind == RowKind::host_thread) return std::nullopt;
  return DeviceTime{place->rank, row.device, layout_.rank_axis(axis_, place->rank).ns_of(position.x() - kLabelWidth)};
}

std::optional<std::string> TimelineView::idle_at(QPoint position) const {
  const auto at = device_time_at(position);
  if (!at) return std::nullopt;
  const auto& intervals = session_->ranks[at->rank]->analysis.idle_intervals;
  const auto* interval = idle::idle_interval_at(intervals, at->device, at->t_ns);
  if (interval == nullptr) return std::nullopt;
  return idle::describe_idle(*interval);
}

std::optional<IdleSelection> TimelineView::idle_selection_at(QPoint position) const {
  const auto at = device_time_at(position);
  if (!at) return std::nullopt;
  return gui::idle_selection_at(*session_, at->rank, at->device, at->t_ns);
}

void TimelineView::select_idle(const std::optional<IdleSelection>& selection) {
  decorations_.selected.reset();
  decorations_.selected_idle = selection;
  emit event_selected(selection && session_ ? QString::fromStdString(describe_idle_selection(*session_, *selection))
                                            : QString());
  update();
}

QImage TimelineView::render_image(QSize size) {
  QImage image(size, QImage::Format_RGB32);
  const double saved_width = axis_.width();
  axis_.set_width(size.width() - kLabelWidth);
  // Keep the same time range when the image is wider or narrower than the widget.
  const auto start = axis_.view_start(), end = axis_.view_end();
  axis_.set_view(start, end);
  QPainter painter(&image);
  if (session_) painter_.paint(painter, size, *session_, layout_, axis_, decorations_);
  else image.fill(Qt::white);
  painter.end();
  axis_.set_width(saved_width);
  axis_.set_view(start, end);
  return image;
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (!session_) {
    painter.fillRect(rect(), palette().window());
    painter.drawText(rect(), Qt::AlignCenter, tr("Open a trace (File ▸ Open, or drop files here)"));
    return;
  }
  painter_.paint(painter, size(), *session_, layout_, axis_, decorations_);
}

void TimelineView::resizeEvent(QResizeEvent*) {
  const auto start = axis_.view_start(), end = axis_.view_end();
  update_width();
  if (session_) axis_.set_view(start, end);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    axis_.zoom(std::pow(kZoomStep, steps), event->position().x() - kLabelWidth);
    after_view_change();
  } else if (event->modifiers() & Qt::ShiftModifier) {
    pan_by_fraction(-steps * kPanFraction);
  } else {
    scroll_by(static_cast<int>(-steps * 3 * kStreamRowHeight));
  }
  event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  // A click on a group's label (its ▾/▸ marker) collapses or expands it.
  if (const auto group = group_at(event->position().toPoint()); group && !layout_options_.compact) {
    toggle_collapsed(*group);
    selecting_range_ = dragging_ = false;
    press_position_ = last_position_ = QPoint(-1, -1);
    return;
  }
  press_position_ = last_position_ = event->position().toPoint();
  selecting_range_ = (event->modifiers() & Qt::ShiftModifier) != 0;
  dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  if (!(event->buttons() & Qt::LeftButton) || press_position_.x() < 0) return;
  const QPoint position = event->position().toPoint();
  if ((position - press_position_).manhattanLength() >= kClickSlopPx) dragging_ = true;
  if (!dragging_) return;
  if (selecting_range_) {
    decorations_.rubber_band = std::pair{press_position_.x(), position.x()};
    update();
  } else {
    axis_.pan_px(last_position_.x() - position.x());
    scroll_by(last_position_.y() - position.y());
    after_view_change();
  }
  last_position_ = position;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || press_position_.x() < 0) return;
  const QPoint position = event->position().toPoint();
  if (selecting_range_ && dragging_) {
    decorations_.rubber_band.reset();
    const double x0 = std::min(press_position_.x(), position.x()) - kLabelWidth;
    const double x1 = std::max(press_position_.x(), position.x()) - kLabelWidth;
    axis_.set_view(axis_.ns_of(x0), axis_.ns_of(x1));
    after_view_change();
  } else if (!dragging_) {
    // A click on GPU work selects it; on idle time (a gap band, an idle interval), that stretch.
    if (const auto ref = event_at(position)) select_event(ref);
    else if (const auto idle = idle_selection_at(position)) select_idle(idle);
    else select_event(std::nullopt);
  }
  dragging_ = selecting_range_ = false;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
  const auto group = group_at(event->pos());
  if (!group) return;
  QMenu menu(this);
  if (!layout_options_.compact) {
    const bool collapsed = layout_options_.groups.is_collapsed(*group);
    menu.addAction(collapsed ? tr("Expand") : tr("Collapse"), this, [this, key = *group] { toggle_collapsed(key); });
  }
  const bool pinned = layout_options_.groups.is_pinned(*group);
  menu.addAction(pinned ? tr("Unpin") : tr("Pin to top"), this, [this, key = *group] { toggle_pinned(key); });
  menu.exec(event->globalPos());
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Plus: case Qt::Key_Equal: case Qt::Key_W: zoom_by(kZoomStep); break;
    case Qt::Key_Minus: case Qt::Key_S: zoom_by(1 / kZoomStep); break;
    case Qt::Key_Left: case Qt::Key_A: pan_by_fraction(-kPanFraction); break;
    case Qt::Key_Right: case Qt::Key_D: pan_by_fraction(kPanFraction); break;
    case Qt::Key_Up: scroll_by(-kStreamRowHeight); break;
    case Qt::Key_Down: scroll_by(kStreamRowHeight); break;
    case Qt::Key_F: case Qt::Key_Home: fit_all(); break;
    case Qt::Key_Escape: select_event(std::nullopt); break;  // clears an idle selection too
    default: QWidget::keyPressEvent(event); return;
  }
  event->accept();
}

bool TimelineView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip && session_) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (const auto ref = event_at(help->pos())) {
      QToolTip::showText(help->globalPos(), QString::fromStdString(describe_event(*session_->ranks[ref->rank], *ref)),
                         this);
    } else if (const auto idle = idle_at(help->pos())) {
      QToolTip::showText(help->globalPos(), QString::fromStdString(*idle), this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace gpuprof::gui
