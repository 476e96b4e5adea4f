#include "gpuprof/collector/activity_translator.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "gpuprof/collector/cupti_kind_mapping.hpp"

namespace gpuprof::collector {

using trace::stat_name;
using trace::StatId;

namespace {

// Thread ids remembered for syncs are forgotten beyond this many calls; a sync
// record arrives next to its API record, never thousands of calls later.
constexpr std::size_t kMaxRememberedCalls = 1 << 16;
// CUPTI's activity kinds are small numbers; larger ones are counted under the last slot's name.
constexpr std::size_t kCountedKinds = 128;

std::int64_t as_signed(std::uint64_t value) { return static_cast<std::int64_t>(value); }

// The columns every GPU activity record has, in the same fields for kernels,
// copies and memsets.
template <typename Row, typename Record>
Row gpu_row(const Record& record) {
  Row row;
  row.device = static_cast<std::int32_t>(record.deviceId);
  row.context = record.contextId;
  row.stream = record.streamId;
  row.start_ns = as_signed(record.start);
  row.end_ns = as_signed(record.end);
  row.correlation_id = record.correlationId;
  return row;
}

std::optional<std::int64_t> present_if_nonzero(std::uint64_t value) {
  if (value == 0) return std::nullopt;
  return as_signed(value);
}

std::optional<std::int64_t> unless_invalid(std::uint32_t value) {
  if (value == CUPTI_SYNCHRONIZATION_INVALID_VALUE) return std::nullopt;
  return std::int64_t{value};
}

std::string format_uuid(const CUuuid& uuid) {
  char text[64];
  const auto* bytes = reinterpret_cast<const unsigned char*>(uuid.bytes);
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

template <typename Value>
void fill_missing(std::optional<Value>& target, const std::optional<Value>& source) {
  if (!target && source) target = source;
}

}  // namespace

ActivityTranslator::ActivityTranslator(trace::TraceWriter& writer, ApiNameResolver api_names)
    : writer_(writer),
      api_names_(std::move(api_names)),
      recent_callers_(kMaxRememberedCalls),
      records_by_kind_(kCountedKinds + 1, 0) {}

const ActivityTranslator::Caller* ActivityTranslator::caller_of(std::uint32_t correlation_id) const {
  const auto& slot = recent_callers_[correlation_id % kMaxRememberedCalls];
  return slot.correlation_id == correlation_id && correlation_id != 0 ? &slot : nullptr;
}

void ActivityTranslator::translate(const CUpti_Activity& record) {
  ++records_by_kind_[std::min<std::size_t>(static_cast<std::size_t>(record.kind), kCountedKinds)];
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return kernel(reinterpret_cast<const CUpti_ActivityKernel10&>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY: return memcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return peer_memcpy(reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record));
    case CUPTI_ACTIVITY_KIND_MEMSET: return memset(reinterpret_cast<const CUpti_ActivityMemset4&>(record));
    case CUPTI_ACTIVITY_KIND_MEMORY2: return memory(reinterpret_cast<const CUpti_ActivityMemory4&>(record));
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return api_call(reinterpret_cast<const CUpti_ActivityAPI&>(record), trace::ApiKind::runtime);
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return api_call(reinterpret_cast<const CUpti_ActivityAPI&>(record), trace::ApiKind::driver);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return synchronization(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record));
    case CUPTI_ACTIVITY_KIND_MARKER: return marker(reinterpret_cast<const CUpti_ActivityMarker2&>(record));
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
      return marker_data(reinterpret_cast<const CUpti_ActivityMarkerData2&>(record));
    case CUPTI_ACTIVITY_KIND_NAME: return name(reinterpret_cast<const CUpti_ActivityName&>(record));
    case CUPTI_ACTIVITY_KIND_DEVICE: return device(reinterpret_cast<const CUpti_ActivityDevice5&>(record));
    case CUPTI_ACTIVITY_KIND_OVERHEAD: return overhead(reinterpret_cast<const CUpti_ActivityOverhead3&>(record));
    default:
      problem(StatId::problem_unknown_record_kind,
              "CUPTI activity kind " + std::to_string(static_cast<int>(record.kind)));
  }
}

