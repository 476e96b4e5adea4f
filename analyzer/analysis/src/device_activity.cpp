#include "gpuprof/analysis/device_activity.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>

namespace gpuprof::analysis {
namespace {

struct RawSets {
  IntervalSet compute, comm, memcpy, peer_copy;
};

// The loader sorts the GPU tables by device, stream and start, so a stream's intervals merge as they are read,
// straight into their device's set: no array of a stream's raw intervals, and no union of the device's set
// so far with each stream, a new array per stream (both were fresh pages at 100 M events, and device activity
// grew faster than the events). `from`: where this stream's part of `set` begins, so that no interval merges
// into another stream's; finish() unites the streams' parts.
void append(IntervalSet& set, std::size_t from, std::int64_t start, std::int64_t end) {
  if (end <= start) return;
  if (set.size() > from && start <= set.back().end) {
    set.back().end = std::max(set.back().end, end);
  } else {
    set.push_back({start, end});
  }
}

// Rows per device of the given tables' streams: what a set may hold at most, reserved once (pages reserved and
// never written cost no memory).
std::map<std::int32_t, std::size_t> rows_per_device(
    std::initializer_list<const std::vector<trace::StreamSlice>*> tables) {
  std::map<std::int32_t, std::size_t> rows;
  for (const auto* slices : tables) {
    for (const auto& slice : *slices) rows[slice.device] += slice.end - slice.begin;
  }
  return rows;
}

void reserve(const std::map<std::int32_t, std::size_t>& rows, std::map<std::int32_t, RawSets>& sets,
             IntervalSet RawSets::*member) {
  for (const auto& [device, count] : rows) (sets[device].*member).reserve(count);
}

void add_kernels(const trace::TraceModel& model, const std::vector<KernelCategory>& categories,
                 std::map<std::int32_t, RawSets>& sets) {
  const auto& table = model.kernels;
  for (const auto& slice : model.kernel_streams) {
    auto& device = sets[slice.device];
    const auto compute_from = device.compute.size(), comm_from = device.comm.size();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      const auto name = table.name[row];
      const bool is_comm = name < categories.size() && categories[name] == KernelCategory::communication;
      if (is_comm) {
        append(device.comm, comm_from, table.start_ns[row], table.end_ns[row]);
      } else {
        append(device.compute, compute_from, table.start_ns[row], table.end_ns[row]);
      }
    }
  }
}

void add_plain(const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices,
               std::map<std::int32_t, RawSets>& sets, IntervalSet RawSets::*member) {
  for (const auto& slice : slices) {
    auto& set = sets[slice.device].*member;
    const auto from = set.size();
    for (std::size_t row = slice.begin; row < slice.end; ++row) append(set, from, table.start_ns[row], table.end_ns[row]);
  }
}

// Peer copies are few; the rows of each stream are already in start order.
void add_peer_copies(const trace::TraceModel& model, std::map<std::int32_t, RawSets>& sets) {
  const auto& table = model.memcpys;
  for (const auto& slice : model.memcpy_streams) {
    auto& set = sets[slice.device].peer_copy;
    const auto from = set.size();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      if (table.copy_kind[row] != trace::CopyKind::peer_to_peer) continue;
      append(set, from, table.start_ns[row], table.end_ns[row]);
    }
  }
}

// The streams' parts of a set, each sorted and merged, united in place: sorted as runs, then merged.
IntervalSet finish(IntervalSet& parts) { return normalize(std::move(parts)); }

}  // namespace

std::vector<DeviceActivity> build_device_activity(const trace::TraceModel& model,
                                                  const std::vector<KernelCategory>& name_categories) {
  std::map<std::int32_t, RawSets> sets;
  for (const auto device : model.device_ids()) sets[device];
  reserve(rows_per_device({&model.kernel_streams, &model.memset_streams}), sets, &RawSets::compute);
  reserve(rows_per_device({&model.kernel_streams}), sets, &RawSets::comm);
  reserve(rows_per_device({&model.memcpy_streams}), sets, &RawSets::memcpy);
  add_kernels(model, name_categories, sets);
  add_plain(model.memsets, model.memset_streams, sets, &RawSets::compute);
  add_plain(model.memcpys, model.memcpy_streams, sets, &RawSets::memcpy);
  add_peer_copies(model, sets);

  std::vector<DeviceActivity> result;
  for (auto& [device, raw] : sets) {
    DeviceActivity activity;
    activity.device = device;
    activity.compute = finish(raw.compute);
    activity.comm = finish(raw.comm);
    activity.memcpy = finish(raw.memcpy);
    activity.peer_copy = finish(raw.peer_copy);
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
