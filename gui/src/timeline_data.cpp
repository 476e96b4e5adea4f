#include "gpuprof/gui/timeline_data.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace gpuprof::gui {
namespace {

using trace::TraceModel;

Lane slice_lane(LaneKind kind, const trace::StreamSlice& slice) { return {kind, slice.begin, slice.end}; }

std::string stream_label(std::int64_t stream) {
  return stream == trace::kUnknown ? std::string("stream ?") : "stream " + std::to_string(stream);
}

using StreamKey = std::pair<std::int32_t, std::int64_t>;

void add_slices(std::map<StreamKey, TimelineRow>& rows, LaneKind kind, const std::vector<trace::StreamSlice>& slices) {
  for (const auto& slice : slices) {
    auto& row = rows[{slice.device, slice.stream}];
    row.kind = RowKind::stream;
    row.device = slice.device;
    row.stream = slice.stream;
    row.label = stream_label(slice.stream);
    row.lanes.push_back(slice_lane(kind, slice));
  }
}

void add_device_rows(const TraceModel& model, RankTimeline& timeline) {
  std::map<StreamKey, TimelineRow> streams;
  add_slices(streams, LaneKind::kernels, model.kernel_streams);
  add_slices(streams, LaneKind::memcpys, model.memcpy_streams);
  add_slices(streams, LaneKind::memsets, model.memset_streams);
  for (const std::int32_t device : model.device_ids()) {
    TimelineRow header;
    header.kind = RowKind::device;
    header.device = device;
    header.label = "GPU " + std::to_string(device);
    timeline.rows.push_back(std::move(header));
    for (auto it = streams.lower_bound({device, std::numeric_limits<std::int64_t>::min()});
         it != streams.end() && it->first.first == device; ++it) {
      timeline.rows.push_back(std::move(it->second));
    }
  }
}

using ThreadKey = std::pair<std::int64_t, std::int64_t>;

// Deep enough for framework annotations (module within module), bounded against a hostile file.
constexpr std::size_t kMaxHostDepth = 64;

struct ThreadLanes {
  std::vector<std::int64_t> open_ends;  // of the events still open at each depth
  std::vector<Lane> lanes;              // one per depth
};

// Lanes by nesting depth for one kind of host event on each thread: depth d holds the events that start
// after every earlier event at depth >= d has ended, so no two events of a lane overlap (a runtime call
// and the driver calls inside it, or nested annotations, are drawn one below the other), which is what
// keeps every lane on the merge's fast path.
template <typename Table, typename Skip>
std::map<ThreadKey, ThreadLanes> depth_lanes(const Table& table, LaneKind kind, Skip skip) {
  std::map<ThreadKey, ThreadLanes> threads;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (skip(i)) continue;
    auto& thread = threads[{table.process_id[i], table.thread_id[i]}];
    auto& ends = thread.open_ends;
    while (!ends.empty() && ends.back() <= table.start_ns[i]) ends.pop_back();
    // A file may nest without end: the deepest lane takes whatever lies deeper (and may then overlap).
    const std::size_t depth = std::min(ends.size(), kMaxHostDepth - 1);
    ends.push_back(table.end_ns[i]);
    while (thread.lanes.size() <= depth) thread.lanes.push_back({kind});
    thread.lanes[depth].rows.push_back(static_cast<std::uint32_t>(i));
  }
  return threads;
}

// Each thread's row: its API call lanes (at least one, empty when it made no call), then its range lanes.
void add_host_rows(const TraceModel& model, RankTimeline& timeline) {
  auto calls = depth_lanes(model.api_calls, LaneKind::api_calls, [](std::size_t) { return false; });
  // GPU annotations show as steps on the device rows.
  auto ranges =
      depth_lanes(model.ranges, LaneKind::ranges, [&](std::size_t i) { return model.ranges.on_gpu[i] != 0; });
  for (const auto& [key, thread] : ranges) calls[key];  // a thread with ranges only still gets its row
  for (auto& [key, thread] : calls) {
    TimelineRow row;
    row.lanes = std::move(thread.lanes);
    if (row.lanes.empty()) row.lanes.push_back({LaneKind::api_calls});
    if (const auto found = ranges.find(key); found != ranges.end()) {
      for (auto& lane : found->second.lanes) row.lanes.push_back(std::move(lane));
    }
    for (auto& lane : row.lanes) lane.rows.shrink_to_fit();
    row.kind = RowKind::host_thread;
    row.process = key.first;
    row.thread = key.second;
    row.label = "thread " + std::to_string(key.second);
    timeline.rows.push_back(std::move(row));
  }
}

