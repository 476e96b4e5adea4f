#include "json_host_summaries.hpp"

#include <string_view>

#include "json_fields.hpp"

namespace gpuprof::report {
namespace {

using json::field;

using RowsOf = const std::vector<summaries::NamedDurations>& (*)(const analysis::RankAnalysis&);

// Every row (JSON is for machines: no top-N cut), with the statistics in nanoseconds.
void write_named(JsonWriter& w, const ReportInput& input, bool wanted, const char* key, RowsOf rows_of) {
  w.Key(key);
  w.StartArray();
  for (const auto& rank : input.ranks) {
    if (!wanted) break;
    for (const auto& row : rows_of(rank)) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "name", std::string_view(row.name));  // the whole rendered report is made valid UTF-8
      json::duration_stat_fields(w, row.stats);
      field(w, "percent", row.percent);
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_queues(JsonWriter& w, const ReportInput& input, bool wanted) {
  w.Key("launch_queues");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    if (!wanted) break;
    for (const auto& queue : rank.host.launch_queues) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{queue.device});
      field(w, "kernels", queue.kernels);
      field(w, "max_depth", queue.max_depth);
      field(w, "mean_depth", queue.mean_depth);
      field(w, "share_empty", queue.share_empty);
      // Depth over time, [time_ns, depth] from each time until the next, thinned keeping each slice's deepest.
      w.Key("series");
      w.StartArray();
      for (const auto& point : queue.series) {
        w.StartArray();
        w.Int64(point.time_ns);
        w.Int64(point.depth);
        w.EndArray();
      }
      w.EndArray();
      w.EndObject();
    }
  }
  w.EndArray();
}

}  // namespace

void write_host_summaries(JsonWriter& w, const ReportInput& input) {
  write_named(w, input, input.has(Section::nvtx), "nvtx_ranges",
              [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.ranges; });
  write_named(w, input, input.has(Section::api), "api_calls",
              [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.api_calls; });
  write_named(w, input, input.has(Section::launches), "kernel_launch_latency",
              [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.launch_latency; });
  write_queues(w, input, input.has(Section::launches));
}

}  // namespace gpuprof::report
