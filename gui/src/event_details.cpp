#include "gpuprof/gui/event_details.hpp"

#include <cstdio>

#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

using trace::kUnknown;

std::string text_or_unknown(std::int64_t value) { return value == kUnknown ? "?" : std::to_string(value); }

std::string copy_name(const trace::MemcpyTable& copies, std::size_t row) {
  return "memcpy " + std::string(trace::to_string(copies.copy_kind[row]));
}

void add_gpu_fields(const trace::GpuColumns& table, std::size_t row, std::vector<Field>& fields) {
  fields.emplace_back("Device", "GPU " + std::to_string(table.device[row]));
  fields.emplace_back("Stream", text_or_unknown(table.stream[row]));
}

void add_copy_fields(const trace::MemcpyTable& copies, std::size_t row, std::vector<Field>& fields) {
  const std::int64_t bytes = copies.bytes[row];
  fields.emplace_back("Bytes", units::format_bytes(bytes));
  const double gbps = units::gigabytes_per_second(bytes, copies.end_ns[row] - copies.start_ns[row]);
  char bandwidth[32];
  std::snprintf(bandwidth, sizeof bandwidth, "%.2f GB/s", gbps);
  fields.emplace_back("Bandwidth", bandwidth);
  auto device_text = [](std::int32_t device) {
    return device == trace::kUnknown32 ? std::string("host") : "GPU " + std::to_string(device);
  };
  fields.emplace_back("From", device_text(copies.src_device[row]) + " (" +
                                  std::string(trace::to_string(copies.src_memory_kind[row])) + ")");
  fields.emplace_back("To", device_text(copies.dst_device[row]) + " (" +
                                std::string(trace::to_string(copies.dst_memory_kind[row])) + ")");
}

void add_kernel_fields(const LoadedRank& rank, std::size_t row, std::vector<Field>& fields) {
  const auto& kernels = rank.model.kernels;
  if (row < kernels.grid.size() && row < kernels.block.size()) {
    const auto& grid = kernels.grid[row];
    const auto& block = kernels.block[row];
    fields.emplace_back("Grid", std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z));
    fields.emplace_back("Block",
                        std::to_string(block.x) + "x" + std::to_string(block.y) + "x" + std::to_string(block.z));
  } else if (rank.launch_details_pending) {
    fields.emplace_back("Grid, block", "being read");
  } else if (!rank.launch_details_problem.empty()) {
    fields.emplace_back("Grid, block", "not read: " + rank.launch_details_problem);
  }
}

}  // namespace

std::string event_name(const LoadedRank& rank, const EventRef& ref) {
  const auto& model = rank.model;
  switch (ref.kind) {
    case LaneKind::kernels: return std::string(model.string(model.kernels.name[ref.row]));
    case LaneKind::memcpys: return copy_name(model.memcpys, ref.row);
    case LaneKind::memsets: return "memset";
    case LaneKind::api_calls: return std::string(model.string(model.api_calls.name[ref.row]));
    case LaneKind::ranges: return std::string(model.string(model.ranges.name[ref.row]));
  }
  return {};
}

EventSpan event_span(const LoadedRank& rank, const EventRef& ref) {
  const auto& model = rank.model;
  switch (ref.kind) {
    case LaneKind::kernels: return {model.kernels.start_ns[ref.row], model.kernels.end_ns[ref.row]};
    case LaneKind::memcpys: return {model.memcpys.start_ns[ref.row], model.memcpys.end_ns[ref.row]};
    case LaneKind::memsets: return {model.memsets.start_ns[ref.row], model.memsets.end_ns[ref.row]};
    case LaneKind::api_calls: return {model.api_calls.start_ns[ref.row], model.api_calls.end_ns[ref.row]};
    case LaneKind::ranges: return {model.ranges.start_ns[ref.row], model.ranges.end_ns[ref.row]};
  }
  return {};
}

std::int64_t event_correlation(const LoadedRank& rank, const EventRef& ref) {
  const auto& model = rank.model;
  switch (ref.kind) {
    case LaneKind::kernels: return model.kernels.correlation_id[ref.row];
    case LaneKind::memcpys: return model.memcpys.correlation_id[ref.row];
    case LaneKind::memsets: return model.memsets.correlation_id[ref.row];
    case LaneKind::api_calls: return model.api_calls.correlation_id[ref.row];
    case LaneKind::ranges: return model.ranges.correlation_id[ref.row];
  }
  return kUnknown;
}

std::optional<EventRef> launching_call(const LoadedRank& rank, const EventRef& ref) {
  if (ref.kind == LaneKind::api_calls || ref.kind == LaneKind::ranges || !rank.correlations) return std::nullopt;
  const std::int64_t correlation = event_correlation(rank, ref);
  if (correlation == kUnknown) return std::nullopt;
  const std::uint32_t api = rank.correlations->api_row(correlation);
  if (api == analysis::CorrelationIndex::kNone) return std::nullopt;
  return EventRef{ref.rank, LaneKind::api_calls, api};
}

std::vector<Field> event_fields(const LoadedRank& rank, const EventRef& ref) {
  const auto& model = rank.model;
  const auto span = event_span(rank, ref);
  std::vector<Field> fields{{"Name", event_name(rank, ref)},
                            {"Duration", units::format_duration(span.end_ns - span.start_ns)},
                            {"Rank", std::to_string(rank.analysis.rank)}};
  switch (ref.kind) {
    case LaneKind::kernels:
      add_gpu_fields(model.kernels, ref.row, fields);
      add_kernel_fields(rank, ref.row, fields);
      break;
    case LaneKind::memcpys:
      add_gpu_fields(model.memcpys, ref.row, fields);
      add_copy_fields(model.memcpys, ref.row, fields);
      break;
    case LaneKind::memsets:
      add_gpu_fields(model.memsets, ref.row, fields);
      fields.emplace_back("Bytes", units::format_bytes(model.memsets.bytes[ref.row]));
      break;
    case LaneKind::api_calls:
      fields.emplace_back("Thread", text_or_unknown(model.api_calls.thread_id[ref.row]));
      break;
    case LaneKind::ranges:
      fields.emplace_back("Thread", text_or_unknown(model.ranges.thread_id[ref.row]));
      break;
  }
  const std::int64_t correlation = event_correlation(rank, ref);
  if (correlation != kUnknown) fields.emplace_back("Correlation", std::to_string(correlation));
  if (const auto call = launching_call(rank, ref)) {
    const auto call_span = event_span(rank, *call);
    fields.emplace_back("Launched by", event_name(rank, *call) + " on thread " +
                                           text_or_unknown(model.api_calls.thread_id[call->row]) + ", " +
                                           units::format_duration(span.start_ns - call_span.start_ns) +
                                           " before it started");
  }
  return fields;
}

std::string describe_event(const LoadedRank& rank, const EventRef& ref) {
  std::string text;
  for (const auto& [label, value] : event_fields(rank, ref)) {
    if (!text.empty()) text += '\n';
    text += label + ": " + value;
  }
  return text;
}

}  // namespace gpuprof::gui
