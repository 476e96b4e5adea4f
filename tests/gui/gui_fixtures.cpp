#include "gui_fixtures.hpp"

#include "gpuprof/gui/timeline_labels.hpp"
#include "gpuprof/gui/timeline_painter.hpp"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QWindow>

#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace gpuprof::gui::testing {

void write_trace(const std::string& path, std::int32_t devices, std::int64_t steps) {
  synthetic::SynthOptions options;
  options.devices = devices;
  options.steps = steps;
  options.kernels_per_step = 12;
  options.force = true;
  synthetic::write_synthetic_trace(path, options);
}

std::shared_ptr<const Session> load(const std::string& path) {
  const std::atomic<bool> cancel{false};
  return load_session({path}, {}, cancel);
}

ImageStats image_stats(const QImage& image) {
  QHash<QRgb, qint64> counts;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) ++counts[image.pixel(x, y)];
  }
  qint64 most = 0;
  for (const auto count : counts) most = std::max(most, count);
  const auto pixels = static_cast<double>(image.width()) * image.height();
  return {static_cast<int>(counts.size()), pixels > 0 ? 1.0 - static_cast<double>(most) / pixels : 0.0};
}

static QString screenshot_path(const QString& name) {
  return QDir(QStringLiteral(GPUPROF_GUI_SCREENSHOT_DIR)).filePath(name + QStringLiteral(".png"));
}

void save_screenshot(const QImage& image, const QString& name) {
  ASSERT_TRUE(QDir(QStringLiteral(GPUPROF_GUI_SCREENSHOT_DIR)).mkpath(QStringLiteral(".")));
  ASSERT_FALSE(image.isNull()) << name.toStdString();
  ASSERT_TRUE(image.save(screenshot_path(name), "PNG")) << screenshot_path(name).toStdString();
}

void save_and_check(const QImage& image, const QString& name) {
  ASSERT_NO_FATAL_FAILURE(save_screenshot(image, name));
  const QString path = screenshot_path(name);
  const auto stats = image_stats(QImage(path));
  EXPECT_GT(stats.distinct_colors, 8) << path.toStdString();
  EXPECT_GT(stats.non_background_share, 0.02) << path.toStdString();
}

std::vector<std::string> text_legibility_problems(const std::vector<ChartText>& texts, const std::vector<QRect>& shapes,
                                                  QRect widget, const QFontMetrics& metrics) {
  std::vector<std::string> problems;
  std::vector<QRect> inked;
  for (const auto& text : texts) {
    const auto name = text.text.toStdString();
    const QRect ink = metrics.boundingRect(text.rect, text.flags, text.text);
    if (!text.rect.contains(ink)) problems.push_back("clipped: " + name);
    if (!widget.contains(ink)) problems.push_back("outside the widget: " + name);
    for (std::size_t other = 0; other < inked.size(); ++other)
      if (inked[other].intersects(ink))
        problems.push_back("overlaps: " + name + " / " + texts[other].text.toStdString());
    for (const auto& shape : shapes)
      if (shape.intersects(ink)) problems.push_back("on a bar: " + name);
    inked.push_back(ink);
  }
  return problems;
}

std::unique_ptr<TimelineView> shown_timeline(std::shared_ptr<const Session> session, QSize size, bool compact) {
  auto view = std::make_unique<TimelineView>();
  view->resize(size);
  view->show();
  auto options = view->layout_options();
  options.compact = compact;
  view->set_layout_options(options);
  view->set_session(std::move(session));
  QApplication::processEvents();
  return view;
}

std::vector<ChartText> timeline_labels(const TimelineView& view) {
  const QFontMetrics metrics(view.font());
  const auto& layout = view.layout();
  const int split = kRulerHeight + layout.pinned_height;
  auto labels =
      step_and_gap_labels(*view.session(), layout, view.axis(), view.scroll_y(), true, kRulerHeight, split, metrics);
  const auto rest =
      step_and_gap_labels(*view.session(), layout, view.axis(), view.scroll_y(), false, split, view.height(), metrics);
  labels.insert(labels.end(), rest.begin(), rest.end());
  return labels;
}

std::string timeline_label_problems(const TimelineView& view) {
  return joined(text_legibility_problems(timeline_labels(view), {}, view.rect(), QFontMetrics(view.font())));
}

std::string labels_outside_their_rows(const TimelineView& view) {
  std::vector<std::string> problems;
  for (const auto& label : timeline_labels(view)) {
    const auto* row = view.layout().row_at(label.rect.center().y(), view.scroll_y());
    const int top = row ? row_top(*row, view.scroll_y()) : 0;
    if (!row || label.rect.top() < top || label.rect.bottom() > top + row->height)
      problems.push_back("outside its row: " + label.text.toStdString());
  }
  return joined(problems);
}

