#pragma once

// The rows of the timeline for one rank, built once after loading: which
// slices of the analyzer's tables each row draws. GPU rows point at the
// model's (device, stream) slices and copy nothing; host rows keep one 32-bit
// row number per API call or range, because host tables are sorted by start
// across all threads.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/gui/gap_tree.hpp"
#include "gpuprof/gui/lane_view.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::gui {

enum class LaneKind : std::uint8_t { kernels, memcpys, memsets, api_calls, ranges };

struct Lane {
  LaneKind kind = LaneKind::kernels;
  std::size_t begin = 0, end = 0;     // table rows when `rows` is empty
  std::vector<std::uint32_t> rows;    // table rows, by start (host lanes, highlights)
  std::int64_t max_duration = 0;      // measured once the lane is complete (summarise_lane)
  bool disjoint = false;              // likewise: no two events overlap
  GapTree gaps;                       // likewise, for disjoint lanes

  std::size_t size() const { return rows.empty() ? end - begin : rows.size(); }
};

enum class RowKind : std::uint8_t { device, stream, host_thread };

struct TimelineRow {
  RowKind kind = RowKind::stream;
  std::int32_t device = trace::kUnknown32;
  std::int64_t stream = trace::kUnknown;
  std::int64_t process = trace::kUnknown, thread = trace::kUnknown;
  std::string label;
  // Stream rows: kernels, memcpys, memsets drawn in one band (a stream runs one thing at a time).
  // Host rows: one lane per nesting depth of API calls (at least one), then per depth of ranges, each in its
  // own band; no two events of a lane overlap.
  std::vector<Lane> lanes;
};

struct RankTimeline {
  std::vector<TimelineRow> rows;  // per device: a device row (steps, gaps), then its streams; then host threads
  std::int64_t start_ns = 0, end_ns = 0;

  // Bytes the timeline adds on top of the model (row numbers of host lanes and row bookkeeping).
  std::size_t memory_bytes() const;
};

RankTimeline build_rank_timeline(const trace::TraceModel& model);

// Drawable view of a lane over the model's start/end columns.
LaneView lane_view(const trace::TraceModel& model, const Lane& lane);

// Kernels with name `name` on the row's stream, as a lane of table rows (for highlighting).
Lane kernel_instances(const trace::TraceModel& model, const TimelineRow& row, trace::StringId name);

}  // namespace gpuprof::gui
