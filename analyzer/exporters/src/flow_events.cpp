#include <unordered_map>

#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

using trace::kUnknown;

struct Launch {
  std::int64_t start_ns = 0;
  Track track;
};

std::unordered_map<std::int64_t, Launch> launches_by_correlation(const trace::ApiCallTable& calls,
                                                                 const ChromeTraceLayout& layout) {
  std::unordered_map<std::int64_t, Launch> launches;
  launches.reserve(calls.size());
  for (std::size_t row = 0; row < calls.size(); ++row) {
    if (calls.correlation_id[row] == kUnknown) continue;
    launches.try_emplace(calls.correlation_id[row],
                         Launch{calls.start_ns[row],
                                layout.host_track(calls.process_id[row], calls.thread_id[row])});
  }
  return launches;
}

// One arrow: "s" binds to the API call enclosing its time, "f" with bp "e" to
// the GPU event starting at its time. Ids number the arrows, not correlations,
// because one launch may start several GPU events (graphs).
void write_arrow(const Launch& launch, Track gpu, std::int64_t gpu_start_ns, std::int64_t id, EventWriter& writer) {
  writer.begin_event("s", "ac2g", "ac2g", launch.track, launch.start_ns);
  writer.number_arg("id", id);
  writer.end_event();
  writer.begin_event("f", "ac2g", "ac2g", gpu, gpu_start_ns);
  writer.number_arg("id", id);
  writer.string_arg("bp", "e");
  writer.end_event();
}

void write_table_flows(const trace::GpuColumns& table, const std::unordered_map<std::int64_t, Launch>& launches,
                       const ChromeTraceLayout& layout, std::int64_t& next_id, EventWriter& writer) {
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (table.correlation_id[row] == kUnknown) continue;
    const auto launch = launches.find(table.correlation_id[row]);
    if (launch == launches.end()) continue;
    write_arrow(launch->second, layout.device_track(table.device[row], table.stream[row]), table.start_ns[row],
                next_id++, writer);
  }
}

}  // namespace

void write_flow_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, std::int64_t& next_id,
                       EventWriter& writer) {
  const auto launches = launches_by_correlation(model.api_calls, layout);
  if (launches.empty()) return;
  write_table_flows(model.kernels, launches, layout, next_id, writer);
  write_table_flows(model.memcpys, launches, layout, next_id, writer);
  write_table_flows(model.memsets, launches, layout, next_id, writer);
}

}  // namespace gpuprof::exporters