void ActivityTranslator::problem(trace::StatId id, const std::string& detail) {
  const auto name = trace::stat_name(id);
  ++counters_.problems[name];
  counters_.problem_details.try_emplace(name, detail);
}

// A record whose end precedes its start (or that has no start) cannot be placed
// on a timeline; it is counted and skipped rather than written with made-up times.
bool ActivityTranslator::check_interval(std::uint64_t start, std::uint64_t end, const char* kind) {
  if (start == 0 || end == 0) {
    problem(StatId::problem_missing_timestamp, std::string(kind) + " record without a start or end time");
    return false;
  }
  if (end < start) {
    problem(StatId::problem_end_before_start, std::string(kind) + " record ends before it starts");
    return false;
  }
  return true;
}

void ActivityTranslator::remember_context(std::uint32_t context, std::uint32_t device) {
  device_by_context_.try_emplace(context, static_cast<std::int32_t>(device));
}

void ActivityTranslator::kernel(const CUpti_ActivityKernel10& record) {
  if (record.graphId == 0) launches_.kernel_arrived(record.correlationId);
  if (!check_interval(record.start, record.end, "kernel")) return;
  remember_context(record.contextId, record.deviceId);
  auto row = gpu_row<trace::KernelRow>(record);
  if (record.name == nullptr) problem(StatId::problem_unnamed_kernel, "kernel record without a name");
  const auto name = writer_.intern_kernel_name(record.name != nullptr ? record.name : "(unnamed kernel)");
  row.name = name.name;
  row.mangled_name = name.mangled;
  row.grid = trace::Dim3{record.gridX, record.gridY, record.gridZ};
  row.block = trace::Dim3{record.blockX, record.blockY, record.blockZ};
  row.registers_per_thread = record.registersPerThread;
  row.static_shared_bytes = record.staticSharedMemory;
  row.dynamic_shared_bytes = record.dynamicSharedMemory;
  row.graph_node_id = present_if_nonzero(record.graphNodeId);
  writer_.add(row);
  ++counters_.rows;
}

void ActivityTranslator::memcpy(const CUpti_ActivityMemcpy6& record) {
  if (!check_interval(record.start, record.end, "memcpy")) return;
  remember_context(record.contextId, record.deviceId);
  auto row = gpu_row<trace::MemcpyRow>(record);
  row.copy_kind = to_copy_kind(record.copyKind);
  row.bytes = as_signed(record.bytes);
  row.src_memory_kind = to_memory_kind(record.srcKind);
  row.dst_memory_kind = to_memory_kind(record.dstKind);
  if (row.copy_kind == trace::CopyKind::peer_to_peer) {
    pending_peer_copies_.push_back({row, 0});
    return;
  }
  if (row.copy_kind == trace::CopyKind::unknown) {
    problem(StatId::problem_unknown_copy_kind, "memcpy copy kind " + std::to_string(record.copyKind));
  }
  // A plain memcpy record names one device: the device side of the copy.
  if (copies_from_device(record.copyKind)) row.src_device = row.device;
  if (copies_to_device(record.copyKind)) row.dst_device = row.device;
  writer_.add(row);
  ++counters_.rows;
}

void ActivityTranslator::peer_memcpy(const CUpti_ActivityMemcpyPtoP4& record) {
  if (!check_interval(record.start, record.end, "peer memcpy")) return;
  remember_context(record.contextId, record.deviceId);
  remember_context(record.srcContextId, record.srcDeviceId);
  remember_context(record.dstContextId, record.dstDeviceId);
  auto row = gpu_row<trace::MemcpyRow>(record);
  row.copy_kind = trace::CopyKind::peer_to_peer;
  row.src_memory_kind = to_memory_kind(record.srcKind);
  row.dst_memory_kind = to_memory_kind(record.dstKind);
  row.src_device = static_cast<std::int32_t>(record.srcDeviceId);
  row.dst_device = static_cast<std::int32_t>(record.dstDeviceId);
  row.bytes = as_signed(record.bytes);
  writer_.add(row);
  recent_peer_copies_[record.correlationId] = batch_number_;
  ++counters_.rows;
}

