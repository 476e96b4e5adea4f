#pragma once

// The report JSON's field writers: the one policy of every document (gpuprof/report/json_fields.hpp),
// plus the parts of the report written in more than one place.

#include "gpuprof/analysis/duration_stats.hpp"
#include "gpuprof/report/json_fields.hpp"
#include "json_idle.hpp"

namespace gpuprof::report::json {

// instances, total, average, median, minimum, maximum and standard deviation of a duration, in nanoseconds.
inline void duration_stat_fields(JsonWriter& w, const analysis::DurationStats& stats) {
  field(w, "instances", stats.instances);
  field(w, "total_ns", stats.total_ns);
  field(w, "avg_ns", stats.avg_ns);
  field(w, "med_ns", stats.med_ns);
  field(w, "min_ns", stats.min_ns);
  field(w, "max_ns", stats.max_ns);
  field(w, "stddev_ns", stats.stddev_ns);
}

}  // namespace gpuprof::report::json
