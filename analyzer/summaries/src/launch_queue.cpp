#include "gpuprof/summaries/launch_queue.hpp"
#include "gpuprof/summaries/launch_tables.hpp"
#include "gpuprof/summaries/waits.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "gpuprof/analysis/grouped_values.hpp"
#include "gpuprof/analysis/kernel_names.hpp"
#include "gpuprof/analysis/run_sort.hpp"
#include "gpuprof/analysis/thinned_series.hpp"

namespace gpuprof::summaries {
namespace {

// A long double sum of products of integers, kept in 64-bit integers while it is exact there: every partial
// sum and product below 2^63 is an integer a long double holds exactly, so the value is the one a long double
// sum gives, without its chain of x87 additions (half the launch queue's time at two points per kernel).
// From the first product or sum past the integers' range on, it is the long double sum itself.
class ExactSum {
 public:
  void add(std::int64_t a, std::int64_t b) {
    if (!rounded_) {
      std::int64_t product = 0, sum = 0;
      if (!__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(exact_, product, &sum)) {
        exact_ = sum;
        return;
      }
      rounded_ = static_cast<long double>(exact_);
    }
    *rounded_ += static_cast<long double>(a) * static_cast<long double>(b);
  }
  long double value() const { return rounded_ ? *rounded_ : static_cast<long double>(exact_); }

 private:
  std::int64_t exact_ = 0;
  std::optional<long double> rounded_;
};

// `launches` and `starts` sorted, neither empty. The series is thinned as it is
// made: a point per distinct time would be two per kernel, 80 MB for 2.5 M.
LaunchQueue queue_of(std::int32_t device, const std::vector<std::int64_t>& launches,
                     const std::vector<std::int64_t>& starts, std::size_t max_points) {
  LaunchQueue queue{.device = device};
  queue.kernels = static_cast<std::int64_t>(starts.size());
  const auto first = std::min(launches.front(), starts.front());
  const auto last = std::max(launches.back(), starts.back());
  analysis::ThinnedSeriesBuilder series(first, last, max_points, &QueuePoint::depth);
  // The point of the current time: events at one instant make one point with the depth after them all. Kept
  // as two integers, not an optional point: copying that whole after writing its halves stalled each event.
  bool have_point = false;
  std::int64_t point_time = 0, point_depth = 0;
  std::int64_t depth = 0;
  ExactSum area, empty;
  std::size_t l = 0, s = 0;
  while (l < launches.size() || s < starts.size()) {
    // At one instant a start is counted before a launch: the queue never looks deeper than it was.
    const bool start_next = s < starts.size() && (l == launches.size() || starts[s] <= launches[l]);
    const std::int64_t time = start_next ? starts[s++] : launches[l++];
    if (have_point) {
      const std::int64_t span = time - point_time;
      area.add(span, depth);
      if (depth == 0) empty.add(span, 1);
    }
    depth += start_next ? -1 : 1;
    queue.max_depth = std::max(queue.max_depth, depth);
    if (!have_point || point_time != time) {
      if (have_point) series.add(QueuePoint{point_time, point_depth});
      have_point = true, point_time = time;
    }
    point_depth = depth;
  }
  series.add(QueuePoint{point_time, point_depth});
  const auto total = static_cast<long double>(last - first);
  queue.mean_depth = total > 0 ? static_cast<double>(area.value() / total) : 0.0;
  queue.share_empty = total > 0 ? static_cast<double>(empty.value() / total) : 0.0;
  // The deepest point of each slice is kept, so a chart of the series shows every peak.
  queue.series = std::move(series).finish();
  return queue;
}

// The counted latencies grouped in one array, each group in row order, and each group's waits merged as they
// come, in the same walk of the kernels: one read of the launches, where reading them back group by group
// read every kernel's cache lines once per group (nine times over in the generated traces), and no array of
// every wait to sort (waits.hpp). `Value`: 32 bits where every latency fits (half the memory), each group
// then widened into one buffer for its statistics.
template <typename Value, typename GroupOf>
void latency_rows(std::size_t kernels, const analysis::KernelLaunches& launches, GroupOf&& group_of,
                  const std::map<std::string, std::uint32_t>& group_of_short_name, std::vector<NamedDurations>& rows) {
  std::vector<WaitUnion> waits(group_of_short_name.size());
  auto grouped = analysis::group_values<Value>(
      kernels, group_of_short_name.size(),
      [&](std::size_t row) -> std::size_t { return launches.counted(row) ? group_of(row) : analysis::kNoGroup; },
      [&](std::size_t row) {
        const auto launch = launches(row);
        waits[group_of(row)].add(launch.call_start_ns, launch.call_start_ns + launch.latency_ns);
        return static_cast<Value>(launch.latency_ns);
      });
  std::vector<std::int64_t> widened;
  if constexpr (!std::is_same_v<Value, std::int64_t>) {
    std::size_t largest = 0;
    for (std::size_t group = 0; group < grouped.groups(); ++group) largest = std::max(largest, grouped.group(group).size());
    widened.reserve(largest);
  }
  std::vector<WaitUnion::Piece> merging;  // sort_runs' buffer, one for every group
  for (const auto& [name, index] : group_of_short_name) {
    const auto group = grouped.group(index);
    if (group.empty()) continue;  // a name with no counted launch
    std::span<std::int64_t> latencies;
    if constexpr (std::is_same_v<Value, std::int64_t>) {
      latencies = group;
    } else {
      widened.assign(group.begin(), group.end());
      latencies = widened;
    }
    auto stats = analysis::duration_stats(latencies);
    stats.total_ns = waits[index].total(merging);
    rows.push_back({name, stats, 0});
  }
}

}  // namespace

std::vector<NamedDurations> launch_latency_by_kernel(const trace::TraceModel& model,
                                                     const analysis::CorrelationIndex& correlations) {
  return launch_latency_by_kernel(model, analysis::KernelLaunches(model, correlations));
}

std::vector<NamedDurations> launch_latency_by_kernel(const trace::TraceModel& model,
                                                     const analysis::KernelLaunches& launches) {
  const auto& kernels = model.kernels;
  // Each name id's group (its short name, found once per id; ids past the string table, from a hostile file,
  // share the last entry as they share one name).
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const auto name_of = [&](std::size_t row) { return std::min<std::size_t>(kernels.name[row], model.strings.size()); };
  std::vector<std::uint32_t> group_of_name(model.strings.size() + 1, kNone);
  const auto group_of = [&](std::size_t row) { return group_of_name[name_of(row)]; };
  std::map<std::string, std::uint32_t> group_of_short_name;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    auto& found = group_of_name[name_of(row)];
    if (found != kNone) continue;
    const auto short_name = analysis::short_kernel_name(model.string(kernels.name[row]));
    const auto next = static_cast<std::uint32_t>(group_of_short_name.size());
    found = group_of_short_name.try_emplace(short_name, next).first->second;
  }
  std::vector<NamedDurations> rows;
  if (launches.latencies_fit_32_bits()) {
    latency_rows<std::uint32_t>(kernels.size(), launches, group_of, group_of_short_name, rows);
  } else {
    latency_rows<std::int64_t>(kernels.size(), launches, group_of, group_of_short_name, rows);
  }
  finish_named_rows(rows);
  return rows;
}

