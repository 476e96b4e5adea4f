#include "gpuprof/idle/host_blockers.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "gpuprof/analysis/data_loading_names.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::idle {
namespace {

enum class Source { api_call, range, sync };

struct Candidate {
  IdleCause cause;
  std::int64_t thread, start, end;  // thread kUnknown: counts for every device
  std::size_t row;                  // of api_calls, ranges or syncs, as `source` says
  Source source;
};

std::string copy_detail(const trace::MemcpyTable& copies, std::size_t row) {
  const auto host_side = copies.copy_kind[row] == trace::CopyKind::device_to_host ? copies.dst_memory_kind[row]
                                                                                  : copies.src_memory_kind[row];
  const auto kind = std::string(trace::to_string(copies.copy_kind[row]));
  const auto memory = host_side == trace::MemoryKind::pageable ? " pageable memory"
                      : host_side == trace::MemoryKind::pinned ? " pinned memory"
                                                               : std::string_view{};
  const auto direction = copies.copy_kind[row] == trace::CopyKind::device_to_host ? " to" : " from";
  const auto size = copies.bytes[row] == trace::kUnknown ? std::string() : ", " + units::format_bytes(copies.bytes[row]);
  return memory.empty() ? fmt::format("{}{}", kind, size) : fmt::format("{}{}{}{}", kind, direction, memory, size);
}

std::vector<Candidate> candidates(const trace::TraceModel& model) {
  std::vector<Candidate> found;
  ApiNames names(model);
  const auto& api = model.api_calls;
  for (std::size_t row = 0; row < api.size(); ++row) {
    const auto cause = names.cause(api.name[row]);
    if (cause != IdleCause::host_bound) {
      found.push_back({cause, api.thread_id[row], api.start_ns[row], api.end_ns[row], row, Source::api_call});
    }
  }
  const auto& syncs = model.syncs;
  for (std::size_t row = 0; row < syncs.size(); ++row) {
    found.push_back({IdleCause::sync_wait, syncs.thread_id[row], syncs.start_ns[row], syncs.end_ns[row], row, Source::sync});
  }
  const auto& ranges = model.ranges;
  // Per string id: -1 not looked at yet, 0 no, 1 a data-loading name (many ranges, few names).
  std::vector<std::int8_t> loading(model.strings.size(), -1);
  const auto is_loading = [&](trace::StringId id) {
    if (id >= loading.size()) return analysis::is_data_loading_name(model.string(id));
    if (loading[id] < 0) loading[id] = analysis::is_data_loading_name(model.strings[id]) ? 1 : 0;
    return loading[id] == 1;
  };
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0 || !is_loading(ranges.name[row])) continue;
    found.push_back({IdleCause::data_loading, trace::kUnknown, ranges.start_ns[row], ranges.end_ns[row], row, Source::range});
  }
  return found;
}

// Pageable asynchronous copies block like synchronous ones: their calls count as blocking copies too.
void add_pageable_copies(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                         std::vector<Candidate>& found, std::unordered_map<std::size_t, std::size_t>& copy_of_call) {
  const auto& copies = model.memcpys;
  const auto& api = model.api_calls;
  for (std::size_t row = 0; row < copies.size(); ++row) {
    const auto api_row = correlations.api_row(copies.correlation_id[row]);
    if (api_row == analysis::CorrelationIndex::kNone) continue;
    copy_of_call[api_row] = row;
    if (!pageable_copy(copies, row) || api_call_cause(model.string(api.name[api_row])) != IdleCause::host_bound) continue;
    found.push_back({IdleCause::blocking_copy, api.thread_id[api_row], api.start_ns[api_row], api.end_ns[api_row], api_row,
                     Source::api_call});
  }
}

HostBlocker describe(const trace::TraceModel& model, const Candidate& candidate,
                     const std::unordered_map<std::size_t, std::size_t>& copy_of_call) {
  HostBlocker blocker;
  blocker.cause = candidate.cause;
  blocker.start_ns = candidate.start, blocker.end_ns = candidate.end;
  switch (candidate.source) {
    case Source::api_call: blocker.call = model.string(model.api_calls.name[candidate.row]); break;
    case Source::range: blocker.call = model.string(model.ranges.name[candidate.row]); break;
    case Source::sync: blocker.call = fmt::format("{} synchronize", trace::to_string(model.syncs.type[candidate.row])); break;
  }
  if (candidate.source == Source::api_call && candidate.cause == IdleCause::blocking_copy) {
    const auto copy = copy_of_call.find(candidate.row);
    if (copy != copy_of_call.end()) blocker.detail = copy_detail(model.memcpys, copy->second);
  }
  return blocker;
}

void add_instance(HostBlocker& kind, HostBlocker instance, std::int32_t device, std::int64_t idle) {
  const auto length = instance.end_ns - instance.start_ns;
  if (kind.count == 0) {
    kind = std::move(instance);
    kind.device = device;
    kind.shortest_ns = kind.longest_ns = length;
  } else if (length > kind.longest_ns) {
    kind.start_ns = instance.start_ns, kind.end_ns = instance.end_ns, kind.longest_ns = length;
  }
  kind.shortest_ns = std::min(kind.shortest_ns, length);
  ++kind.count;
  kind.idle_ns += idle;
}

}  // namespace

std::vector<HostBlocker> find_host_blockers(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                            const HostCauses& host, const std::vector<analysis::DeviceActivity>& activity) {
  auto found = candidates(model);
  std::unordered_map<std::size_t, std::size_t> copy_of_call;
  add_pageable_copies(model, correlations, found, copy_of_call);
  std::map<std::tuple<std::int32_t, IdleCause, std::string, std::string>, HostBlocker> kinds;
  for (const auto& device : activity) {
    if (device.empty()) continue;
    const auto& threads = host.device(device.device).threads;
    for (const auto& candidate : found) {
      const bool issuing = candidate.thread == trace::kUnknown ||
                           std::binary_search(threads.begin(), threads.end(), candidate.thread);
      if (!issuing || candidate.end <= candidate.start) continue;
      // Idle time under the call, bounded by the device's activity span: before its first work and after its
      // last, the device is not waiting for this host.
      const auto start = std::max(candidate.start, device.first_start());
      const auto end = std::min(candidate.end, device.last_end());
      if (end <= start) continue;
      const auto idle = (end - start) - analysis::length_within(device.busy, start, end);
      if (idle <= 0) continue;
      auto instance = describe(model, candidate, copy_of_call);
      auto& kind = kinds[{device.device, instance.cause, instance.call, instance.detail}];
      add_instance(kind, std::move(instance), device.device, idle);
    }
  }
  std::vector<HostBlocker> result;
  for (auto& [key, kind] : kinds) result.push_back(std::move(kind));
  std::stable_sort(result.begin(), result.end(), [](const HostBlocker& a, const HostBlocker& b) { return a.idle_ns > b.idle_ns; });
  if (result.size() > kHostBlockers) result.resize(kHostBlockers);
  return result;
}

}  // namespace gpuprof::idle
