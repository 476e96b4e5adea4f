#include "kineto_memory.hpp"

#include <limits>
#include <string>

#include "kineto_args.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

// c10::DeviceType codes the allocator writes as "Device Type". ROCm builds of
// PyTorch report HIP memory as CUDA (1) too.
constexpr std::int64_t kCpu = 0;
constexpr std::int64_t kCuda = 1;

void count_bad(ImportSink& sink, const char* what) {
  sink.count({StatId::import_kineto_memory_bad_event, what}, trace::Severity::warning, 1,
             "[memory] events left out: the field is missing or out of range");
}

// A signed JSON number: number_in() would read the string "-16" as 16.
std::optional<std::int64_t> signed_arg(const KinetoEvent& event, std::string_view key) {
  const KinetoArg* arg = event.arg(key);
  if (arg == nullptr || !arg->value.present || arg->value.is_string) return std::nullopt;
  return integer_from_text(arg->value.text);
}

}  // namespace

void add_memory_event(const KinetoEvent& event, std::int64_t time_ns, ImportSink& sink) {
  const auto device_type = arg_number(event, "Device Type");
  if (!device_type) return count_bad(sink, "device_type");
  if (*device_type == kCpu) {
    sink.count(StatId::import_kineto_memory_host_events, trace::Severity::info, 1,
               "[memory] events of the host (CPU) allocator, not stored: the memory_events table holds GPU memory");
    return;
  }
  if (*device_type != kCuda) {
    sink.count({StatId::import_kineto_memory_other_device_type, std::to_string(*device_type)},
               trace::Severity::warning, 1,
               "[memory] events of a device type that is neither CPU nor CUDA, not stored");
    return;
  }
  const auto device = arg_number(event, "Device Id");
  if (!device || *device < 0 || *device > std::numeric_limits<std::int32_t>::max()) {
    return count_bad(sink, "device_id");
  }
  const auto bytes = signed_arg(event, "Bytes");
  // A size of 0 is neither an allocation nor a free; the most negative int64 has no size.
  if (!bytes || *bytes == 0 || *bytes == std::numeric_limits<std::int64_t>::min()) return count_bad(sink, "bytes");
  trace::MemoryEventRow row;
  row.device = static_cast<std::int32_t>(*device);
  row.time_ns = time_ns;
  row.operation = *bytes > 0 ? trace::MemoryOperation::alloc : trace::MemoryOperation::free;
  row.bytes = *bytes > 0 ? *bytes : -*bytes;
  // The caching allocator hands out device memory.
  row.memory_kind = trace::MemoryKind::device;
  row.address = arg_number(event, "Addr");
  row.allocated_after = signed_arg(event, "Total Allocated");
  if (row.allocated_after && *row.allocated_after < 0) {
    sink.count(StatId::import_kineto_memory_bad_total, trace::Severity::warning, 1,
               "[memory] events with a negative \"Total Allocated\" (stored as unknown)");
    row.allocated_after.reset();
  }
  sink.add(row);
}

}  // namespace gpuprof::importers
