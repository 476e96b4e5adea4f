#include "gpuprof/summaries/launch_queue.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "gpuprof/analysis/kernel_names.hpp"

namespace gpuprof::summaries {
namespace {

// The API row of kernel `row` when its call is known and started no later than the kernel.
std::optional<std::size_t> launching_call(const trace::TraceModel& model, const analysis::CorrelationIndex& index,
                                          std::size_t row) {
  const auto api = index.api_row(model.kernels.correlation_id[row]);
  if (api == analysis::CorrelationIndex::kNone) return std::nullopt;
  if (model.api_calls.start_ns[api] > model.kernels.start_ns[row]) return std::nullopt;  // clocks disagree
  return api;
}

struct QueueEvent {
  std::int64_t time_ns;
  int change;  // +1 launched, -1 started
};

// The deepest point of each of `max_points` equal slices of time, so a chart of
// the series shows every peak however many kernels ran.
std::vector<QueuePoint> thinned(const std::vector<QueuePoint>& points, std::size_t max_points) {
  if (points.size() <= max_points || max_points < 2) return points;
  // The last slice is the final point itself: a chart ends where the queue ends, empty.
  const std::size_t slices = max_points - 1;
  const auto first = points.front().time_ns;
  const auto span = static_cast<long double>(points.back().time_ns - first) + 1;
  std::vector<QueuePoint> kept;
  std::size_t current = SIZE_MAX;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const auto& point = points[i];
    const auto slice = std::min<std::size_t>(
        slices - 1, static_cast<std::size_t>(static_cast<long double>(point.time_ns - first) * slices / span));
    if (slice != current) {
      kept.push_back(point);
      current = slice;
    } else {
      kept.back().depth = std::max(kept.back().depth, point.depth);
    }
  }
  kept.push_back(points.back());
  return kept;
}

LaunchQueue queue_of(std::int32_t device, std::vector<QueueEvent>& events, std::size_t max_points) {
  LaunchQueue queue{.device = device};
  // At one instant a start is counted before a launch: the queue never looks deeper than it was.
  std::sort(events.begin(), events.end(), [](const QueueEvent& a, const QueueEvent& b) {
    return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.change < b.change;
  });
  std::vector<QueuePoint> points;
  std::int64_t depth = 0;
  long double area = 0, empty = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) {
      const auto span = static_cast<long double>(events[i].time_ns - events[i - 1].time_ns);
      area += span * static_cast<long double>(depth);
      if (depth == 0) empty += span;
    }
    depth += events[i].change;
    queue.kernels += events[i].change < 0;
    queue.max_depth = std::max(queue.max_depth, depth);
    if (!points.empty() && points.back().time_ns == events[i].time_ns) {
      points.back().depth = depth;
    } else {
      points.push_back({events[i].time_ns, depth});
    }
  }
  const auto total = events.empty() ? 0.0L : static_cast<long double>(events.back().time_ns - events.front().time_ns);
  queue.mean_depth = total > 0 ? static_cast<double>(area / total) : 0.0;
  queue.share_empty = total > 0 ? static_cast<double>(empty / total) : 0.0;
  queue.series = thinned(points, max_points);
  return queue;
}

}  // namespace

std::vector<NamedDurations> launch_latency_by_kernel(const trace::TraceModel& model,
                                                     const analysis::CorrelationIndex& correlations) {
  std::unordered_map<trace::StringId, std::string> short_names;
  std::map<std::string, std::vector<std::int64_t>> groups;
  const auto& kernels = model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    const auto api = launching_call(model, correlations, row);
    if (!api) continue;
    auto [name, added] = short_names.try_emplace(kernels.name[row]);
    if (added) name->second = analysis::short_kernel_name(model.string(kernels.name[row]));
    groups[name->second].push_back(kernels.start_ns[row] - model.api_calls.start_ns[*api]);
  }
  std::vector<NamedDurations> rows;
  for (auto& [name, latencies] : groups) rows.push_back({name, analysis::duration_stats(latencies), 0});
  finish_named_rows(rows);
  return rows;
}

std::vector<LaunchQueue> launch_queues(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                       std::size_t max_points) {
  std::map<std::int32_t, std::vector<QueueEvent>> events;
  const auto& kernels = model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    const auto api = launching_call(model, correlations, row);
    if (!api) continue;
    auto& device = events[kernels.device[row]];
    device.push_back({model.api_calls.start_ns[*api], +1});
    device.push_back({kernels.start_ns[row], -1});
  }
  std::vector<LaunchQueue> queues;
  for (auto& [device, device_events] : events) queues.push_back(queue_of(device, device_events, max_points));
  return queues;
}

}  // namespace gpuprof::summaries
