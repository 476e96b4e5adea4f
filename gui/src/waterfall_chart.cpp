#include "gpuprof/gui/waterfall_chart.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>

#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kLeft = 10, kTop = 28, kBottom = 60;

QString ms_text(double ns) { return QString::fromStdString(units::format_duration(static_cast<std::int64_t>(std::llround(ns)))); }

struct Bar {
  QString label;
  double from = 0, to = 0;
  QColor color;
};

std::vector<Bar> bars(const comparison::RunComparison& comparison) {
  std::vector<Bar> result{{QStringLiteral("base step"), 0, comparison.base.step_ns, QColor(90, 90, 90)}};
  double level = comparison.base.step_ns;
  for (const auto& term : comparison.waterfall) {
    const double next = level + term.delta_ns;
    result.push_back({QString::fromStdString(term.name), level, next,
                      term.delta_ns > 0 ? QColor(214, 39, 40) : QColor(44, 160, 44)});
    level = next;
  }
  result.push_back({QStringLiteral("other step"), 0, comparison.other.step_ns, QColor(70, 130, 180)});
  return result;
}

// The level a bar reaches at its lower end (0 for the two full step bars).
double i_level(const Bar& bar) { return bar.from == 0 ? bar.to : std::min(bar.from, bar.to); }

}  // namespace

WaterfallChart::WaterfallChart(QWidget* parent) : QWidget(parent) { setMinimumSize(300, 200); }

void WaterfallChart::set_comparison(const comparison::RunComparison& comparison) {
  comparison_ = comparison;
  update();
}

void WaterfallChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  painter.setPen(Qt::black);
  painter.drawText(QRect(0, 0, width(), kTop - 6), Qt::AlignCenter,
                   tr("Step time waterfall: base → other (red: slower, green: faster)"));
  const auto items = bars(comparison_);
  double lowest = items.front().to, highest = 1;
  for (const auto& bar : items) {
    highest = std::max({highest, bar.from, bar.to});
    lowest = std::min(lowest, i_level(bar));
  }
  // Step changes are often small next to the step itself: the axis starts just below the
  // lowest level reached, so each term stays visible (the floor is written on the chart).
  const double floor = std::max(0.0, lowest - std::max(highest - lowest, highest * 0.02) * 1.5);
  const double top = highest + (highest - floor) * 0.05;
  const int plot_height = height() - kTop - kBottom;
  const int slot = std::max(1, (width() - 2 * kLeft) / static_cast<int>(items.size()));
  auto y_of = [&](double ns) {
    return kTop + plot_height - static_cast<int>((std::max(ns, floor) - floor) / (top - floor) * plot_height);
  };
  if (floor > 0) {
    painter.setPen(Qt::gray);
    painter.drawText(QRect(kLeft, kTop - 4, width(), 14), Qt::AlignLeft,
                     tr("axis starts at %1").arg(ms_text(floor)));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& bar = items[i];
    const int x = kLeft + static_cast<int>(i) * slot;
    const int y0 = y_of(std::max(bar.from, bar.to)), y1 = y_of(std::min(bar.from, bar.to));
    painter.fillRect(QRect(x + slot / 6, y0, slot * 2 / 3, std::max(1, y1 - y0)), bar.color);
    painter.setPen(Qt::black);
    const double value = i == 0 || i + 1 == items.size() ? bar.to : bar.to - bar.from;
    painter.drawText(QRect(x, y0 - 16, slot, 14), Qt::AlignCenter,
                     (i == 0 || i + 1 == items.size() || value < 0 ? QString() : QStringLiteral("+")) + ms_text(value));
    painter.drawText(QRect(x, height() - kBottom + 4, slot, kBottom - 4), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                     bar.label);
  }
}

}  // namespace gpuprof::gui
