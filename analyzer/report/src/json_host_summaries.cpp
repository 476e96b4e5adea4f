#include "json_host_summaries.hpp"

#include <string>

#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {
namespace {

void number(JsonWriter& w, const char* key, std::int64_t value) {
  w.Key(key);
  w.Int64(value);
}

void real(JsonWriter& w, const char* key, double value) {
  w.Key(key);
  w.Double(value);
}

using RowsOf = const std::vector<summaries::NamedDurations>& (*)(const analysis::RankAnalysis&);

// Every row (JSON is for machines: no top-N cut), with the statistics in nanoseconds.
void write_named(JsonWriter& w, const ReportInput& input, bool wanted, const char* key, RowsOf rows_of) {
  w.Key(key);
  w.StartArray();
  for (const auto& rank : input.ranks) {
    if (!wanted) break;
    for (const auto& row : rows_of(rank)) {
      w.StartObject();
      number(w, "rank", rank.rank);
      const auto name = clean_utf8(row.name);
      w.Key("name");
      w.String(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
      number(w, "instances", row.stats.instances);
      number(w, "total_ns", row.stats.total_ns);
      real(w, "avg_ns", row.stats.avg_ns);
      real(w, "med_ns", row.stats.med_ns);
      number(w, "min_ns", row.stats.min_ns);
      number(w, "max_ns", row.stats.max_ns);
      real(w, "stddev_ns", row.stats.stddev_ns);
      real(w, "percent", row.percent);
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
      number(w, "rank", rank.rank);
      number(w, "device", queue.device);
      number(w, "kernels", queue.kernels);
      number(w, "max_depth", queue.max_depth);
      real(w, "mean_depth", queue.mean_depth);
      real(w, "share_empty", queue.share_empty);
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
