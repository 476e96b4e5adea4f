#include <string>

#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

using trace::CopyKind;
using trace::MemoryKind;

// The capitalised words Kineto puts in copy names: "(Pinned -> Device)".
std::string_view memory_word(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::pageable: return "Pageable";
    case MemoryKind::pinned: return "Pinned";
    case MemoryKind::device: return "Device";
    case MemoryKind::managed: return "Managed";
    case MemoryKind::array: return "Array";
    case MemoryKind::unknown: break;
  }
  return "Unknown";
}

std::string copy_name(const trace::MemcpyTable& copies, std::size_t row) {
  return "Memcpy " + std::string(trace::to_string(copies.copy_kind[row])) + " (" +
         std::string(memory_word(copies.src_memory_kind[row])) + " -> " +
         std::string(memory_word(copies.dst_memory_kind[row])) + ")";
}

void gpu_args(const trace::GpuColumns& table, std::size_t row, const ChromeTraceLayout& layout,
              EventWriter& writer) {
  writer.number_arg("device", layout.device_number(table.device[row]));
  writer.number_arg("context", table.context[row]);
  writer.number_arg("stream", table.stream[row]);
  writer.correlation_arg(table.correlation_id[row]);
}

void dim3_arg(const char* name, const std::vector<trace::Dim3>& column, std::size_t row, EventWriter& writer) {
  if (row >= column.size() || column[row] == trace::Dim3{0, 0, 0}) return;
  writer.key(name);
  writer.json().StartArray();
  writer.json().Int(column[row].x);
  writer.json().Int(column[row].y);
  writer.json().Int(column[row].z);
  writer.json().EndArray();
}

void launch_args(const trace::KernelTable& kernels, std::size_t row, EventWriter& writer) {
  if (row < kernels.registers_per_thread.size()) {
    writer.number_arg("registers per thread", kernels.registers_per_thread[row]);
    const auto static_bytes = kernels.static_shared_bytes[row];
    const auto dynamic_bytes = kernels.dynamic_shared_bytes[row];
    // Kineto reports one "shared memory" figure: static plus dynamic.
    if (static_bytes != trace::kUnknown32 && dynamic_bytes != trace::kUnknown32) {
      writer.number_arg("shared memory", std::int64_t{static_bytes} + dynamic_bytes);
    }
  }
  dim3_arg("grid", kernels.grid, row, writer);
  dim3_arg("block", kernels.block, row, writer);
}

void write_kernels(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& kernels = model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    writer.begin_complete("kernel", model.string(kernels.name[row]),
                          layout.device_track(kernels.device[row], kernels.stream[row]), kernels.start_ns[row],
                          kernels.end_ns[row]);
    gpu_args(kernels, row, layout, writer);
    launch_args(kernels, row, writer);
    writer.end_with_args();
  }
}

void write_memcpys(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& copies = model.memcpys;
  for (std::size_t row = 0; row < copies.size(); ++row) {
    writer.begin_complete("gpu_memcpy", copy_name(copies, row),
                          layout.device_track(copies.device[row], copies.stream[row]), copies.start_ns[row],
                          copies.end_ns[row]);
    gpu_args(copies, row, layout, writer);
    writer.string_arg("kind", trace::to_string(copies.copy_kind[row]));
    writer.number_arg("bytes", copies.bytes[row]);
    writer.number_arg("fromDevice", layout.device_number(copies.src_device[row]));
    writer.number_arg("toDevice", layout.device_number(copies.dst_device[row]));
    writer.end_with_args();
  }
}

void write_memsets(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& memsets = model.memsets;
  for (std::size_t row = 0; row < memsets.size(); ++row) {
    writer.begin_complete("gpu_memset", "Memset (Device)",
                          layout.device_track(memsets.device[row], memsets.stream[row]), memsets.start_ns[row],
                          memsets.end_ns[row]);
    gpu_args(memsets, row, layout, writer);
    writer.number_arg("bytes", memsets.bytes[row]);
    writer.end_with_args();
  }
}

void write_gpu_ranges(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  const auto& ranges = model.ranges;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] == 0) continue;
    writer.begin_complete("gpu_user_annotation", model.string(ranges.name[row]),
                          layout.device_track(ranges.device[row], ranges.stream[row]), ranges.start_ns[row],
                          ranges.end_ns[row]);
    writer.number_arg("device", layout.device_number(ranges.device[row]));
    writer.number_arg("stream", ranges.stream[row]);
    writer.correlation_arg(ranges.correlation_id[row]);
    if (ranges.domain[row] != trace::kNoString) writer.string_arg("domain", model.string(ranges.domain[row]));
    writer.number_arg("category", ranges.category[row]);
    writer.end_with_args();
  }
}

}  // namespace

void write_gpu_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer) {
  write_kernels(model, layout, writer);
  write_memcpys(model, layout, writer);
  write_memsets(model, layout, writer);
  write_gpu_ranges(model, layout, writer);
}

}  // namespace gpuprof::exporters