std::string elided_row_labels(const TimelineView& view) {
  const QFontMetrics metrics(view.font());
  const auto& layout = view.layout();
  // Every row's, also those scrolled out of the view: the user scrolls to them.
  constexpr int kFar = 1 << 28;
  auto labels = label_column_texts(*view.session(), layout, view.scroll_y(), true, -kFar, kFar);
  const auto rest = label_column_texts(*view.session(), layout, view.scroll_y(), false, -kFar, kFar);
  labels.insert(labels.end(), rest.begin(), rest.end());
  std::vector<std::string> problems;
  for (const auto& label : labels) {
    const int needed = metrics.horizontalAdvance(label.text);
    if (needed > label.rect.width()) {
      problems.push_back("elided: " + label.text.toStdString() + " (" + std::to_string(needed) + " px in " +
                         std::to_string(label.rect.width()) + ")");
    }
  }
  return joined(problems);
}

namespace {

bool inside_a_view(const QWidget& widget, const QWidget& root) {
  for (const auto* parent = widget.parentWidget(); parent && parent != &root; parent = parent->parentWidget())
    if (qobject_cast<const QAbstractItemView*>(parent) || qobject_cast<const QComboBox*>(parent)) return true;
  return false;
}

// Why `widget` shows less than its text, if it does.
std::string cut_problem(const QWidget& widget) {
  if (const auto* field = qobject_cast<const QLineEdit*>(&widget)) {
    if (field->placeholderText().isEmpty()) return {};
    const int needed = field->fontMetrics().horizontalAdvance(field->placeholderText()) + 12;
    if (field->width() >= needed) return {};
    return "placeholder cut: " + field->placeholderText().toStdString() + " (" + std::to_string(field->width()) +
           " < " + std::to_string(needed) + " px)";
  }
  if (const auto* box = qobject_cast<const QComboBox*>(&widget))
    return box->width() < box->minimumSizeHint().width() ? "choice cut: " + box->currentText().toStdString() : "";
  if (const auto* button = qobject_cast<const QAbstractButton*>(&widget))
    return button->width() < button->minimumSizeHint().width() ? "button cut: " + button->text().toStdString() : "";
  if (const auto* label = qobject_cast<const QLabel*>(&widget)) {
    if (label->wordWrap() || label->text().isEmpty()) return {};
    return label->width() < label->minimumSizeHint().width() ? "label cut: " + label->text().toStdString() : "";
  }
  return {};
}

}  // namespace

std::vector<std::string> control_problems(const QWidget& root) {
  std::vector<std::string> problems;
  std::vector<std::pair<const QWidget*, QRect>> placed;
  for (const auto* widget : root.findChildren<QWidget*>()) {
    const bool control = qobject_cast<const QLineEdit*>(widget) || qobject_cast<const QComboBox*>(widget) ||
                         qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QLabel*>(widget);
    if (!control || !widget->isVisible() || inside_a_view(*widget, root)) continue;
    if (auto problem = cut_problem(*widget); !problem.empty()) problems.push_back(problem);
    const QRect rect(widget->mapTo(&root, QPoint(0, 0)), widget->size());
    for (const auto& [other, other_rect] : placed)
      if (other_rect.intersects(rect) && !other->isAncestorOf(widget) && !widget->isAncestorOf(other))
        problems.push_back(std::string("over each other: ") + widget->metaObject()->className() + " and " +
                           other->metaObject()->className());
    placed.emplace_back(widget, rect);
  }
  return problems;
}

void click_as_user(QAbstractButton& button) {
  QWidget* window = button.window();
  QApplication::processEvents();  // the layout as shown
  const QPoint centre = button.mapTo(window, button.rect().center());
  const QWidget* under = window->childAt(centre);
  ASSERT_EQ(under, &button) << "under the cursor at the centre of '" << button.text().toStdString() << "' ("
                            << centre.x() << ", " << centre.y() << " in a window of " << window->width() << "x"
                            << window->height() << "): " << (under ? under->metaObject()->className() : "nothing");
  QTest::mouseClick(window->windowHandle(), Qt::LeftButton, {}, centre);
}

void press_predict(PredictionPanel& panel) {
  constexpr int kTimeoutMs = 300'000;  // a safety net for a hung worker, not a performance check
  const QSignalSpy shown(&panel, &PredictionPanel::prediction_shown);
  ASSERT_NO_FATAL_FAILURE(click_as_user(*panel.predict_button()));
  // The press cleared the last result and started a worker, which may already have shown its outcome.
  ASSERT_TRUE(panel.busy() || !shown.isEmpty() || !panel.error_text().isEmpty()) << "the press started nothing";
  ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.busy() && (!shown.isEmpty() || !panel.error_text().isEmpty()); },
                              kTimeoutMs));
  ASSERT_EQ(panel.prediction().has_value(), !shown.isEmpty());
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

}  // namespace gpuprof::gui::testing
