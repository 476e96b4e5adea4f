#pragma once

// Where each timeline row sits vertically: rank headers, device rows (steps
// and gaps), stream rows and host thread rows. Qt-free.

#include <cstddef>
#include <optional>
#include <vector>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

inline constexpr int kRulerHeight = 22;
inline constexpr int kLabelWidth = 150;
inline constexpr int kRankHeaderHeight = 18;
inline constexpr int kDeviceRowHeight = 22;
inline constexpr int kStreamRowHeight = 18;
inline constexpr int kHostLaneHeight = 14;
inline constexpr int kRowGap = 2;

struct LayoutRow {
  std::size_t rank = 0;
  std::optional<std::size_t> row;  // empty for the rank header
  int y = 0, height = 0;           // content coordinates, below the ruler
};

struct TimelineLayout {
  std::vector<LayoutRow> rows;
  int height = 0;

  // The row at content y, if any.
  const LayoutRow* row_at(int y) const;
  // The layout row showing (rank, row), if any.
  const LayoutRow* find(std::size_t rank, std::size_t row) const;
};

TimelineLayout layout_timeline(const Session& session);

}  // namespace gpuprof::gui
