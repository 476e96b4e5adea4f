#include "gpuprof/importers/gpu_clock_check.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "event_time_shift.hpp"
#include "nvprof_clock_fit.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::importers {
namespace {

constexpr const char* kGpuTables[] = {"kernels", "memcpys", "memsets"};

std::vector<std::int64_t> launch_delays(sqlite::Database& trace) {
  std::string gpu_rows;
  for (const char* table : kGpuTables) {
    if (!gpu_rows.empty()) gpu_rows += " UNION ALL ";
    gpu_rows += std::string("SELECT start_ns, correlation_id FROM ") + table + " WHERE correlation_id IS NOT NULL";
  }
  sqlite::Statement query(trace, "SELECT gpu.start_ns - api.start_ns FROM (" + gpu_rows +
                                     ") AS gpu JOIN api_calls AS api ON api.correlation_id = gpu.correlation_id "
                                     "LIMIT " + std::to_string(kClockCheckSample));
  std::vector<std::int64_t> delays;
  while (query.step()) delays.push_back(query.column_int(0));
  return delays;
}

std::string describe_delays(const GpuClockCheck& check) {
  return std::to_string(check.negative_delays) + " of " + std::to_string(check.linked_launches) +
         " launch delays negative, smallest " + units::format_duration(*check.smallest_delay_ns) + ", median " +
         units::format_duration(*check.median_delay_ns);
}

// Earliest and latest time of the rows the shift moves.
std::pair<std::int64_t, std::int64_t> gpu_span(sqlite::Database& trace) {
  std::int64_t low = std::numeric_limits<std::int64_t>::max(), high = 0;
  for (const std::string table : {"kernels", "memcpys", "memsets", "ranges"}) {
    const std::string where = table == "ranges" ? " WHERE on_gpu = 1" : "";
    if (const auto value = trace.query_int("SELECT min(start_ns) FROM " + table + where)) low = std::min(low, *value);
    if (const auto value = trace.query_int("SELECT max(end_ns) FROM " + table + where)) high = std::max(high, *value);
  }
  return {low, high};
}

bool shift_fits(sqlite::Database& trace, std::int64_t shift) {
  const auto [low, high] = gpu_span(trace);
  if (shift < 0) return low >= -shift;
  return high <= std::numeric_limits<std::int64_t>::max() - shift;
}

void insert_stat(sqlite::Database& trace, trace::StatId stat, std::int64_t value, const char* severity,
                 const std::string& detail) {
  sqlite::Statement insert(trace, "INSERT INTO collector_stats (name, value, severity, detail) VALUES (?, ?, ?, ?)");
  insert.bind(1, std::string_view(trace::stat_info(stat).name));
  insert.bind(2, value);
  insert.bind(3, std::string_view(severity));
  insert.bind(4, std::string_view(detail));
  insert.step();
}

void set_meta(sqlite::Database& trace, std::string_view key, std::string_view value) {
  sqlite::Statement upsert(trace, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  upsert.bind(1, key);
  upsert.bind(2, value);
  upsert.step();
}

void apply_shift(sqlite::Database& trace, const GpuClockCheck& check) {
  const std::string shift = std::to_string(check.shift_ns);
  trace.execute("SAVEPOINT clock_shift");
  shift_event_times(trace, check.shift_ns, ShiftedRows::gpu_side);
  std::string starts, ends;
  for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "syncs", "ranges"}) {
    starts += std::string(starts.empty() ? "" : " UNION ALL ") + "SELECT min(start_ns) AS t FROM " + table;
    ends += std::string(ends.empty() ? "" : " UNION ALL ") + "SELECT max(end_ns) AS t FROM " + table;
  }
  if (const auto first = trace.query_int("SELECT min(t) FROM (" + starts + ")")) {
    set_meta(trace, "start_ns", std::to_string(*first));
  }
  if (const auto last = trace.query_int("SELECT max(t) FROM (" + ends + ")")) {
    set_meta(trace, "end_ns", std::to_string(*last));
  }
  set_meta(trace, "gpu_clock_shift_ns", shift);
  set_meta(trace, "gpu_clock_shift_reason", check.reason);
  insert_stat(trace, trace::StatId::import_gpu_clock_shift_ns, check.shift_ns, "info",
              "GPU timestamps moved onto the host clock: " + check.reason);
  trace.execute("RELEASE clock_shift");
}

// Earliest and latest time of the host rows (calls, synchronizations, host ranges); nullopt without any.
std::optional<std::pair<std::int64_t, std::int64_t>> host_span(sqlite::Database& trace) {
  std::string starts, ends;
  for (const std::string table : {"api_calls", "syncs", "ranges"}) {
    const std::string where = table == "ranges" ? " WHERE on_gpu = 0" : "";
    starts += std::string(starts.empty() ? "" : " UNION ALL ") + "SELECT min(start_ns) AS t FROM " + table + where;
    ends += std::string(ends.empty() ? "" : " UNION ALL ") + "SELECT max(end_ns) AS t FROM " + table + where;
  }
  const auto first = trace.query_int("SELECT min(t) FROM (" + starts + ")");
  const auto last = trace.query_int("SELECT max(t) FROM (" + ends + ")");
  if (!first || !last) return std::nullopt;
  return std::pair{*first, *last};
}

}  // namespace

