#include "gpuprof/gui/lod_merge.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/gui/gap_tree.hpp"

namespace gpuprof::gui {
namespace {

struct Merger {
  const LaneView& lane;
  const TimeAxis& axis;
  double min_px;
  // Below these a gap surely lets the next event join a run and an event is surely narrow (three
  // nanoseconds short of the threshold, for the rounding in reach() and x_of()).
  std::int64_t gap_limit = 0, duration_limit = 0;

  Merger(const LaneView& events, const TimeAxis& view, double threshold_px)
      : lane(events), axis(view), min_px(threshold_px) {
    // Bounded so that the cast stays defined for a view of any span.
    const double threshold_ns = std::min(std::floor(threshold_px * view.ns_per_px()), 1e18);
    gap_limit = duration_limit = threshold_ns > 3 ? static_cast<std::int64_t>(threshold_ns) - 3 : 0;
  }

  bool wide(std::size_t i) const { return axis.x_of(lane.end_at(i)) - axis.x_of(lane.start_at(i)) >= min_px; }

  // Events starting before this time join a run that ends at end_ns. One nanosecond short of the exact
  // point, so that rounding never lets the event after a wide one join the run.
  std::int64_t reach(std::int64_t end_ns) const { return axis.ns_of(axis.x_of(end_ns) + min_px) - 1; }

  // Extends a run of narrow events that begins at `first`; returns one past its last event and sets the
  // run's latest end.
  std::size_t run_end(std::size_t first, std::int64_t& end_ns) const {
    if (!lane.disjoint) return overlapping_run_end(first, end_ns);
    return lane.gaps ? summarised_run_end(first, end_ns) : disjoint_run_end(first, end_ns);
  }

  // Event by event, except that at each group boundary the gap tree skips every following group whose
  // gaps and events are all surely under the threshold: those events would join one by one anyway.
  std::size_t summarised_run_end(std::size_t first, std::int64_t& end_ns) const {
    constexpr std::size_t group = GapTree::kGroup;
    std::size_t next = first + 1;
    end_ns = lane.end_at(first);
    while (next < lane.size) {
      if (next % group == 0 && gap_limit > 0) {
        const std::size_t breaking = lane.gaps->first_breaking_group(next / group, gap_limit, duration_limit);
        const std::size_t skip_to = std::min(lane.size, breaking * group);
        if (skip_to > next) {
          next = skip_to;
          end_ns = lane.end_at(next - 1);  // disjoint: the last event ends last
          continue;
        }
      }
      if (lane.start_at(next) >= reach(end_ns) || wide(next)) break;
      end_ns = lane.end_at(next);
      ++next;
    }
    return next;
  }

  // Whole stretches of events that start within reach join the run in one search. Disjoint events end
  // in start order, so the stretch's last event ends it, and a wide event can only be a stretch's last
  // (whatever follows it starts after its end, beyond reach).
  std::size_t disjoint_run_end(std::size_t first, std::int64_t& end_ns) const {
    std::size_t next = first + 1;
    end_ns = lane.end_at(first);
    while (next < lane.size) {
      const std::size_t stop = lane.gallop_start(reach(end_ns), next);
      if (stop == next) break;
      std::size_t last = stop - 1;
      // A wide event ends the run so that it is still drawn (and clickable) on its own.
      if (wide(last)) {
        if (last == next) break;
        --last;
        end_ns = lane.end_at(last);
        return last + 1;
      }
      end_ns = lane.end_at(last);
      next = stop;
    }
    return next;
  }

  // Events that overlap (nested host calls, or a hostile file) are looked at one by one: any of them may
  // be wide or end last.
  std::size_t overlapping_run_end(std::size_t first, std::int64_t& end_ns) const {
    std::size_t next = first + 1;
    end_ns = lane.end_at(first);
    std::int64_t limit = reach(end_ns);
    while (next < lane.size && lane.start_at(next) < limit && !wide(next)) {
      if (lane.end_at(next) > end_ns) {
        end_ns = lane.end_at(next);
        limit = reach(end_ns);
      }
      ++next;
    }
    return next;
  }
};

DrawBlock block(const TimeAxis& axis, std::size_t first, std::size_t count, std::int64_t start_ns,
                std::int64_t end_ns) {
  return {axis.x_of(start_ns), axis.x_of(end_ns), static_cast<std::uint32_t>(first),
          static_cast<std::uint32_t>(count), start_ns, end_ns};
}

}  // namespace

void merge_visible(const LaneView& lane, const TimeAxis& axis, std::vector<DrawBlock>& out, double min_px) {
  out.clear();
  if (lane.size == 0) return;
  const Merger merger{lane, axis, min_px};
  const std::int64_t view_end = axis.view_end();
  std::size_t i = lane.first_ending_after(axis.view_start());
  while (i < lane.size && lane.start_at(i) < view_end) {
    if (merger.wide(i)) {
      out.push_back(block(axis, i, 1, lane.start_at(i), lane.end_at(i)));
      ++i;
      continue;
    }
    std::int64_t end_ns = 0;
    const std::size_t stop = merger.run_end(i, end_ns);
    out.push_back(block(axis, i, stop - i, lane.start_at(i), end_ns));
    i = stop;
  }
}

std::size_t find_event_at(const LaneView& lane, std::int64_t t, std::int64_t tolerance_ns) {
  std::size_t best = lane.size;
  std::int64_t best_distance = tolerance_ns + 1;
  for (std::size_t i = lane.first_ending_after(t - tolerance_ns); i < lane.size; ++i) {
    const std::int64_t start = lane.start_at(i), end = lane.end_at(i);
    if (start > t + tolerance_ns) break;
    const std::int64_t distance = t < start ? start - t : (t >= end ? t - end + 1 : 0);
    // Inside beats near; among events containing t, the shortest (innermost) wins.
    if (distance < best_distance ||
        (distance == 0 && best_distance == 0 && end - start < lane.end_at(best) - lane.start_at(best))) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace gpuprof::gui
