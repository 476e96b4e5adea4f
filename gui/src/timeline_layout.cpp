#include "gpuprof/gui/timeline_layout.hpp"

#include <algorithm>

namespace gpuprof::gui {
namespace {

int row_height(const TimelineRow& row) {
  switch (row.kind) {
    case RowKind::device: return kDeviceRowHeight;
    case RowKind::stream: return kStreamRowHeight;
    case RowKind::host_thread: return kHostLaneHeight * std::max<int>(1, static_cast<int>(row.lanes.size()));
  }
  return kStreamRowHeight;
}

// The last row of [first, last) whose y is at or above `y`, if `y` lies inside it.
const LayoutRow* search(std::vector<LayoutRow>::const_iterator first, std::vector<LayoutRow>::const_iterator last,
                        int y) {
  const auto it = std::upper_bound(first, last, y, [](int value, const LayoutRow& row) { return value < row.y; });
  if (it == first) return nullptr;
  const LayoutRow& row = *std::prev(it);
  return y < row.y + row.height ? &row : nullptr;
}

}  // namespace

bool GroupState::is_pinned(const GroupKey& key) const {
  return std::find(pinned.begin(), pinned.end(), key) != pinned.end();
}

void GroupState::toggle_collapsed(const GroupKey& key) {
  if (!collapsed.erase(key)) collapsed.insert(key);
}

void GroupState::toggle_pinned(const GroupKey& key) {
  const auto found = std::find(pinned.begin(), pinned.end(), key);
  if (found == pinned.end()) pinned.push_back(key);
  else pinned.erase(found);
}

const LayoutRow* TimelineLayout::row_at(int widget_y, int scroll_y) const {
  const int y = widget_y - kRulerHeight;
  if (y < 0) return nullptr;
  const auto first_scrolled =
      std::find_if(rows.begin(), rows.end(), [](const LayoutRow& row) { return !row.pinned; });
  if (y < pinned_height) return search(rows.begin(), first_scrolled, y);
  return search(first_scrolled, rows.end(), y + scroll_y);
}

const LayoutRow* TimelineLayout::find(std::size_t rank, std::size_t row) const {
  for (const auto& entry : rows) {
    if (entry.rank == rank && entry.row == row) return &entry;
  }
  return nullptr;
}

TimeAxis TimelineLayout::rank_axis(const TimeAxis& axis, std::size_t rank) const {
  return rank < clock_offset_ns.size() ? axis.shifted(clock_offset_ns[rank]) : axis;
}

namespace {

// A device row with no stream rows after it: the GPU ran no kernel, copy or memset.
bool idle_device(const std::vector<TimelineRow>& rows, std::size_t row) {
  return rows[row].kind == RowKind::device &&
         (row + 1 == rows.size() || rows[row + 1].kind != RowKind::stream || rows[row + 1].device != rows[row].device);
}

// One group's rows in order, heights set, y not yet.
struct Block {
  GroupKey key;
  std::vector<LayoutRow> rows;
};

// A rank's rows: its header (none in compact mode), then a block per GPU and one for its host threads.
struct RankRows {
  std::optional<LayoutRow> header;
  std::vector<Block> blocks;
};

LayoutRow header_row(std::size_t rank, GroupKey key, int height, const GroupState& groups, int members) {
  LayoutRow row{rank, std::nullopt, 0, height, key};
  row.collapsed = groups.is_collapsed(key);
  row.members = members;
  return row;
}

// Compact mode: one row per GPU, its streams drawn inside it.
RankRows compact_rows(const LoadedRank& rank, std::size_t index, const LayoutOptions& options, int& hidden) {
  RankRows result;
  const auto& rows = rank.timeline.rows;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (rows[row].kind != RowKind::device) continue;
    if (!options.show_idle_devices && idle_device(rows, row)) {
      ++hidden;
      continue;
    }
    const GroupKey key{index, GroupKind::streams, rows[row].device};
    LayoutRow place{index, row, 0, kCompactRowHeight, key};
    place.collapsed = true;
    result.blocks.push_back({key, {place}});
  }
  return result;
}

RankRows full_rows(const LoadedRank& rank, std::size_t index, const LayoutOptions& options, int& hidden) {
  const auto& groups = options.groups;
  RankRows result;
  result.header = header_row(index, {index, GroupKind::rank}, kRankHeaderHeight, groups, 0);
  const auto& rows = rank.timeline.rows;
  std::optional<std::size_t> threads;  // the host threads' block
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (!options.show_idle_devices && idle_device(rows, row)) {
      ++hidden;
      continue;
    }
    const auto kind = rows[row].kind;
    if (kind == RowKind::device) {
      const GroupKey key{index, GroupKind::streams, rows[row].device};
      LayoutRow place{index, row, 0, kDeviceRowHeight, key};
      place.collapsed = groups.is_collapsed(key);
      // A collapsed GPU row shows its streams' work inside it, as compact mode does.
      if (place.collapsed) place.height = kCompactRowHeight;
      result.blocks.push_back({key, {place}});
      continue;
    }
    if (kind == RowKind::host_thread && !threads) {
      const GroupKey key{index, GroupKind::host_threads};
      threads = result.blocks.size();
      result.blocks.push_back({key, {header_row(index, key, kRankHeaderHeight, groups, 0)}});
    }
    if (result.blocks.empty()) continue;  // a stream before any GPU row: the timeline never builds one
    auto& block = kind == RowKind::host_thread ? result.blocks[*threads] : result.blocks.back();
    ++block.rows.front().members;
    if (!block.rows.front().collapsed) block.rows.push_back({index, row, 0, row_height(rows[row])});
  }
  return result;
}