void ActivityTranslator::memset(const CUpti_ActivityMemset4& record) {
  if (!check_interval(record.start, record.end, "memset")) return;
  remember_context(record.contextId, record.deviceId);
  auto row = gpu_row<trace::MemsetRow>(record);
  row.bytes = as_signed(record.bytes);
  writer_.add(row);
  ++counters_.rows;
}

// An allocation or free (cudaMalloc, cudaFree, cudaMallocAsync, ...). Host
// memory (pinned, pageable) is written too, with its kind: the analysis keeps
// it out of the device's memory in use.
void ActivityTranslator::memory(const CUpti_ActivityMemory4& record) {
  std::optional<trace::MemoryOperation> operation;
  if (record.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION) {
    operation = trace::MemoryOperation::alloc;
  } else if (record.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) {
    operation = trace::MemoryOperation::free;
  }
  if (!operation) {
    return problem(StatId::problem_memory_unknown_operation,
                   "memory record of operation type " + std::to_string(static_cast<int>(record.memoryOperationType)));
  }
  if (record.timestamp == 0 || as_signed(record.timestamp) < 0) {
    return problem(StatId::problem_missing_timestamp, "memory record without a usable timestamp");
  }
  if (record.deviceId > static_cast<std::uint32_t>(INT32_MAX)) {
    return problem(StatId::problem_memory_without_device,
                   "memory record with device id " + std::to_string(record.deviceId));
  }
  if (as_signed(record.bytes) < 0) {
    return problem(StatId::problem_memory_size_out_of_range, "memory record of 2^63 bytes or more");
  }
  trace::MemoryEventRow row;
  row.device = static_cast<std::int32_t>(record.deviceId);
  if (record.contextId != CUPTI_INVALID_CONTEXT_ID) row.context = record.contextId;
  if (record.streamId != CUPTI_INVALID_STREAM_ID) row.stream = record.streamId;
  row.time_ns = as_signed(record.timestamp);
  if (record.correlationId != 0) row.correlation_id = record.correlationId;
  row.operation = *operation;
  const auto kind = static_cast<std::uint32_t>(record.memoryKind);
  if (kind <= 0xFF) row.memory_kind = to_memory_kind(static_cast<std::uint8_t>(kind));
  row.address = present_if_nonzero(record.address);
  row.bytes = as_signed(record.bytes);
  writer_.add(row);
  ++counters_.rows;
}

void ActivityTranslator::api_call(const CUpti_ActivityAPI& record, trace::ApiKind kind) {
  launches_.api_returned(kind, record.cbid, record.correlationId, record.returnValue == 0);
  if (LaunchAccounting::is_kernel_launch(kind, record.cbid)) ++launches_recorded_;
  if (!check_interval(record.start, record.end, "API call")) return;
  const auto key = (std::uint64_t{static_cast<std::uint8_t>(kind)} << 32) | record.cbid;
  auto cached = api_name_ids_.find(key);
  if (cached == api_name_ids_.end()) {
    std::string text = api_names_ ? api_names_(kind, record.cbid) : std::string();
    if (text.empty()) text = std::string(trace::to_string(kind)) + "_api_" + std::to_string(record.cbid);
    cached = api_name_ids_.emplace(key, writer_.intern(text)).first;
  }
  trace::ApiCallRow row;
  row.process_id = record.processId;
  row.thread_id = record.threadId;
  row.start_ns = as_signed(record.start);
  row.end_ns = as_signed(record.end);
  row.correlation_id = record.correlationId;
  row.name = cached->second;
  row.kind = kind;
  row.return_code = record.returnValue;
  writer_.add(row);
  ++counters_.rows;
  recent_callers_[record.correlationId % kMaxRememberedCalls] = {
      record.correlationId, record.cbid, std::int64_t{record.processId}, std::int64_t{record.threadId}, kind};
}