void set_extent(const TraceModel& model, RankTimeline& timeline) {
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  auto widen = [&](const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& end) {
    for (std::size_t i = 0; i < start.size(); ++i) {
      lo = std::min(lo, start[i]);
      hi = std::max(hi, end[i]);
    }
  };
  widen(model.kernels.start_ns, model.kernels.end_ns);
  widen(model.memcpys.start_ns, model.memcpys.end_ns);
  widen(model.memsets.start_ns, model.memsets.end_ns);
  widen(model.api_calls.start_ns, model.api_calls.end_ns);
  widen(model.ranges.start_ns, model.ranges.end_ns);
  if (lo > hi) lo = hi = 0;
  timeline.start_ns = lo;
  timeline.end_ns = std::max(hi, lo + 1);
}

template <typename Table>
LaneView columns(const Table& table, const Lane& lane) {
  LaneView view;
  view.max_duration = lane.max_duration;
  view.disjoint = lane.disjoint;
  view.gaps = lane.disjoint ? &lane.gaps : nullptr;
  view.start = table.start_ns.data();
  view.end = table.end_ns.data();
  if (lane.rows.empty()) {
    view.first_row = lane.begin;
    view.size = lane.end - lane.begin;
  } else {
    view.index = lane.rows.data();
    view.size = lane.rows.size();
  }
  return view;
}

}  // namespace

std::size_t RankTimeline::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + rows.capacity() * sizeof(TimelineRow);
  for (const auto& row : rows) {
    bytes += row.label.capacity() + row.lanes.capacity() * sizeof(Lane);
    for (const auto& lane : row.lanes) bytes += lane.rows.capacity() * sizeof(std::uint32_t) + lane.gaps.memory_bytes();
  }
  return bytes;
}

namespace {

// After a lane is complete: its longest event and whether its events are disjoint, for the searches.
void measure(const TraceModel& model, Lane& lane) {
  auto summary = summarise_lane(lane_view(model, lane));
  lane.max_duration = summary.max_duration;
  lane.disjoint = summary.disjoint;
  lane.gaps = std::move(summary.gaps);
}

}  // namespace

RankTimeline build_rank_timeline(const TraceModel& model) {
  RankTimeline timeline;
  add_device_rows(model, timeline);
  add_host_rows(model, timeline);
  for (auto& row : timeline.rows) {
    for (auto& lane : row.lanes) measure(model, lane);
  }
  set_extent(model, timeline);
  return timeline;
}

LaneView lane_view(const TraceModel& model, const Lane& lane) {
  switch (lane.kind) {
    case LaneKind::kernels: return columns(model.kernels, lane);
    case LaneKind::memcpys: return columns(model.memcpys, lane);
    case LaneKind::memsets: return columns(model.memsets, lane);
    case LaneKind::api_calls: return columns(model.api_calls, lane);
    case LaneKind::ranges: return columns(model.ranges, lane);
  }
  return {};
}

Lane kernel_instances(const TraceModel& model, const TimelineRow& row, trace::StringId name) {
  Lane result{LaneKind::kernels};
  for (const auto& lane : row.lanes) {
    if (lane.kind != LaneKind::kernels) continue;
    for (std::size_t i = lane.begin; i < lane.end; ++i) {
      if (model.kernels.name[i] != name) continue;
      result.rows.push_back(static_cast<std::uint32_t>(i));
    }
  }
  measure(model, result);
  return result;
}

}  // namespace gpuprof::gui
