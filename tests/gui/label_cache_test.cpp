// Cached labels must look like labels drawn afresh: elided to their block, never spilling past it, and
// reused only for the same text at the same width.
#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>

#include <string>

#include "gpuprof/gui/label_cache.hpp"

namespace gpuprof::gui {
namespace {

// Columns of `image` at or right of x that hold a non-white pixel.
int inked_columns_from(const QImage& image, int x) {
  int columns = 0;
  for (int column = x; column < image.width(); ++column) {
    for (int y = 0; y < image.height(); ++y) {
      if (image.pixel(column, y) != qRgb(255, 255, 255)) {
        ++columns;
        break;
      }
    }
  }
  return columns;
}

QImage drawn(LabelCache& cache, const std::string& text, double width) {
  QImage image(400, 20, QImage::Format_RGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setPen(Qt::black);
  cache.draw(painter, QRectF(10, 0, width, 20), text);
  return image;
}

const std::string kLongName =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::AddFunctor<float>>>";

TEST(LabelCache, LongNamesAreElidedInsideTheirBlock) {
  LabelCache cache;
  const QImage image = drawn(cache, kLongName, 120);
  EXPECT_GT(inked_columns_from(image, 10), 0);       // something was written
  EXPECT_EQ(inked_columns_from(image, 10 + 120), 0);  // and nothing past the block
}

TEST(LabelCache, TheSameTextAtTheSameWidthIsLaidOutOnce) {
  LabelCache cache;
  const QImage first = drawn(cache, kLongName, 120);
  const QImage again = drawn(cache, kLongName, 120);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(first, again);
  const QImage wider = drawn(cache, kLongName, 250);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_GT(inked_columns_from(wider, 10 + 120), 0);  // a wider block shows more of the name
  drawn(cache, "memset", 120);
  EXPECT_EQ(cache.size(), 3u);
}

}  // namespace
}  // namespace gpuprof::gui