void ActivityTranslator::synchronization(const CUpti_ActivitySynchronization2& record) {
  if (!check_interval(record.start, record.end, "synchronization")) return;
  trace::SyncRow row;
  row.start_ns = as_signed(record.start);
  row.end_ns = as_signed(record.end);
  row.type = to_sync_type(record.type);
  if (row.type == trace::SyncType::unknown) {
    problem(StatId::problem_unknown_sync_type, "synchronization type " + std::to_string(static_cast<int>(record.type)));
  }
  row.stream = unless_invalid(record.streamId);
  row.event = unless_invalid(record.cudaEventId);
  row.correlation_id = record.correlationId;
  // The device (from the context) and the calling thread are looked up at the end
  // of the batch, when the records of the same buffer have been seen.
  pending_syncs_.push_back({row, record.contextId});
}

void ActivityTranslator::marker(const CUpti_ActivityMarker2& record) {
  const auto flags = static_cast<unsigned>(record.flags);
  PairedRange range;
  if (record.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || record.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
    range.process_id = record.objectId.pt.processId;
    if (record.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) range.thread_id = record.objectId.pt.threadId;
  } else if (record.objectKind == CUPTI_ACTIVITY_OBJECT_STREAM || record.objectKind == CUPTI_ACTIVITY_OBJECT_DEVICE) {
    range.device = static_cast<std::int32_t>(record.objectId.dcs.deviceId);
    if (record.objectKind == CUPTI_ACTIVITY_OBJECT_STREAM) range.stream = record.objectId.dcs.streamId;
  }
  range.start_ns = as_signed(record.timestamp);
  if (record.name != nullptr) range.name = record.name;
  if (record.domain != nullptr) range.domain = std::string(record.domain);
  if (record.timestamp == 0) {
    problem(StatId::problem_missing_timestamp, "NVTX marker record without a time");
    return;
  }
  if (flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
    if (record.name == nullptr) range.name = "(unnamed range)";
    ranges_.start(record.id, std::move(range));
  } else if (flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
    auto closed = ranges_.end(record.id, as_signed(record.timestamp));
    if (!closed) {
      problem(StatId::problem_range_end_without_start, "NVTX range end with id " + std::to_string(record.id));
    } else if (closed->end_ns < closed->start_ns) {
      problem(StatId::problem_end_before_start, "NVTX range ends before it starts");
    }
  } else if (flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
    if (record.name == nullptr) range.name = "(unnamed mark)";
    ranges_.instant(record.id, std::move(range));
  } else {
    problem(StatId::problem_unknown_marker_flags, "NVTX marker flags " + std::to_string(flags));
  }
}

void ActivityTranslator::marker_data(const CUpti_ActivityMarkerData2& record) {
  // NVTX category 0 means "no category".
  if (record.category != 0) ranges_.set_category(record.id, record.category);
}

void ActivityTranslator::name(const CUpti_ActivityName& record) {
  if (record.name == nullptr) {
    problem(StatId::problem_name_record_without_name, "NAME record without a name");
    return;
  }
  const auto& id = record.objectId;
  std::string key;
  switch (record.objectKind) {
    case CUPTI_ACTIVITY_OBJECT_PROCESS: key = "process_name." + std::to_string(id.pt.processId); break;
    case CUPTI_ACTIVITY_OBJECT_THREAD:
      key = "thread_name." + std::to_string(id.pt.processId) + "." + std::to_string(id.pt.threadId);
      break;
    case CUPTI_ACTIVITY_OBJECT_DEVICE: key = "device_name." + std::to_string(id.dcs.deviceId); break;
    case CUPTI_ACTIVITY_OBJECT_CONTEXT:
      key = "context_name." + std::to_string(id.dcs.deviceId) + "." + std::to_string(id.dcs.contextId);
      break;
    case CUPTI_ACTIVITY_OBJECT_STREAM:
      key = "stream_name." + std::to_string(id.dcs.deviceId) + "." + std::to_string(id.dcs.streamId);
      break;
    default:
      problem(StatId::problem_name_record_unknown_object,
              "NAME record for object kind " + std::to_string(static_cast<int>(record.objectKind)));
      return;
  }
  writer_.set_meta(key, record.name);
}

