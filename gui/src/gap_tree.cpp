#include "gpuprof/gui/gap_tree.hpp"

#include <algorithm>

namespace gpuprof::gui {

LaneSummary summarise_lane(const LaneView& lane) {
  LaneSummary summary;
  std::vector<GapTree::Node> groups((lane.size + GapTree::kGroup - 1) / GapTree::kGroup);
  std::int64_t previous_end = INT64_MIN;
  for (std::size_t i = 0; i < lane.size; ++i) {
    const std::int64_t start = lane.start_at(i), end = lane.end_at(i);
    GapTree::Node& node = groups[i / GapTree::kGroup];
    summary.disjoint = summary.disjoint && start >= previous_end && end >= start;
    if (i > 0) node.max_gap = std::max(node.max_gap, start - previous_end);
    node.max_duration = std::max(node.max_duration, end - start);
    summary.max_duration = std::max(summary.max_duration, end - start);
    previous_end = end;
  }
  if (summary.disjoint && !groups.empty()) {
    summary.gaps.levels_.push_back(std::move(groups));
    summary.gaps.build_levels();
  }
  return summary;
}

void GapTree::build_levels() {
  while (levels_.back().size() > 1) {
    const auto& below = levels_.back();
    std::vector<Node> above((below.size() + 1) / 2);
    for (std::size_t i = 0; i < below.size(); ++i) {
      Node& node = above[i / 2];
      node.max_gap = std::max(node.max_gap, below[i].max_gap);
      node.max_duration = std::max(node.max_duration, below[i].max_duration);
    }
    levels_.push_back(std::move(above));
  }
}

std::size_t GapTree::first_breaking_group(std::size_t group, std::int64_t gap_limit,
                                          std::int64_t duration_limit) const {
  if (group >= groups()) return groups();
  std::size_t level = 0, index = group;
  // Rightwards and upwards over nodes that do not break: a left child that holds is replaced by its parent,
  // which then only adds its right sibling.
  while (!breaks(level, index, gap_limit, duration_limit)) {
    if (index % 2 == 0 && level + 1 < levels_.size()) {
      if (breaks(level + 1, index / 2, gap_limit, duration_limit)) {
        ++index;  // the right sibling breaks
        break;
      }
      index /= 2;
      ++level;
    }
    ++index;
    if (index >= levels_[level].size()) return groups();
  }
  // Down to the leftmost breaking group under the breaking node.
  while (level > 0) {
    --level;
    index *= 2;
    if (!breaks(level, index, gap_limit, duration_limit)) ++index;
  }
  return index;
}

std::size_t GapTree::memory_bytes() const {
  std::size_t bytes = levels_.capacity() * sizeof(levels_[0]);
  for (const auto& level : levels_) bytes += level.capacity() * sizeof(Node);
  return bytes;
}

}  // namespace gpuprof::gui
