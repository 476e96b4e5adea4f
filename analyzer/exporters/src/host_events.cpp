#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

using trace::SyncType;

constexpr std::string_view kCpuOpDomain = "cpu_op";

// Kineto's cuda_sync names; the importer finds the type in them by keyword
// (Wait, Event, Stream, Context, Device), so the words matter.
std::string_view sync_name(SyncType type) {
  switch (type) {
    case SyncType::event: return "Event Sync";
    case SyncType::stream_wait_event: return "Stream Wait Event";
    case SyncType::stream: return "Stream Sync";
    case SyncType::context: return "Context Sync";
    case SyncType::device: return "Device Sync";
    case SyncType::unknown: break;
  }
  return "Unknown Sync";
}

void write_api_calls(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& calls = model.api_calls;
  for (std::size_t row = 0; row < calls.size(); ++row) {
    const char* category = calls.kind[row] == trace::ApiKind::driver ? "cuda_driver" : "cuda_runtime";
    writer.begin_complete(category, model.string(calls.name[row]),
                          layout.host_track(calls.process_id[row], calls.thread_id[row]),
                          calls.start_ns[row], calls.end_ns[row]);
    writer.correlation_arg(calls.correlation_id[row]);
    writer.number_arg("return code", calls.return_code[row]);
    writer.end_with_args();
  }
}

void write_syncs(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& syncs = model.syncs;
  for (std::size_t row = 0; row < syncs.size(); ++row) {
    const std::string_view name = sync_name(syncs.type[row]);
    writer.begin_complete("cuda_sync", name,
                          layout.host_track(syncs.process_id[row], syncs.thread_id[row]),
                          syncs.start_ns[row], syncs.end_ns[row]);
    writer.string_arg("cuda_sync_kind", name);
    writer.number_arg("device", layout.device_number(syncs.device[row]));
    writer.number_arg("stream", syncs.stream[row]);
    writer.number_arg("event", syncs.event[row]);
    writer.correlation_arg(syncs.correlation_id[row]);
    writer.end_with_args();
  }
}

void write_host_ranges(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& ranges = model.ranges;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0) continue;
    const std::string_view domain =
        ranges.domain[row] == trace::kNoString ? std::string_view() : model.string(ranges.domain[row]);
    // Kineto's operators (imported under the domain cpu_op) go back as cpu_op, which viewers and HTA
    // treat as operators; every other range is a user annotation.
    const bool op = domain == kCpuOpDomain;
    writer.begin_complete(op ? kCpuOpDomain : "user_annotation", model.string(ranges.name[row]),
                          layout.host_track(ranges.process_id[row], ranges.thread_id[row]),
                          ranges.start_ns[row], ranges.end_ns[row]);
    writer.correlation_arg(ranges.correlation_id[row]);
    // The Kineto importer files every annotation under its own domain; these are for the viewer.
    if (ranges.domain[row] != trace::kNoString && !op) writer.string_arg("domain", domain);
    writer.number_arg("category", ranges.category[row]);
    writer.end_with_args();
  }
}

}  // namespace

void write_host_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  write_api_calls(model, layout, writer);
  write_syncs(model, layout, writer);
  write_host_ranges(model, layout, writer);
}

}  // namespace gpuprof::exporters