struct Placer {
  TimelineLayout& layout;
  int y = 0;
  int gap = kRowGap;

  void place(std::vector<LayoutRow> rows, bool pinned) {
    for (auto& row : rows) {
      row.y = y;
      row.pinned = pinned;
      y += row.height + gap;
      layout.rows.push_back(std::move(row));
    }
  }
  // The rank's rows: in the pinned area all of them, else those not pinned on their own.
  void place_rank(const RankRows& rank, const GroupState& groups, bool pinned) {
    if (rank.header) place({*rank.header}, pinned);
    if (rank.header && rank.header->collapsed) return;
    for (const auto& block : rank.blocks) {
      if (!pinned && groups.is_pinned(block.key)) continue;
      place(block.rows, pinned);
    }
  }
};

}  // namespace

const TimelineRow* device_row_at(const Session& session, const TimelineLayout& layout, std::size_t index) {
  const auto& place = layout.rows[index];
  if (!place.row) return nullptr;
  const auto& row = session.ranks[place.rank]->timeline.rows[*place.row];
  return row.kind == RowKind::device ? &row : nullptr;
}

std::size_t device_group_end(const Session& session, const TimelineLayout& layout, std::size_t index) {
  std::size_t end = index + 1;
  while (end < layout.rows.size() && layout.rows[end].rank == layout.rows[index].rank && layout.rows[end].row &&
         session.ranks[layout.rows[end].rank]->timeline.rows[*layout.rows[end].row].kind == RowKind::stream) {
    ++end;
  }
  return end;
}

TimelineLayout layout_timeline(const Session& session, const LayoutOptions& options) {
  TimelineLayout layout;
  layout.options = options;
  layout.start_ns = session.start_ns;
  layout.end_ns = session.end_ns;
  std::vector<RankRows> ranks;
  for (std::size_t rank = 0; rank < session.ranks.size(); ++rank) {
    const auto& loaded = *session.ranks[rank];
    int hidden = 0;
    ranks.push_back(options.compact ? compact_rows(loaded, rank, options, hidden)
                                    : full_rows(loaded, rank, options, hidden));
    layout.hidden_devices.push_back(hidden);
    const std::int64_t offset = options.raw_clocks ? 0 : session.job.clocks.offset_of(loaded.analysis.rank);
    layout.clock_offset_ns.push_back(offset);
    if (rank == 0 || loaded.timeline.start_ns + offset < layout.start_ns) layout.start_ns = loaded.timeline.start_ns + offset;
    if (rank == 0 || loaded.timeline.end_ns + offset > layout.end_ns) layout.end_ns = loaded.timeline.end_ns + offset;
  }
  Placer placer{layout, 0, options.compact ? kCompactRowGap : kRowGap};
  const auto& groups = options.groups;
  const auto pinned_rank = [&](std::size_t rank) { return groups.is_pinned({rank, GroupKind::rank}); };
  for (const auto& key : groups.pinned) {
    if (key.rank >= ranks.size()) continue;
    if (key.kind == GroupKind::rank) {
      placer.place_rank(ranks[key.rank], groups, true);
      continue;
    }
    if (pinned_rank(key.rank)) continue;  // it came with its rank
    for (const auto& block : ranks[key.rank].blocks) {
      if (block.key == key) placer.place(block.rows, true);
    }
  }
  layout.pinned_height = placer.y;
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
    if (!pinned_rank(rank)) placer.place_rank(ranks[rank], groups, false);
  }
  layout.height = placer.y;
  return layout;
}

}  // namespace gpuprof::gui
