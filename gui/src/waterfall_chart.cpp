#include "gpuprof/gui/waterfall_chart.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace gpuprof::gui {

WaterfallChart::WaterfallChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void WaterfallChart::set_comparison(const comparison::RunComparison& comparison) {
  set_bars(comparison::waterfall_bars(comparison),
           tr("Step time waterfall: base run → other run, the change of each term (red: slower, green: faster)"));
}

void WaterfallChart::set_bars(std::vector<comparison::WaterfallBar> bars, const QString& title) {
  bars_ = std::move(bars);
  title_ = title;
  updateGeometry();  // the minimum size follows the categories' and values' widths
  update();
}

WaterfallLayout WaterfallChart::current_layout() const {
  return layout_waterfall(bars_, title_, size(), fontMetrics());
}

QSize WaterfallChart::minimumSizeHint() const {
  // The title wraps, so its height depends on the width: measure at the width the chart would get at least.
  const auto first = layout_waterfall(bars_, title_, QSize(0, 0), fontMetrics()).minimum;
  return layout_waterfall(bars_, title_, QSize(first.width(), 0), fontMetrics()).minimum;
}

QSize WaterfallChart::sizeHint() const {
  const QSize minimum = minimumSizeHint();
  return {std::max(600, minimum.width() + 200), std::max(300, minimum.height())};
}

void WaterfallChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  const auto layout = current_layout();
  painter.setPen(QColor(221, 221, 221));
  for (const int x : layout.tick_x) painter.drawLine(x, layout.plot.top(), x, layout.plot.bottom());
  for (const auto& bar : layout.bars) painter.fillRect(bar.rect, bar.colour);
  painter.setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
  for (const auto& line : layout.connectors) painter.drawLine(line);
  for (const auto& text : layout.texts) {
    painter.setPen(text.colour);
    painter.drawText(text.rect, text.flags, text.text);
  }
}

bool WaterfallChart::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  auto* help = static_cast<QHelpEvent*>(event);
  for (const auto& bar : current_layout().bars) {
    if (bar.rect.adjusted(0, 0, 1, 0).contains(help->pos())) {
      QToolTip::showText(help->globalPos(), bar.tooltip, this);
      return true;
    }
  }
  QToolTip::hideText();
  return true;
}

}  // namespace gpuprof::gui