void ActivityTranslator::device(const CUpti_ActivityDevice5& record) {
  trace::DeviceRow row;
  row.id = static_cast<std::int32_t>(record.id);
  if (record.name != nullptr) row.name = std::string(record.name);
  row.uuid = format_uuid(record.uuid);
  row.compute_major = static_cast<std::int32_t>(record.computeCapabilityMajor);
  row.compute_minor = static_cast<std::int32_t>(record.computeCapabilityMinor);
  row.sm_count = static_cast<std::int32_t>(record.numMultiprocessors);
  row.memory_bytes = as_signed(record.globalMemorySize);
  // CUPTI reports the bandwidth in kilobytes per second.
  if (record.globalMemoryBandwidth != 0) row.memory_bandwidth_bps = as_signed(record.globalMemoryBandwidth) * 1000;
  merge_device(row);
}

void ActivityTranslator::merge_device(const trace::DeviceRow& device) {
  auto [position, inserted] = devices_.try_emplace(device.id, device);
  trace::DeviceRow& known = position->second;
  if (!inserted) {
    fill_missing(known.name, device.name);
    fill_missing(known.uuid, device.uuid);
    fill_missing(known.pci_bus_id, device.pci_bus_id);
    fill_missing(known.compute_major, device.compute_major);
    fill_missing(known.compute_minor, device.compute_minor);
    fill_missing(known.sm_count, device.sm_count);
    fill_missing(known.memory_bytes, device.memory_bytes);
    fill_missing(known.memory_bandwidth_bps, device.memory_bandwidth_bps);
    fill_missing(known.host_link_bandwidth_bps, device.host_link_bandwidth_bps);
  }
  writer_.add(known);  // the devices table replaces the earlier row of the same id
}

void ActivityTranslator::overhead(const CUpti_ActivityOverhead3& record) {
  if (!check_interval(record.start, record.end, "overhead")) return;
  counters_.overhead_ns += as_signed(record.end - record.start);
  ++counters_.overhead_records;
}

void ActivityTranslator::write_pending_syncs() {
  for (auto& [row, context] : pending_syncs_) {
    if (const auto* caller = caller_of(static_cast<std::uint32_t>(*row.correlation_id))) {
      if (is_sync_query(caller->kind, caller->callback_id)) {
        ++counters_.sync_queries_left_out;
        continue;
      }
      row.process_id = caller->process_id;
      row.thread_id = caller->thread_id;
    }
    if (auto device = device_by_context_.find(context); device != device_by_context_.end()) {
      row.device = device->second;
    }
    writer_.add(row);
    ++counters_.rows;
  }
  pending_syncs_.clear();
}

void ActivityTranslator::write_completed_ranges() {
  for (const auto& range : ranges_.take_completed()) {
    if (range.end_ns < range.start_ns) continue;  // counted when it closed
    trace::RangeRow row;
    row.process_id = range.process_id;
    row.thread_id = range.thread_id;
    row.start_ns = range.start_ns;
    row.end_ns = range.end_ns;
    row.name = writer_.intern(range.name);
    if (range.domain) row.domain = writer_.intern(*range.domain);
    row.category = range.category;
    row.device = range.device;
    row.stream = range.stream;
    writer_.add(row);
    ++counters_.rows;
  }
}

