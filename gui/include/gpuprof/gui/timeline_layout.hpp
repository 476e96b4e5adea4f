#pragma once

// Where each timeline row sits vertically: rank headers, device rows (steps
// and gaps), stream rows and host thread rows. Qt-free.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/gui/time_axis.hpp"

namespace gpuprof::gui {

inline constexpr int kRulerHeight = 22;
inline constexpr int kLabelWidth = 150;
inline constexpr int kRankHeaderHeight = 18;
inline constexpr int kDeviceRowHeight = 22;
inline constexpr int kStreamRowHeight = 18;
inline constexpr int kHostLaneHeight = 14;
inline constexpr int kRowGap = 2;
// Compact mode: one row per GPU (steps above, every stream's work below), so 32 ranks fit in 1000 pixels.
inline constexpr int kCompactRowHeight = 24;
inline constexpr int kCompactRowGap = 1;

struct LayoutOptions {
  // A rank of a job often drives one of a machine's eight GPUs: the others would be empty rows.
  bool show_idle_devices = false;
  // Each rank on its own clock instead of the reference rank's (the job analysis's clock offsets).
  bool raw_clocks = false;
  // One summary row per GPU and no rank headers, streams or host threads: a job of many ranks on one screen.
  bool compact = false;
};

// Jobs of this many ranks open in compact mode.
inline constexpr std::size_t kCompactFromRanks = 8;

struct LayoutRow {
  std::size_t rank = 0;
  std::optional<std::size_t> row;  // empty for the rank header
  int y = 0, height = 0;           // content coordinates, below the ruler
};

struct TimelineLayout {
  LayoutOptions options;
  std::vector<LayoutRow> rows;
  int height = 0;
  std::vector<std::int64_t> clock_offset_ns;  // per rank index: added to its times where they are drawn
  std::vector<int> hidden_devices;            // per rank index: GPUs without activity left out
  std::int64_t start_ns = 0, end_ns = 0;      // the ranks' timelines as drawn (offsets applied)

  // The axis that draws rank `rank` (index): the view's axis moved by the rank's clock offset.
  TimeAxis rank_axis(const TimeAxis& axis, std::size_t rank) const;

  // The row at content y, if any.
  const LayoutRow* row_at(int y) const;
  // The layout row showing (rank, row), if any.
  const LayoutRow* find(std::size_t rank, std::size_t row) const;
};

TimelineLayout layout_timeline(const Session& session, const LayoutOptions& options = {});

}  // namespace gpuprof::gui
