#pragma once

// Synthetic traces and image checks shared by the GUI tests.

#include <QImage>
#include <QString>

#include <memory>
#include <string>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui::testing {

// Writes a synthetic data-parallel trace (devices, steps) to `path`.
void write_trace(const std::string& path, std::int32_t devices, std::int64_t steps);
// Loads on the calling thread (the worker-thread path is tested through MainWindow).
std::shared_ptr<const Session> load(const std::string& path);

struct ImageStats {
  int distinct_colors = 0;
  double non_background_share = 0;  // pixels that differ from the most common colour
};
ImageStats image_stats(const QImage& image);

// Saves under the build folder's gui-screenshots and checks the image is not blank.
void save_and_check(const QImage& image, const QString& name);

}  // namespace gpuprof::gui::testing
