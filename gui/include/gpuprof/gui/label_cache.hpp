#pragma once

// Event labels of the timeline, elided to their block and laid out once, then reused while the same text
// is drawn at the same width (every frame of a pan, and the blocks a zoom leaves alone). Eliding shapes
// the whole text, and demangled kernel names run to hundreds of characters: it was the costliest part of
// drawing a label.

#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QStaticText>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpuprof::gui {

class LabelCache {
 public:
  // Draws `text` in `rect`, left aligned and vertically centred, elided at the right to the rect's width.
  void draw(QPainter& painter, const QRectF& rect, std::string_view text);

  std::size_t size() const { return labels_.size(); }

 private:
  struct Key {
    std::string text;
    int width = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const;
  };

  // A bound on what a long session keeps: past it the cache starts again.
  static constexpr std::size_t kMaxLabels = 4096;

  QFont font_;
  double line_height_ = 0;
  std::unordered_map<Key, QStaticText, KeyHash> labels_;
};

}  // namespace gpuprof::gui
