#include <algorithm>

#include "trace_sections.hpp"

namespace gpuprof::exporters {

std::optional<std::int64_t> earliest_start(const trace::TraceModel& model) {
  std::optional<std::int64_t> earliest;
  const auto consider = [&](const std::vector<std::int64_t>& starts) {
    if (starts.empty()) return;
    const auto first = *std::min_element(starts.begin(), starts.end());
    earliest = earliest ? std::min(*earliest, first) : first;
  };
  consider(model.kernels.start_ns);
  consider(model.memcpys.start_ns);
  consider(model.memsets.start_ns);
  consider(model.api_calls.start_ns);
  consider(model.syncs.start_ns);
  consider(model.ranges.start_ns);
  return earliest;
}

std::int64_t largest_correlation(const trace::TraceModel& model) {
  std::int64_t largest = 0;
  const auto consider = [&](const std::vector<std::int64_t>& ids) {
    for (const auto id : ids) largest = std::max(largest, id);
  };
  consider(model.kernels.correlation_id);
  consider(model.memcpys.correlation_id);
  consider(model.memsets.correlation_id);
  consider(model.api_calls.correlation_id);
  consider(model.syncs.correlation_id);
  consider(model.ranges.correlation_id);
  return largest;
}

void write_rank_events(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps,
                       const ChromeTraceLayout& layout, std::int64_t& next_flow_id, EventWriter& writer) {
  write_host_events(model, layout, writer);
  write_gpu_events(model, layout, writer);
  write_flow_events(model, layout, next_flow_id, writer);
  write_gap_counters(gaps, layout, writer);
}

}  // namespace gpuprof::exporters
