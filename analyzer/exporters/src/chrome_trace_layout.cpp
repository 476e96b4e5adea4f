#include "chrome_trace_layout.hpp"

#include <algorithm>
#include <cstdint>

namespace gpuprof::exporters {
namespace {

using trace::kUnknown;
using trace::kUnknown32;

std::string id_text(std::int64_t id) { return id == kUnknown ? std::string("unknown") : std::to_string(id); }

void write_named(EventWriter& writer, const char* what, Track track, const std::string& name) {
  writer.begin_event("M", "", what, track, writer.origin_ns());
  writer.key("args");
  writer.json().StartObject();
  writer.string_arg("name", name);
  writer.json().EndObject();
  writer.end_event();
}

void write_sort_index(EventWriter& writer, const char* what, Track track, std::int64_t index) {
  writer.begin_event("M", "", what, track, writer.origin_ns());
  writer.key("args");
  writer.json().StartObject();
  writer.number_arg("sort_index", index);
  writer.json().EndObject();
  writer.end_event();
}

void add_slices(const std::vector<trace::StreamSlice>& slices,
                std::set<std::pair<std::int32_t, std::int64_t>>& streams) {
  for (const auto& slice : slices) streams.emplace(slice.device, slice.stream);
}

}  // namespace

std::set<std::int64_t> TraceTracks::host_processes() const {
  std::set<std::int64_t> processes;
  for (const auto& thread : host_threads) processes.insert(thread.first);
  return processes;
}

TraceTracks trace_tracks(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps,
                         bool listed_devices) {
  TraceTracks tracks;
  add_slices(model.kernel_streams, tracks.device_streams);
  add_slices(model.memcpy_streams, tracks.device_streams);
  add_slices(model.memset_streams, tracks.device_streams);
  if (listed_devices) {
    for (const auto device : model.device_ids()) tracks.devices.insert(device);
  }
  for (const auto& gap : gaps) tracks.devices.insert(gap.device);
  const auto& api = model.api_calls;
  for (std::size_t i = 0; i < api.size(); ++i) tracks.host_threads.emplace(api.process_id[i], api.thread_id[i]);
  const auto& syncs = model.syncs;
  for (std::size_t i = 0; i < syncs.size(); ++i) tracks.host_threads.emplace(syncs.process_id[i], syncs.thread_id[i]);
  const auto& ranges = model.ranges;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (ranges.on_gpu[i] != 0) {
      tracks.device_streams.emplace(ranges.device[i], ranges.stream[i]);
    } else {
      tracks.host_threads.emplace(ranges.process_id[i], ranges.thread_id[i]);
    }
  }
  for (const auto& [device, stream] : tracks.device_streams) tracks.devices.insert(device);
  return tracks;
}

std::int64_t RankPlacement::device_number(std::int32_t device) const {
  if (device == kUnknown32) return kUnknown;
  if (device_numbers.empty()) return device;
  const auto found = device_numbers.find(device);
  return found == device_numbers.end() ? kUnknown : found->second;
}

std::int64_t RankPlacement::device_pid(std::int32_t device) const {
  const auto number = device_number(device);
  return number == kUnknown ? kUnknown : device_pid_offset + number;
}

RankPlacement single_trace_placement(const TraceTracks& tracks, std::optional<std::int32_t> rank) {
  RankPlacement placement;
  placement.rank = rank;
  bool clash = false;
  for (const auto process_id : tracks.host_processes()) {
    clash = clash || (process_id >= 0 && process_id <= INT32_MAX &&
                      tracks.devices.contains(static_cast<std::int32_t>(process_id)));
  }
  if (clash) {
    for (const auto process_id : tracks.host_processes()) {
      placement.device_pid_offset = std::max(placement.device_pid_offset, process_id + 1);
    }
  }
  return placement;
}

ChromeTraceLayout::ChromeTraceLayout(const trace::TraceModel& model, TraceTracks tracks, RankPlacement placement)
    : model_(model), tracks_(std::move(tracks)), placement_(std::move(placement)) {}

Track ChromeTraceLayout::host_track(std::int64_t process_id, std::int64_t thread_id) const {
  return {process_id == kUnknown ? kUnknown : process_id + placement_.host_pid_shift, thread_id};
}

std::string ChromeTraceLayout::rank_prefix() const {
  return placement_.rank ? "rank " + std::to_string(*placement_.rank) + " \u00b7 " : std::string();
}

std::string ChromeTraceLayout::device_title(std::int32_t device) const {
  std::string title = rank_prefix() + "GPU " + (device == kUnknown32 ? std::string("unknown") : std::to_string(device));
  for (const auto& row : model_.devices) {
    if (row.id == device && row.name) title += ": " + *row.name;
  }
  return title;
}

std::int64_t ChromeTraceLayout::write_metadata(EventWriter& writer, std::int64_t first_sort_index) const {
  // Host processes sort first so launch arrows point down to the GPUs.
  std::int64_t order = first_sort_index;
  std::optional<std::int64_t> previous;
  for (const auto& [process_id, thread_id] : tracks_.host_threads) {
    if (previous != process_id) {
      const Track process = host_track(process_id, 0);
      write_named(writer, "process_name", process, rank_prefix() + "host process " + id_text(process_id));
      write_sort_index(writer, "process_sort_index", process, order++);
      previous = process_id;
    }
    write_named(writer, "thread_name", host_track(process_id, thread_id), "thread " + id_text(thread_id));
  }
  for (const auto device : tracks_.devices) {
    const Track process = device_process(device);
    write_named(writer, "process_name", process, device_title(device));
    write_sort_index(writer, "process_sort_index", process, order++);
  }
  for (const auto& [device, stream] : tracks_.device_streams) {
    const Track thread = device_track(device, stream);
    write_named(writer, "thread_name", thread, "stream " + id_text(stream));
    if (stream != kUnknown) write_sort_index(writer, "thread_sort_index", thread, stream);
  }
  return order;
}

}  // namespace gpuprof::exporters
