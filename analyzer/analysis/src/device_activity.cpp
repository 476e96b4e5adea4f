#include "gpuprof/analysis/device_activity.hpp"

#include <algorithm>
#include <map>

namespace gpuprof::analysis {
namespace {

struct RawSets {
  IntervalSet compute, comm, memcpy, peer_copy;
};

// Rows of one stream are sorted by start, so each stream merges in one pass;
// streams are then united pairwise (few streams per device).
void add_stream(IntervalSet& target, const std::vector<Interval>& stream_intervals) {
  if (stream_intervals.empty()) return;
  target = unite(target, merge_sorted(stream_intervals));
}

void add_kernels(const trace::TraceModel& model, const std::vector<KernelCategory>& categories,
                 std::map<std::int32_t, RawSets>& sets) {
  const auto& table = model.kernels;
  std::vector<Interval> compute, comm;
  for (const auto& slice : model.kernel_streams) {
    compute.clear();
    comm.clear();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      const auto name = table.name[row];
      const bool is_comm = name < categories.size() && categories[name] == KernelCategory::communication;
      (is_comm ? comm : compute).push_back({table.start_ns[row], table.end_ns[row]});
    }
    auto& device = sets[slice.device];
    add_stream(device.compute, compute);
    add_stream(device.comm, comm);
  }
}

void add_plain(const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices,
               std::map<std::int32_t, RawSets>& sets, IntervalSet RawSets::*member) {
  std::vector<Interval> intervals;
  for (const auto& slice : slices) {
    intervals.clear();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      intervals.push_back({table.start_ns[row], table.end_ns[row]});
    }
    add_stream(sets[slice.device].*member, intervals);
  }
}

// Peer copies are few; the rows of each stream are already in start order.
void add_peer_copies(const trace::TraceModel& model, std::map<std::int32_t, RawSets>& sets) {
  const auto& table = model.memcpys;
  std::vector<Interval> intervals;
  for (const auto& slice : model.memcpy_streams) {
    intervals.clear();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      if (table.copy_kind[row] != trace::CopyKind::peer_to_peer) continue;
      intervals.push_back({table.start_ns[row], table.end_ns[row]});
    }
    add_stream(sets[slice.device].peer_copy, intervals);
  }
}

}  // namespace

std::vector<DeviceActivity> build_device_activity(const trace::TraceModel& model,
                                                  const std::vector<KernelCategory>& name_categories) {
  std::map<std::int32_t, RawSets> sets;
  for (const auto device : model.device_ids()) sets[device];
  add_kernels(model, name_categories, sets);
  add_plain(model.memsets, model.memset_streams, sets, &RawSets::compute);
  add_plain(model.memcpys, model.memcpy_streams, sets, &RawSets::memcpy);
  add_peer_copies(model, sets);

  std::vector<DeviceActivity> result;
  for (auto& [device, raw] : sets) {
    DeviceActivity activity;
    activity.device = device;
    activity.compute = std::move(raw.compute);
    activity.comm = std::move(raw.comm);
    activity.memcpy = std::move(raw.memcpy);
    activity.peer_copy = std::move(raw.peer_copy);
    activity.exposed_comm = subtract(activity.comm, activity.compute);
    activity.compute_or_comm = unite(activity.compute, activity.comm);
    activity.exposed_memcpy = subtract(activity.memcpy, activity.compute_or_comm);
    activity.busy = unite(activity.compute_or_comm, activity.memcpy);
    result.push_back(std::move(activity));
  }
  return result;
}

const DeviceActivity* find_device(const std::vector<DeviceActivity>& activity, std::int32_t device) {
  const auto found = std::find_if(activity.begin(), activity.end(),
                                  [device](const DeviceActivity& entry) { return entry.device == device; });
  return found == activity.end() ? nullptr : &*found;
}

}  // namespace gpuprof::analysis