std::optional<std::string> implausible_clock_move(sqlite::Database& trace, std::int64_t recorded_gpu_span_ns) {
  const auto moved = judge_launch_delays(launch_delays(trace));
  if (moved.median_delay_ns && *moved.median_delay_ns < 0) {
    return "the median launch delay would be " + units::format_duration(*moved.median_delay_ns) +
           " (GPU work before its launch)";
  }
  const auto [gpu_low, gpu_high] = gpu_span(trace);
  const auto host = host_span(trace);
  if (host && gpu_low <= gpu_high) {
    const auto span = gpu_high - gpu_low, host_ns = host->second - host->first;
    if (span > host_ns && span > recorded_gpu_span_ns) {
      return "the GPU work would span " + units::format_duration(span) + ", more than the host's " +
             units::format_duration(host_ns) + " and than its own " + units::format_duration(recorded_gpu_span_ns) +
             " as recorded";
    }
  }
  return std::nullopt;
}

GpuClockCheck judge_launch_delays(std::vector<std::int64_t> delays) {
  GpuClockCheck check;
  if (delays.empty()) return check;
  check.linked_launches = static_cast<std::int64_t>(delays.size());
  check.negative_delays = std::count_if(delays.begin(), delays.end(), [](std::int64_t delay) { return delay < 0; });
  check.smallest_delay_ns = *std::min_element(delays.begin(), delays.end());
  check.median_delay_ns = units::whole_median(delays);
  if (2 * check.negative_delays > check.linked_launches) {
    check.reason = "most GPU work starts before its launch call (" + describe_delays(check) + ")";
  } else if (*check.smallest_delay_ns > kImplausibleLaunchDelayNs) {
    check.reason = "every launch takes over " + units::format_duration(kImplausibleLaunchDelayNs) +
                   " to reach the GPU (" + describe_delays(check) + ")";
  } else {
    return check;
  }
  check.shift_ns = -*check.smallest_delay_ns;
  return check;
}

GpuClockCheck check_gpu_clock(sqlite::Database& trace) { return judge_launch_delays(launch_delays(trace)); }

namespace {

// nvprof host clocks can jump: fit the offset piecewise; true when segments were applied (no constant shift).
bool fit_piecewise(sqlite::Database& trace, GpuClockCheck& check) {
  if (trace.query_int("SELECT count(*) FROM meta WHERE key = 'source_format' AND value = 'nvprof'").value_or(0) == 0) {
    return false;
  }
  const auto fit = fit_clock_segments(clock_bounds(trace));
  check.segments = static_cast<std::int64_t>(fit.segments.size());
  check.violations_constant = fit.violations_constant, check.violations_piecewise = fit.violations_piecewise;
  const bool helps = fit.segments.size() > 1 && fit.violations_piecewise < fit.violations_constant;
  const bool in_range = std::all_of(fit.segments.begin(), fit.segments.end(),
                                    [&trace](const ClockSegment& segment) { return shift_fits(trace, segment.offset_ns); });
  if (!helps || !in_range) {
    set_meta(trace, "gpu_clock_segments", "1");
    set_meta(trace, "gpu_clock_violations", "constant shift " + std::to_string(fit.violations_constant));
    return false;
  }
  apply_clock_segments(trace, fit);
  check.shift_ns = fit.segments.front().offset_ns;
  check.reason = std::to_string(fit.segments.size()) + " clock segments";
  return true;
}

}  // namespace

namespace {

// Keeps a clock move only when the times it gives are plausible; else rolls it back and says why (warning).
bool keep_if_plausible(sqlite::Database& trace, const std::string& move, std::int64_t recorded_gpu_span_ns) {
  const auto why = implausible_clock_move(trace, recorded_gpu_span_ns);
  if (!why) {
    trace.execute("RELEASE clock_move");
    return true;
  }
  trace.execute("ROLLBACK TO clock_move");
  trace.execute("RELEASE clock_move");
  insert_stat(trace, trace::StatId::import_gpu_clock_move_refused, 1, "warning",
              "GPU timestamps not moved by " + move + ": " + *why + "; left as recorded");
  return false;
}

}  // namespace

GpuClockCheck align_gpu_clock(const std::string& trace_path) {
  sqlite::Database trace(trace_path, sqlite::OpenMode::read_write);
  GpuClockCheck check = check_gpu_clock(trace);
  const auto [gpu_low, gpu_high] = gpu_span(trace);
  const auto recorded_span = gpu_low <= gpu_high ? gpu_high - gpu_low : 0;
  trace.execute("SAVEPOINT clock_move");
  if (fit_piecewise(trace, check)) {
    if (keep_if_plausible(trace, check.reason, recorded_span)) return check;
    const auto fitted = check;
    check = check_gpu_clock(trace);  // the fit is gone: the constant shift is judged afresh
    check.segments = fitted.segments;
    check.violations_constant = fitted.violations_constant, check.violations_piecewise = fitted.violations_piecewise;
    trace.execute("SAVEPOINT clock_move");
  }
  if (check.shift_ns == 0) {
    trace.execute("RELEASE clock_move");
    return check;
  }
  if (!shift_fits(trace, check.shift_ns)) {
    insert_stat(trace, trace::StatId::import_gpu_clock_shift_refused, 1, "warning",
                "host and GPU clocks disagree (" + check.reason + "), but shifting by " +
                    std::to_string(check.shift_ns) + " ns would push GPU times out of range; left as recorded");
    check.shift_ns = 0;
    trace.execute("RELEASE clock_move");
    return check;
  }
  apply_shift(trace, check);
  if (!keep_if_plausible(trace, "a constant " + std::to_string(check.shift_ns) + " ns", recorded_span)) check.shift_ns = 0;
  return check;
}

}  // namespace gpuprof::importers
