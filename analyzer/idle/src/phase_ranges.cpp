#include "gpuprof/idle/phase_ranges.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "gpuprof/analysis/run_sort.hpp"
#include "recent_lookup.hpp"

namespace gpuprof::idle {
namespace {

using analysis::CorrelationIndex;

constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);

// The API calls that launched GPU work, as rows of model.api_calls ordered by start: every thread's, and each
// thread's (one array, thread after thread). Rows, not starts: half the memory, and host tables come sorted
// by start, so neither array needs more than a check that it is in order.
struct LaunchCalls {
  const std::vector<std::int64_t>& start;
  std::vector<std::uint32_t> every;
  std::vector<std::uint32_t> by_thread;
  std::map<std::int64_t, std::pair<std::size_t, std::size_t>> threads;  // [begin, end) in `by_thread`

  LaunchCalls(const trace::ApiCallTable& api, const std::vector<bool>& launched) : start(api.start_ns) {
    // Each launching thread's slot: the threads' calls interleave, so the few seen last are searched first and
    // the hash map (any number of threads) only on a miss.
    std::unordered_map<std::int64_t, std::size_t> slot_of;
    std::vector<std::size_t> counts;
    RecentLookup<std::int64_t, std::size_t, 8> recent;
    const auto slot = [&](std::int64_t thread) {
      return recent.get(thread, [&](std::int64_t new_thread) {
        const auto found = slot_of.try_emplace(new_thread, slot_of.size()).first->second;
        if (found == counts.size()) counts.push_back(0);
        return found;
      });
    };
    // The bound once: vector<bool>::size() divides, and it was most of these walks' work.
    const auto rows = std::min(launched.size(), api.size());
    for (std::size_t row = 0; row < rows; ++row) {
      if (launched[row]) ++counts[slot(api.thread_id[row])];
    }
    every.reserve(std::accumulate(counts.begin(), counts.end(), std::size_t{0}));
    for (std::size_t row = 0; row < rows; ++row) {
      if (launched[row]) every.push_back(static_cast<std::uint32_t>(row));
    }
    analysis::sort_runs(every, [this](std::uint32_t a, std::uint32_t b) { return start[a] < start[b]; });
    std::vector<std::size_t> next(counts.size());
    std::size_t end = 0;
    for (const auto& [thread, index] : slot_of) {
      next[index] = end;
      threads[thread] = {end, end + counts[index]};
      end += counts[index];
    }
    by_thread.resize(end);
    for (const auto row : every) by_thread[next[slot(api.thread_id[row])]++] = row;
  }

  std::span<const std::uint32_t> of_thread(std::int64_t thread) const {
    const auto found = threads.find(thread);
    if (found == threads.end()) return {};
    return std::span<const std::uint32_t>(by_thread).subspan(found->second.first,
                                                             found->second.second - found->second.first);
  }

  // Calls among `rows` (sorted by start) starting in [from, to).
  std::size_t within(std::span<const std::uint32_t> rows, std::int64_t from, std::int64_t to) const {
    const auto before = [this](std::uint32_t row, std::int64_t time) { return start[row] < time; };
    const auto first = std::lower_bound(rows.begin(), rows.end(), from, before);
    return static_cast<std::size_t>(std::lower_bound(first, rows.end(), to, before) - first);
  }
};

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
void nest(const trace::RangeTable& ranges, const std::vector<std::size_t>& order, std::span<const std::uint32_t> calls,
          const std::vector<std::int64_t>& call_start, std::vector<std::size_t>& parent, std::vector<bool>& launches) {
  std::vector<std::size_t> open;  // the ranges holding the current time, outermost first
  std::size_t call = 0;
  const auto innermost_at = [&](std::int64_t time) {
    while (!open.empty() && ranges.end_ns[open.back()] <= time) open.pop_back();
    return open.empty() ? kNoParent : open.back();
  };
  const auto read_calls_before = [&](std::int64_t time, bool through) {
    for (; call < calls.size() && (through || call_start[calls[call]] < time); ++call) {
      const auto holder = innermost_at(call_start[calls[call]]);
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

}  // namespace

std::vector<bool> launched_calls(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  std::vector<bool> launched(model.api_calls.size(), false);
  for (const trace::GpuColumns* table :
       std::initializer_list<const trace::GpuColumns*>{&model.kernels, &model.memcpys, &model.memsets}) {
    for (std::size_t row = 0; row < table->size(); ++row) {
      const auto api_row = correlations.api_row(table->correlation_id[row]);
      if (api_row < launched.size()) launched[api_row] = true;  // kNone is past every row
    }
  }
  return launched;
}

std::vector<bool> phase_ranges(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  return phase_ranges(model, launched_calls(model, correlations));
}

std::vector<bool> phase_ranges(const trace::TraceModel& model, const std::vector<bool>& launched) {
  const auto& ranges = model.ranges;
  std::vector<bool> phase(ranges.size(), false);
  const LaunchCalls calls(model.api_calls, launched);
  const std::span<const std::uint32_t> every_call(calls.every);
  std::vector<std::size_t> parent(ranges.size(), kNoParent);
  std::vector<bool> launches(ranges.size(), false), composite(ranges.size(), false);
  std::vector<std::uint32_t> composite_children(ranges.size(), 0);
  for (const auto& [thread, order] : ranges_by_thread(ranges)) {
    const auto own = calls.of_thread(thread);
    nest(ranges, order, own, calls.start, parent, launches);
    // Inner ranges come after their parents: read backwards, each is complete before its parent reads it.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const auto row = *it;
      if (!launches[row] && calls.within(every_call, ranges.start_ns[row], ranges.end_ns[row]) -
                                    calls.within(own, ranges.start_ns[row], ranges.end_ns[row]) >= 2) {
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
