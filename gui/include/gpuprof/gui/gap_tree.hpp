#pragma once

// A summary of a lane of disjoint events for the level-of-detail merge: per group of kGroup events, the
// widest gap before any of its events and its longest event, then the same per two groups, and so on up.
// At a zoom where those are all under the merge threshold, a whole stretch of events joins a run in
// O(log n) steps instead of one search per few pixels: a fitted 10 M-event view made each lane's one run
// cost ~600 searches, most of a frame. Costs 0.5 bytes per event.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuprof/gui/lane_view.hpp"

namespace gpuprof::gui {

struct LaneSummary;

class GapTree {
 public:
  static constexpr std::size_t kGroup = 64;

  GapTree() = default;  // of no lane: built by summarise_lane

  // The first group at or after `group` holding a gap of at least `gap_limit` ns or an event of at least
  // `duration_limit` ns; the number of groups when there is none.
  std::size_t first_breaking_group(std::size_t group, std::int64_t gap_limit, std::int64_t duration_limit) const;

  std::size_t groups() const { return levels_.empty() ? 0 : levels_[0].size(); }
  std::size_t memory_bytes() const;  // on the heap

 private:
  struct Node {
    std::int64_t max_gap = 0, max_duration = 0;
  };
  bool breaks(std::size_t level, std::size_t index, std::int64_t gap_limit, std::int64_t duration_limit) const {
    const Node& node = levels_[level][index];
    return node.max_gap >= gap_limit || node.max_duration >= duration_limit;
  }

  friend LaneSummary summarise_lane(const LaneView& lane);
  void build_levels();

  std::vector<std::vector<Node>> levels_;  // [0]: groups; [k + 1][i]: levels_[k][2i] and [2i + 1]
};

// What one pass over a lane finds: its longest event, whether its events are disjoint (each ends by the next
// one's start, and none ends before it starts), and for a disjoint lane its gap tree (the gap before the first
// event counts as none).
struct LaneSummary {
  std::int64_t max_duration = 0;
  bool disjoint = true;
  GapTree gaps;  // empty unless disjoint
};
LaneSummary summarise_lane(const LaneView& lane);

}  // namespace gpuprof::gui
