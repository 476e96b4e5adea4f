#pragma once

// The axes every per-device bar chart of the app uses: devices along the bottom,
// milliseconds up the side with ticks on round values.

#include <QAbstractBarSeries>
#include <QChart>
#include <QStringList>
#include <QValueAxis>

namespace gpuprof::gui {

// Adds `series` to `chart` with those axes; `highest_ms` is the tallest bar.
void add_with_device_axes(QChart* chart, QAbstractBarSeries* series, const QStringList& devices, double highest_ms);
// From 0 to a little above `highest_ms`, ticks on round values.
void set_value_range(QValueAxis* axis, double highest_ms);

}  // namespace gpuprof::gui
