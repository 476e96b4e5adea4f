#pragma once

// Table cells for people and machines alike: each has the human text and the raw value.

#include <cstdint>
#include <string>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

Cell integer_cell(std::int64_t value);
Cell duration_cell(std::int64_t ns);
Cell duration_cell(double ns);  // rounded to whole nanoseconds
Cell bytes_cell(std::int64_t value);
// A figure with `decimals` decimals (fmt's rounding), the same text for people and machines; one that is not
// finite reads "n/a" (raw: empty), as duration_cell(double) does, never "nan" or a made-up 0.
Cell number_cell(double value, int decimals);
// A mean count (instances per step): whole counts as integers ("29", not "29.00"), others with 2 decimals.
Cell count_cell(double value);
Cell percent_cell(double share);  // share 0..1 shown as a percentage
Cell text_cell(std::string value);
// A time point: people read the time since `origin` ("12.3 ms"), machines the absolute nanoseconds.
Cell time_point_cell(std::int64_t ns, std::int64_t origin_ns);
// As the view shows time points: since `origin_ns` in the terminal view, absolute nanoseconds in the full one.
Cell time_point_cell(const TableView& view, std::int64_t ns, std::int64_t origin_ns);

}  // namespace gpuprof::report
