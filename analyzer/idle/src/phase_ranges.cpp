#include "gpuprof/idle/phase_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

namespace gpuprof::idle {
namespace {

using analysis::CorrelationIndex;

constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);

// The start of every API call that launched GPU work, per thread, sorted.
std::map<std::int64_t, std::vector<std::int64_t>> launch_calls(const trace::TraceModel& model,
                                                               const CorrelationIndex& correlations) {
  std::vector<bool> launched(model.api_calls.size(), false);
  for (const trace::GpuColumns* table :
       std::initializer_list<const trace::GpuColumns*>{&model.kernels, &model.memcpys, &model.memsets}) {
    for (std::size_t row = 0; row < table->size(); ++row) {
      const auto api_row = correlations.api_row(table->correlation_id[row]);
      if (api_row < launched.size()) launched[api_row] = true;  // kNone is past every row
    }
  }
  std::map<std::int64_t, std::vector<std::int64_t>> calls;
  const auto& api = model.api_calls;
  for (std::size_t row = 0; row < launched.size(); ++row) {
    if (launched[row]) calls[api.thread_id[row]].push_back(api.start_ns[row]);
  }
  for (auto& [thread, starts] : calls) std::sort(starts.begin(), starts.end());
  return calls;
}

// The host ranges of each thread, outer before inner: by start, the longer first.
std::map<std::int64_t, std::vector<std::size_t>> ranges_by_thread(const trace::RangeTable& ranges) {
  std::map<std::int64_t, std::vector<std::size_t>> threads;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] == 0 && ranges.end_ns[row] >= ranges.start_ns[row]) {
      threads[ranges.thread_id[row]].push_back(row);
    }
  }
  for (auto& [thread, rows] : threads) {
    // Compared, not negated: a hostile end of INT64_MIN has no negative.
    std::sort(rows.begin(), rows.end(), [&ranges](std::size_t a, std::size_t b) {
      return std::make_tuple(ranges.start_ns[a], ranges.end_ns[b], a) <
             std::make_tuple(ranges.start_ns[b], ranges.end_ns[a], b);
    });
  }
  return threads;
}

// One thread: each range's parent (the innermost range holding it, or kNoParent) and whether a launch
// call began directly in it (in no range inside it). `order` holds the thread's rows, outer first.
void nest(const trace::RangeTable& ranges, const std::vector<std::size_t>& order, const std::vector<std::int64_t>& calls,
          std::vector<std::size_t>& parent, std::vector<bool>& launches) {
  std::vector<std::size_t> open;  // the ranges holding the current time, outermost first
  std::size_t call = 0;
  const auto innermost_at = [&](std::int64_t time) {
    while (!open.empty() && ranges.end_ns[open.back()] <= time) open.pop_back();
    return open.empty() ? kNoParent : open.back();
  };
  const auto read_calls_before = [&](std::int64_t time, bool through) {
    for (; call < calls.size() && (through || calls[call] < time); ++call) {
      const auto holder = innermost_at(calls[call]);
      if (holder != kNoParent) launches[holder] = true;
    }
  };
  for (const auto row : order) {
    read_calls_before(ranges.start_ns[row], false);
    // A range crossing this one's end does not hold it: it is a sibling.
    while (!open.empty() && ranges.end_ns[open.back()] < ranges.end_ns[row]) open.pop_back();
    parent[row] = open.empty() ? kNoParent : open.back();
    open.push_back(row);
  }
  read_calls_before(0, true);
}

// Launch calls starting in [start, end) among `starts` (sorted).
std::size_t launched_within(const std::vector<std::int64_t>& starts, std::int64_t start, std::int64_t end) {
  const auto first = std::lower_bound(starts.begin(), starts.end(), start);
  return static_cast<std::size_t>(std::lower_bound(first, starts.end(), end) - first);
}

}  // namespace

std::vector<bool> phase_ranges(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  const auto& ranges = model.ranges;
  std::vector<bool> phase(ranges.size(), false);
  const auto calls = launch_calls(model, correlations);
  std::vector<std::int64_t> every_call;
  for (const auto& [thread, starts] : calls) every_call.insert(every_call.end(), starts.begin(), starts.end());
  std::sort(every_call.begin(), every_call.end());
  const std::vector<std::int64_t> no_calls;
  std::vector<std::size_t> parent(ranges.size(), kNoParent);
  std::vector<bool> launches(ranges.size(), false), composite(ranges.size(), false);
  std::vector<std::uint32_t> composite_children(ranges.size(), 0);
  for (const auto& [thread, order] : ranges_by_thread(ranges)) {
    const auto found = calls.find(thread);
    const auto& own = found == calls.end() ? no_calls : found->second;
    nest(ranges, order, own, parent, launches);
    // Inner ranges come after their parents: read backwards, each is complete before its parent reads it.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const auto row = *it;
      if (!launches[row] && launched_within(every_call, ranges.start_ns[row], ranges.end_ns[row]) -
                                    launched_within(own, ranges.start_ns[row], ranges.end_ns[row]) >= 2) {
        phase[row] = true;  // its thread waited in it while others launched the work
      }
      const auto up = parent[row];
      if (up == kNoParent) continue;
      if (phase[row]) phase[up] = true;
      if (!launches[row]) continue;
      launches[up] = composite[up] = true;
      if (composite[row] && ++composite_children[up] >= 2) phase[up] = true;
    }
  }
  return phase;
}

}  // namespace gpuprof::idle
