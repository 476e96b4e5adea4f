#include "chrome_trace_layout.hpp"

#include <algorithm>
#include <cstdint>

namespace gpuprof::exporters {
namespace {

using trace::kUnknown;
using trace::kUnknown32;

std::string id_text(std::int64_t id) { return id == kUnknown ? std::string("unknown") : std::to_string(id); }

void write_named(EventWriter& writer, const char* what, Track track, std::int64_t base_ns, const std::string& name) {
  writer.begin_event("M", "", what, track, base_ns);
  writer.key("args");
  writer.json().StartObject();
  writer.string_arg("name", name);
  writer.json().EndObject();
  writer.end_event();
}

void write_sort_index(EventWriter& writer, const char* what, Track track, std::int64_t base_ns, std::int64_t index) {
  writer.begin_event("M", "", what, track, base_ns);
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

ChromeTraceLayout::ChromeTraceLayout(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps)
    : model_(model), rank_(model.rank()) {
  add_slices(model.kernel_streams, device_streams_);
  add_slices(model.memcpy_streams, device_streams_);
  add_slices(model.memset_streams, device_streams_);
  for (const auto device : model.device_ids()) devices_.insert(device);
  for (const auto& gap : gaps) devices_.insert(gap.device);
  const auto& api = model.api_calls;
  for (std::size_t i = 0; i < api.size(); ++i) add_host(api.process_id[i], api.thread_id[i]);
  const auto& syncs = model.syncs;
  for (std::size_t i = 0; i < syncs.size(); ++i) add_host(syncs.process_id[i], syncs.thread_id[i]);
  const auto& ranges = model.ranges;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (ranges.on_gpu[i] != 0) {
      device_streams_.emplace(ranges.device[i], ranges.stream[i]);
    } else {
      add_host(ranges.process_id[i], ranges.thread_id[i]);
    }
  }
  for (const auto& [device, stream] : device_streams_) devices_.insert(device);
  // Kineto's pid = device id is kept unless it would merge a GPU into a host process.
  bool clash = false;
  for (const auto& [process_id, thread_id] : host_threads_) {
    clash = clash || (process_id >= 0 && process_id <= INT32_MAX &&
                      devices_.contains(static_cast<std::int32_t>(process_id)));
  }
  if (clash) {
    for (const auto& thread : host_threads_) device_pid_offset_ = std::max(device_pid_offset_, thread.first + 1);
  }
}

void ChromeTraceLayout::add_host(std::int64_t process_id, std::int64_t thread_id) {
  host_threads_.emplace(process_id, thread_id);
}

std::int64_t ChromeTraceLayout::device_pid(std::int32_t device) const {
  return device == kUnknown32 ? kUnknown : device_pid_offset_ + device;
}

Track ChromeTraceLayout::device_track(std::int32_t device, std::int64_t stream) const {
  return {device_pid(device), stream};
}

std::string ChromeTraceLayout::rank_prefix() const {
  return rank_ ? "rank " + std::to_string(*rank_) + " \u00b7 " : std::string();
}

std::string ChromeTraceLayout::device_title(std::int32_t device) const {
  std::string title = rank_prefix() + "GPU " + (device == kUnknown32 ? std::string("unknown") : std::to_string(device));
  for (const auto& row : model_.devices) {
    if (row.id == device && row.name) title += ": " + *row.name;
  }
  return title;
}

void ChromeTraceLayout::write_metadata(EventWriter& writer, std::int64_t base_ns) const {
  // Host processes sort first so launch arrows point down to the GPUs.
  std::int64_t order = 0;
  std::optional<std::int64_t> previous;
  for (const auto& [process_id, thread_id] : host_threads_) {
    if (previous != process_id) {
      const Track process{process_id, 0};
      write_named(writer, "process_name", process, base_ns, rank_prefix() + "host process " + id_text(process_id));
      write_sort_index(writer, "process_sort_index", process, base_ns, order++);
      previous = process_id;
    }
    write_named(writer, "thread_name", {process_id, thread_id}, base_ns, "thread " + id_text(thread_id));
  }
  for (const auto device : devices_) {
    const Track process = device_process(device);
    write_named(writer, "process_name", process, base_ns, device_title(device));
    write_sort_index(writer, "process_sort_index", process, base_ns, order++);
  }
  for (const auto& [device, stream] : device_streams_) {
    const Track thread = device_track(device, stream);
    write_named(writer, "thread_name", thread, base_ns, "stream " + id_text(stream));
    if (stream != kUnknown) write_sort_index(writer, "thread_sort_index", thread, base_ns, stream);
  }
}

}  // namespace gpuprof::exporters
