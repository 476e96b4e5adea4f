#pragma once

// Series whose each value holds until the next point (GPU memory in use, the
// launch queue), drawn as step lines on one axis of milliseconds since the
// earliest point of any line. Shared by the memory and launch-queue charts.

#include <QChart>
#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace gpuprof::gui {

struct StepLine {
  QString name;
  std::vector<std::pair<std::int64_t, double>> points;  // time (ns), value; lines without points are left out
};

// A new chart of `lines` titled `title`, values labelled with `value_format` (printf style); with no points at
// all, only `empty_title` and no axes.
QChart* make_step_lines_chart(const std::vector<StepLine>& lines, const QString& title, const QString& empty_title,
                              const char* value_format);

}  // namespace gpuprof::gui
