#include "gpuprof/gui/label_cache.hpp"

#include <QFontMetricsF>

#include <functional>

namespace gpuprof::gui {

std::size_t LabelCache::KeyHash::operator()(const Key& key) const {
  return std::hash<std::string>()(key.text) ^ (std::hash<int>()(key.width) * 0x9e3779b97f4a7c15ULL);
}

void LabelCache::draw(QPainter& painter, const QRectF& rect, std::string_view text) {
  if (painter.font() != font_ || line_height_ == 0) {
    font_ = painter.font();
    line_height_ = QFontMetricsF(font_).height();
    labels_.clear();
  }
  const int width = static_cast<int>(rect.width());
  Key key{std::string(text), width};
  auto found = labels_.find(key);
  if (found == labels_.end()) {
    if (labels_.size() >= kMaxLabels) labels_.clear();
    const QString elided = QFontMetricsF(font_).elidedText(
        QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())), Qt::ElideRight, width);
    QStaticText label(elided);
    label.setTextFormat(Qt::PlainText);
    label.prepare(QTransform(), font_);
    found = labels_.emplace(std::move(key), std::move(label)).first;
  }
  painter.drawStaticText(QPointF(rect.left(), rect.top() + (rect.height() - line_height_) / 2), found->second);
}

}  // namespace gpuprof::gui
