#include "gpuprof/idle/phase_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "recent_lookup.hpp"

namespace gpuprof::idle {
namespace {

using analysis::CorrelationIndex;

constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);

// Launch calls counted between the bounds (starts and ends) of some host ranges: all the ranges ask is how
// many launch calls start within each, and whether any starts between two consecutive bounds. A list of the
// calls (4 bytes a call, for every thread and again per thread: 400 MB at 100 M events) answered that for
// 56 K ranges; these counts take 8 bytes a bound. Any row order: a call is put in its slot by the slot the
// last call went to when it fits there (rows come in start order), by a binary search when not.
class BoundCounts {
 public:
  explicit BoundCounts(std::vector<std::int64_t> bounds) : bounds_(std::move(bounds)) {
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
    counts_.assign(bounds_.size() + 1, 0);
    enter(0);
  }

  void add(std::int64_t start) {
    if (start < low_ || start >= high_) place(start);
    ++counts_[last_];
  }
  // Once every call is added: slot i then holds the calls starting before bounds_[i] (the last: every call).
  void finish() {
    std::uint64_t sum = 0;
    for (auto& count : counts_) count = (sum += count);
  }
  // Calls starting in [from, to), both of them bounds given.
  std::uint64_t within(std::int64_t from, std::int64_t to) const {
    return to > from ? counts_[index_of(to)] - counts_[index_of(from)] : 0;
  }
  // Whether a call starts in [bounds_[i], bounds_[i + 1]) (the last: at or after the last bound).
  bool any_from(std::size_t i) const { return counts_[i + 1] > counts_[i]; }
  const std::vector<std::int64_t>& bounds() const { return bounds_; }
  std::size_t index_of(std::int64_t bound) const {
    return static_cast<std::size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), bound) - bounds_.begin());
  }

 private:
  // The slot of a call outside the last one: mostly the next (calls come in start order), else searched.
  void place(std::int64_t start) {
    const auto next = last_ + 1;
    const bool in_next = next <= bounds_.size() && start >= bounds_[last_] &&
                         (next == bounds_.size() || start < bounds_[next]);
    enter(in_next ? next
                  : static_cast<std::size_t>(std::upper_bound(bounds_.begin(), bounds_.end(), start) - bounds_.begin()));
  }
  // Slot `slot` holds the calls in [low_, high_); the last one's high_ is the largest time, which place() finds
  // again by its search.
  void enter(std::size_t slot) {
    last_ = slot;
    low_ = slot == 0 ? std::numeric_limits<std::int64_t>::min() : bounds_[slot - 1];
    high_ = slot == bounds_.size() ? std::numeric_limits<std::int64_t>::max() : bounds_[slot];
  }

  std::vector<std::int64_t> bounds_;
  std::vector<std::uint64_t> counts_;
  std::size_t last_ = 0;
  std::int64_t low_ = 0, high_ = 0;
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

// Every range's bounds, and each thread's ranges' bounds.
std::vector<std::int64_t> bounds_of(const trace::RangeTable& ranges, const std::vector<std::size_t>& rows) {
  std::vector<std::int64_t> bounds;
  bounds.reserve(2 * rows.size());
  for (const auto row : rows) bounds.push_back(ranges.start_ns[row]), bounds.push_back(ranges.end_ns[row]);
  return bounds;
}

// The launch calls (rows of `api` where `launched`) counted between the ranges' bounds: every thread's in
// `every`, each thread's with ranges in `own`. One walk over the calls, in any order.
void count_calls(const trace::ApiCallTable& api, const std::vector<bool>& launched, BoundCounts& every,
                 std::map<std::int64_t, BoundCounts>& own) {
  RecentLookup<std::int64_t, BoundCounts*, 8> recent;
  const auto counts_of = [&](std::int64_t thread) {
    return recent.get(thread, [&](std::int64_t new_thread) -> BoundCounts* {
      const auto found = own.find(new_thread);
      return found == own.end() ? nullptr : &found->second;
    });
  };
  // The bound once: vector<bool>::size() divides, and it was most of such walks' work.
  const auto rows = std::min(launched.size(), api.size());
  for (std::size_t row = 0; row < rows; ++row) {
    if (!launched[row]) continue;
    const auto start = api.start_ns[row];
    every.add(start);
    if (auto* counts = counts_of(api.thread_id[row])) counts->add(start);
  }
  every.finish();
  for (auto& [thread, counts] : own) counts.finish();
}

// One thread: each range's parent (the innermost range holding it, or kNoParent) and whether a launch
// call began directly in it (in no range inside it). `order` holds the thread's rows, outer first; `calls`
// counts the thread's launch calls between its ranges' bounds. No bound lies strictly between two
// consecutive bounds, so the calls starting in [bounds[i], bounds[i + 1]) all have the innermost range at
// bounds[i] and are read together, after the ranges starting at or before bounds[i] and before the later ones.
void nest(const trace::RangeTable& ranges, const std::vector<std::size_t>& order, const BoundCounts& calls,
          std::vector<std::size_t>& parent, std::vector<bool>& launches) {
  std::vector<std::size_t> open;  // the ranges holding the current time, outermost first
  const auto& bounds = calls.bounds();
  std::size_t next = 0;  // the first slice [bounds[next], bounds[next + 1]) not read yet
  const auto innermost_at = [&](std::int64_t time) {
    while (!open.empty() && ranges.end_ns[open.back()] <= time) open.pop_back();
    return open.empty() ? kNoParent : open.back();
  };
  // Calls before the first bound start before every range: no range holds them.
  const auto read_slices_before = [&](std::size_t end) {
    for (; next < end; ++next) {
      if (!calls.any_from(next)) continue;
      const auto holder = innermost_at(bounds[next]);
      if (holder != kNoParent) launches[holder] = true;
    }
  };
  for (const auto row : order) {
    read_slices_before(calls.index_of(ranges.start_ns[row]));
    // A range crossing this one's end does not hold it: it is a sibling.
    while (!open.empty() && ranges.end_ns[open.back()] < ranges.end_ns[row]) open.pop_back();
    parent[row] = open.empty() ? kNoParent : open.back();
    open.push_back(row);
  }
  read_slices_before(bounds.size());
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
  const auto threads = ranges_by_thread(ranges);
  if (threads.empty()) return phase;
  std::vector<std::int64_t> every_bound;
  std::map<std::int64_t, BoundCounts> own;
  for (const auto& [thread, order] : threads) {
    auto bounds = bounds_of(ranges, order);
    every_bound.insert(every_bound.end(), bounds.begin(), bounds.end());
    own.emplace(thread, BoundCounts(std::move(bounds)));
  }
  BoundCounts every(std::move(every_bound));
  count_calls(model.api_calls, launched, every, own);
  std::vector<std::size_t> parent(ranges.size(), kNoParent);
  std::vector<bool> launches(ranges.size(), false), composite(ranges.size(), false);
  std::vector<std::uint32_t> composite_children(ranges.size(), 0);
  for (const auto& [thread, order] : threads) {
    const auto& calls = own.at(thread);
    nest(ranges, order, calls, parent, launches);
    // Inner ranges come after their parents: read backwards, each is complete before its parent reads it.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const auto row = *it;
      const auto start = ranges.start_ns[row], end = ranges.end_ns[row];
      if (!launches[row] && every.within(start, end) - calls.within(start, end) >= 2) {
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