// A plain record whose peer record came is the same copy reported twice; one
// whose peer record never comes is written with the one device it names.
void ActivityTranslator::write_pending_peer_copies(bool final) {
  std::vector<PendingPeerCopy> still_waiting;
  for (auto& pending : pending_peer_copies_) {
    const auto correlation = static_cast<std::uint32_t>(pending.row.correlation_id.value_or(0));
    if (recent_peer_copies_.count(correlation) != 0) {
      ++counters_.peer_copies_reported_twice;
      continue;
    }
    if (!final && pending.batches_waited++ < 1) {
      still_waiting.push_back(pending);
      continue;
    }
    problem(StatId::problem_peer_copy_without_devices,
            "a peer-to-peer copy came only as a plain memcpy record, which names neither its source nor its "
            "destination device");
    writer_.add(pending.row);
    ++counters_.rows;
  }
  pending_peer_copies_ = std::move(still_waiting);
  // Peer records older than two batches can have no plain twin still waiting.
  std::erase_if(recent_peer_copies_, [&](const auto& entry) { return entry.second + 2 < batch_number_; });
}

void ActivityTranslator::end_batch() {
  write_completed_ranges();
  write_pending_syncs();
  write_pending_peer_copies(false);
  ++batch_number_;
}

void ActivityTranslator::finish() {
  end_batch();
  write_pending_peer_copies(true);
  const auto unclosed = static_cast<std::int64_t>(ranges_.open_count() + ranges_.replaced_count());
  if (unclosed > 0) {
    const auto name = stat_name(StatId::problem_unclosed_ranges);
    counters_.problems[name] = unclosed;
    counters_.problem_details.try_emplace(name, "NVTX ranges started but never ended");
  }
  write_counters();
  write_kernels_lost_at_exit();
}

// Only meaningful once every buffer is in: mid-run, kernels in flight are normal.
void ActivityTranslator::write_kernels_lost_at_exit() {
  const auto missing = launches_.kernels_missing();
  if (!missing) {
    writer_.set_stat(
        {stat_name(StatId::in_flight_at_exit_unchecked), 0, trace::Severity::info, launches_.why_unchecked()});
    return;
  }
  if (*missing == 0) {
    writer_.set_stat({stat_name(StatId::in_flight_at_exit), 0, trace::Severity::info, std::nullopt});
    return;
  }
  writer_.set_stat({stat_name(StatId::in_flight_at_exit), *missing, trace::Severity::warning,
                    "kernels launched without a kernel record: the program exited with GPU work in flight, "
                    "which CUPTI's final flush does not wait for"});
}

void ActivityTranslator::write_counters() {
  // Kinds that share a name (kernel and concurrent kernel) add up.
  counters_.records_per_kind.clear();
  for (std::size_t kind = 0; kind < records_by_kind_.size(); ++kind) {
    if (records_by_kind_[kind] == 0) continue;
    counters_.records_per_kind[activity_kind_name(static_cast<CUpti_ActivityKind>(kind))] += records_by_kind_[kind];
  }
  for (const auto& [kind, count] : counters_.records_per_kind) {
    writer_.set_stat({stat_name(StatId::records_per_kind, kind), count, trace::Severity::info, std::nullopt});
  }
  for (const auto& [name, count] : counters_.problems) {
    writer_.set_stat({name, count, trace::Severity::warning, counters_.problem_details[name]});
  }
  if (counters_.sync_queries_left_out > 0) {
    writer_.set_stat({stat_name(StatId::sync_queries_left_out), counters_.sync_queries_left_out, trace::Severity::info,
                      "event and stream queries CUPTI reported as synchronization; a query is not a wait"});
  }
  if (counters_.peer_copies_reported_twice > 0) {
    writer_.set_stat({stat_name(StatId::peer_copies_reported_twice), counters_.peer_copies_reported_twice,
                      trace::Severity::info,
                      "peer copies CUPTI reported as a peer and as a plain memcpy record; written once"});
  }
  if (counters_.overhead_records > 0) {
    writer_.set_stat({stat_name(StatId::cupti_overhead_ns), counters_.overhead_ns, trace::Severity::info,
                      std::to_string(counters_.overhead_records) + " overhead records"});
  }
}

}  // namespace gpuprof::collector
