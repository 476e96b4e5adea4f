#include "gpuprof/gui/timeline_data.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace gpuprof::gui {
namespace {

using trace::TraceModel;

std::int64_t longest(const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& end, std::size_t begin,
                     std::size_t stop) {
  std::int64_t result = 0;
  for (std::size_t i = begin; i < stop; ++i) result = std::max(result, end[i] - start[i]);
  return result;
}

Lane slice_lane(LaneKind kind, const trace::GpuColumns& table, const trace::StreamSlice& slice) {
  return {kind, slice.begin, slice.end, {}, longest(table.start_ns, table.end_ns, slice.begin, slice.end)};
}

std::string stream_label(std::int64_t stream) {
  return stream == trace::kUnknown ? std::string("stream ?") : "stream " + std::to_string(stream);
}

using StreamKey = std::pair<std::int32_t, std::int64_t>;

void add_slices(std::map<StreamKey, TimelineRow>& rows, LaneKind kind, const trace::GpuColumns& table,
                const std::vector<trace::StreamSlice>& slices) {
  for (const auto& slice : slices) {
    auto& row = rows[{slice.device, slice.stream}];
    row.kind = RowKind::stream;
    row.device = slice.device;
    row.stream = slice.stream;
    row.label = stream_label(slice.stream);
    row.lanes.push_back(slice_lane(kind, table, slice));
  }
}

void add_device_rows(const TraceModel& model, RankTimeline& timeline) {
  std::map<StreamKey, TimelineRow> streams;
  add_slices(streams, LaneKind::kernels, model.kernels, model.kernel_streams);
  add_slices(streams, LaneKind::memcpys, model.memcpys, model.memcpy_streams);
  add_slices(streams, LaneKind::memsets, model.memsets, model.memset_streams);
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

// Nesting depth of each host range on its thread: depth d holds ranges that
// start after every range at depth >= d that began earlier has ended.
void add_range_lanes(const trace::RangeTable& ranges, std::map<ThreadKey, TimelineRow>& threads) {
  std::map<ThreadKey, std::vector<std::int64_t>> open_ends;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (ranges.on_gpu[i]) continue;  // GPU annotations show as steps on the device rows
    const ThreadKey key{ranges.process_id[i], ranges.thread_id[i]};
    auto& ends = open_ends[key];
    while (!ends.empty() && ends.back() <= ranges.start_ns[i]) ends.pop_back();
    const std::size_t depth = ends.size();
    ends.push_back(ranges.end_ns[i]);
    auto& row = threads[key];
    while (row.lanes.size() < depth + 2) row.lanes.push_back({LaneKind::ranges});
    auto& lane = row.lanes[depth + 1];
    lane.rows.push_back(static_cast<std::uint32_t>(i));
    lane.max_duration = std::max(lane.max_duration, ranges.end_ns[i] - ranges.start_ns[i]);
  }
}

void add_host_rows(const TraceModel& model, RankTimeline& timeline) {
  std::map<ThreadKey, TimelineRow> threads;
  const auto& api = model.api_calls;
  for (std::size_t i = 0; i < api.size(); ++i) {
    auto& row = threads[{api.process_id[i], api.thread_id[i]}];
    if (row.lanes.empty()) row.lanes.push_back({LaneKind::api_calls});
    row.lanes[0].rows.push_back(static_cast<std::uint32_t>(i));
    row.lanes[0].max_duration = std::max(row.lanes[0].max_duration, api.end_ns[i] - api.start_ns[i]);
  }
  add_range_lanes(model.ranges, threads);
  for (auto& [key, row] : threads) {
    if (row.lanes.empty()) row.lanes.push_back({LaneKind::api_calls});
    if (row.lanes[0].kind != LaneKind::api_calls) row.lanes[0].kind = LaneKind::api_calls;
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
    for (const auto& lane : row.lanes) bytes += lane.rows.capacity() * sizeof(std::uint32_t);
  }
  return bytes;
}

RankTimeline build_rank_timeline(const TraceModel& model) {
  RankTimeline timeline;
  add_device_rows(model, timeline);
  add_host_rows(model, timeline);
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
      result.max_duration = std::max(result.max_duration, model.kernels.end_ns[i] - model.kernels.start_ns[i]);
    }
  }
  return result;
}

}  // namespace gpuprof::gui