// Kernels of one stream run in launch order, so each stream's linked kernels come sorted by launch and by
// start: sort_runs merges the streams' runs where sorting 20 M events took seconds. One device at a time, so
// memory holds one device's times, not the trace's.
std::vector<LaunchQueue> launch_queues(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                       std::size_t max_points) {
  return launch_queues(model, analysis::KernelLaunches(model, correlations), max_points);
}

std::vector<LaunchQueue> launch_queues(const trace::TraceModel& model, const analysis::KernelLaunches& kernel_launches,
                                       std::size_t max_points) {
  std::map<std::int32_t, std::vector<const trace::StreamSlice*>> slices;
  for (const auto& slice : model.kernel_streams) slices[slice.device].push_back(&slice);
  std::vector<LaunchQueue> queues;
  std::vector<std::int64_t> launches, starts;
  for (const auto& [device, device_slices] : slices) {
    launches.clear(), starts.clear();
    std::size_t device_kernels = 0;
    for (const auto* slice : device_slices) device_kernels += slice->end - slice->begin;
    launches.reserve(device_kernels), starts.reserve(device_kernels);
    for (const auto* slice : device_slices) {
      for (std::size_t row = slice->begin; row < slice->end; ++row) {
        if (!kernel_launches.counted(row)) continue;
        const auto launch = kernel_launches(row);
        launches.push_back(launch.call_start_ns);
        starts.push_back(model.kernels.start_ns[row]);
      }
    }
    if (launches.empty()) continue;
    analysis::sort_runs(launches);
    analysis::sort_runs(starts);
    queues.push_back(queue_of(device, launches, starts, max_points));
  }
  return queues;
}

}  // namespace gpuprof::summaries
