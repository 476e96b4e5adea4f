#include "nvprof_clock_fit.hpp"

#include <algorithm>
#include <string>

#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::importers {
namespace {

constexpr const char* kGpuTables[] = {"kernels", "memcpys", "memsets"};

std::string gpu_rows() {
  std::string rows;
  for (const char* table : kGpuTables) {
    if (!rows.empty()) rows += " UNION ALL ";
    rows += std::string("SELECT start_ns, end_ns, correlation_id FROM ") + table + " WHERE correlation_id IS NOT NULL";
  }
  return rows;
}

// offset >= call start − GPU start: a launch precedes its work.
void add_launch_bounds(sqlite::Database& trace, std::vector<ClockBound>& bounds) {
  sqlite::Statement query(trace, "SELECT api.start_ns, gpu.start_ns FROM (" + gpu_rows() +
                                     ") AS gpu JOIN api_calls AS api ON api.correlation_id = gpu.correlation_id");
  while (query.step()) {
    const auto host = query.column_int(0), gpu = query.column_int(1);
    bounds.push_back({host, gpu, host - gpu, false});
  }
}

// offset <= call end − GPU end: a synchronous copy call returns after its copy.
void add_copy_bounds(sqlite::Database& trace, std::vector<ClockBound>& bounds) {
  sqlite::Statement query(trace,
                          "SELECT api.end_ns, m.end_ns FROM memcpys AS m JOIN api_calls AS api ON api.correlation_id = "
                          "m.correlation_id JOIN strings AS s ON s.id = api.name_id WHERE s.value LIKE '%Memcpy%' AND "
                          "s.value NOT LIKE '%Async%'");
  while (query.step()) {
    const auto host = query.column_int(0), gpu = query.column_int(1);
    bounds.push_back({host, gpu, host - gpu, true});
  }
}

// offset <= call end − GPU end of the latest-ending work launched before a device-wide synchronize began.
void add_sync_bounds(sqlite::Database& trace, std::vector<ClockBound>& bounds) {
  std::vector<std::pair<std::int64_t, std::int64_t>> launched;  // (call start, GPU end)
  sqlite::Statement launches(trace, "SELECT api.start_ns, gpu.end_ns FROM (" + gpu_rows() +
                                        ") AS gpu JOIN api_calls AS api ON api.correlation_id = gpu.correlation_id "
                                        "ORDER BY api.start_ns");
  while (launches.step()) launched.emplace_back(launches.column_int(0), launches.column_int(1));
  for (std::size_t i = 1; i < launched.size(); ++i) launched[i].second = std::max(launched[i].second, launched[i - 1].second);
  sqlite::Statement syncs(trace, "SELECT api.start_ns, api.end_ns FROM api_calls AS api JOIN strings AS s ON s.id = "
                                 "api.name_id WHERE s.value LIKE '%DeviceSynchronize%' OR s.value LIKE '%CtxSynchronize%'");
  while (syncs.step()) {
    const auto start = syncs.column_int(0), end = syncs.column_int(1);
    const auto before = std::lower_bound(launched.begin(), launched.end(), std::pair{start, std::int64_t{0}},
                                         [](const auto& a, const auto& b) { return a.first < b.first; });
    if (before == launched.begin()) continue;
    const auto waited_end = std::prev(before)->second;
    bounds.push_back({end, waited_end, end - waited_end, true});
  }
}

void set_meta(sqlite::Database& trace, std::string_view key, std::string_view value) {
  sqlite::Statement upsert(trace, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  upsert.bind(1, key);
  upsert.bind(2, value);
  upsert.step();
}

}  // namespace

std::vector<ClockBound> clock_bounds(sqlite::Database& trace) {
  std::vector<ClockBound> bounds;
  add_launch_bounds(trace, bounds);
  add_copy_bounds(trace, bounds);
  add_sync_bounds(trace, bounds);
  return bounds;
}

// The offset of the segment holding a row's original start, as one SQL expression: both columns of a row
// are set from the row as it was, so every row moves once, whatever its segment's offset.
std::string segment_offset_of_start(const ClockFit& fit) {
  std::string cases = "CASE";
  for (std::size_t i = fit.segments.size(); i-- > 1;) {
    cases += " WHEN start_ns >= " + std::to_string(fit.segments[i].gpu_start_ns) + " THEN " +
             std::to_string(fit.segments[i].offset_ns);
  }
  return cases + " ELSE " + std::to_string(fit.segments.front().offset_ns) + " END";
}

void apply_clock_segments(sqlite::Database& trace, const ClockFit& fit) {
  if (fit.segments.empty()) return;
  trace.execute("SAVEPOINT clock_segments");
  // One UPDATE per table: segment by segment, a row moved by a negative offset lands in an earlier segment's
  // range and would move again by that one's.
  const auto offset = segment_offset_of_start(fit);
  for (const std::string table : {"kernels", "memcpys", "memsets", "ranges"}) {
    const std::string gpu_only = table == "ranges" ? " WHERE on_gpu = 1" : "";
    trace.execute("UPDATE " + table + " SET start_ns = start_ns + (" + offset + "), end_ns = end_ns + (" + offset +
                  ")" + gpu_only);
  }
  trace::rewrite_event_chunks(trace);
  set_meta(trace, "gpu_clock_segments", std::to_string(fit.segments.size()));
  set_meta(trace, "gpu_clock_violations", "constant shift " + std::to_string(fit.violations_constant) +
                                              ", piecewise " + std::to_string(fit.violations_piecewise));
  sqlite::Statement insert(trace, "INSERT INTO collector_stats (name, value, severity, detail) VALUES (?, ?, ?, ?)");
  insert.bind(1, trace::stat_info(trace::StatId::import_gpu_clock_segments).name);
  insert.bind(2, static_cast<std::int64_t>(fit.segments.size()));
  insert.bind(3, std::string_view("info"));
  const auto detail = "host-to-GPU offset fitted piecewise; bounds broken by one constant shift: " +
                      std::to_string(fit.violations_constant) + ", by the segments: " +
                      std::to_string(fit.violations_piecewise);
  insert.bind(4, std::string_view(detail));
  insert.step();
  trace.execute("RELEASE clock_segments");
}

}  // namespace gpuprof::importers
