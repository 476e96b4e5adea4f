#pragma once

// Where each timeline row sits vertically: rank headers, device rows (steps
// and gaps), stream rows and host thread rows, in groups (a rank, a GPU's
// streams, a rank's host threads) that can be collapsed or pinned to the top,
// where they stay while the rest scrolls under them. Qt-free.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/gui/time_axis.hpp"

namespace gpuprof::gui {

inline constexpr int kRulerHeight = 22;
inline constexpr int kLabelWidth = 200;  // a rank's row label with its mark ("r7 GPU 7 · slowest, straggler") whole
inline constexpr int kRankHeaderHeight = 18;
inline constexpr int kDeviceRowHeight = 22;
inline constexpr int kStreamRowHeight = 18;
inline constexpr int kHostLaneHeight = 14;
inline constexpr int kRowGap = 2;
// Compact mode: one row per GPU (steps above, every stream's work below), so 32 ranks fit in 1000 pixels.
inline constexpr int kCompactRowHeight = 24;
inline constexpr int kCompactRowGap = 1;

// A group of rows: a whole rank (its header and everything under it), one GPU's streams (under the GPU's
// row), or a rank's host threads (under a "host threads" header).
enum class GroupKind : std::uint8_t { rank, streams, host_threads };

struct GroupKey {
  std::size_t rank = 0;  // index into Session::ranks
  GroupKind kind = GroupKind::rank;
  std::int32_t device = 0;  // streams only: whose
  auto operator<=>(const GroupKey&) const = default;
};

// Which groups are collapsed and which are pinned, kept by the view while it shows one session.
struct GroupState {
  std::set<GroupKey> collapsed;
  std::vector<GroupKey> pinned;  // drawn at the top in this order

  bool is_collapsed(const GroupKey& key) const { return collapsed.count(key) != 0; }
  bool is_pinned(const GroupKey& key) const;
  void toggle_collapsed(const GroupKey& key);
  void toggle_pinned(const GroupKey& key);
};

struct LayoutOptions {
  // A rank of a job often drives one of a machine's eight GPUs: the others would be empty rows.
  bool show_idle_devices = false;
  // Each rank on its own clock instead of the reference rank's (the job analysis's clock offsets).
  bool raw_clocks = false;
  // One summary row per GPU and no rank headers, streams or host threads: a job of many ranks on one screen.
  bool compact = false;
  // Compact mode shows no headers: only whole ranks pin there, and nothing collapses.
  GroupState groups;
};

// Jobs of this many ranks open in compact mode.
inline constexpr std::size_t kCompactFromRanks = 8;

struct LayoutRow {
  std::size_t rank = 0;
  std::optional<std::size_t> row;  // the rank's timeline row; empty for a header (rank or host threads)
  int y = 0, height = 0;           // content coordinates, below the ruler (pinned rows: the pinned area's)
  std::optional<GroupKey> heads;   // the group this row heads (rank header, GPU row, host threads header)
  bool pinned = false;             // in the pinned area at the top, which does not scroll
  bool collapsed = false;          // heads a collapsed group (a GPU row then draws its streams inside it)
  int members = 0;                 // rows the group holds (host threads: threads), shown on its header
};

struct TimelineLayout {
  LayoutOptions options;
  std::vector<LayoutRow> rows;  // the pinned rows first, then the others, each by y
  int height = 0;                // both areas
  int pinned_height = 0;         // the pinned area, from the top; the other rows start below it
  std::vector<std::int64_t> clock_offset_ns;  // per rank index: added to its times where they are drawn
  std::vector<int> hidden_devices;            // per rank index: GPUs without activity left out
  std::int64_t start_ns = 0, end_ns = 0;      // the ranks' timelines as drawn (offsets applied)

  // The axis that draws rank `rank` (index): the view's axis moved by the rank's clock offset.
  TimeAxis rank_axis(const TimeAxis& axis, std::size_t rank) const;

  // The row under widget y (below the ruler) when the scrolling rows are scrolled by `scroll_y`, if any.
  const LayoutRow* row_at(int widget_y, int scroll_y) const;
  // The layout row showing (rank, row), if any.
  const LayoutRow* find(std::size_t rank, std::size_t row) const;
};

TimelineLayout layout_timeline(const Session& session, const LayoutOptions& options = {});

// The timeline row layout.rows[index] shows when it is a GPU's row (not a header, a stream or a thread).
const TimelineRow* device_row_at(const Session& session, const TimelineLayout& layout, std::size_t index);

// One past the last layout row of the GPU group whose GPU row is layout.rows[index] (its stream rows follow it).
std::size_t device_group_end(const Session& session, const TimelineLayout& layout, std::size_t index);

}  // namespace gpuprof::gui
