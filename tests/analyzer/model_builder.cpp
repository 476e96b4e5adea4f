#include "model_builder.hpp"

#include <algorithm>

#include "gpuprof/trace/trace_sorting.hpp"

namespace gpuprof::testing {
namespace {

void add_gpu(trace::GpuColumns& table, std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end,
             std::int64_t correlation) {
  table.device.push_back(device);
  table.context.push_back(1);
  table.stream.push_back(stream);
  table.start_ns.push_back(start);
  table.end_ns.push_back(end);
  table.correlation_id.push_back(correlation);
}

void add_host(trace::HostColumns& table, std::int64_t thread, std::int64_t start, std::int64_t end) {
  table.process_id.push_back(1);
  table.thread_id.push_back(thread);
  table.start_ns.push_back(start);
  table.end_ns.push_back(end);
}

}  // namespace

ModelBuilder::ModelBuilder() { model_.path = "fixture.sqlite"; }

trace::StringId ModelBuilder::intern(std::string_view text) {
  const auto found = std::find(model_.strings.begin(), model_.strings.end(), text);
  if (found != model_.strings.end()) return static_cast<trace::StringId>(found - model_.strings.begin());
  model_.strings.emplace_back(text);
  return static_cast<trace::StringId>(model_.strings.size() - 1);
}

ModelBuilder& ModelBuilder::kernel(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end,
                                   std::string_view name, std::int64_t correlation) {
  auto& table = model_.kernels;
  add_gpu(table, device, stream, start, end, correlation);
  table.name.push_back(intern(name));
  table.grid.push_back({1, 1, 1});
  table.block.push_back({128, 1, 1});
  table.registers_per_thread.push_back(32);
  table.static_shared_bytes.push_back(0);
  table.dynamic_shared_bytes.push_back(0);
  table.graph_node_id.push_back(trace::kUnknown);
  return *this;
}

ModelBuilder& ModelBuilder::memcpy(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end,
                                   trace::CopyKind kind, std::int64_t bytes, std::int32_t src_device,
                                   std::int32_t dst_device, trace::MemoryKind src_memory, std::int64_t correlation) {
  auto& table = model_.memcpys;
  add_gpu(table, device, stream, start, end, correlation);
  table.copy_kind.push_back(kind);
  table.src_memory_kind.push_back(src_memory);
  table.dst_memory_kind.push_back(trace::MemoryKind::device);
  table.src_device.push_back(src_device);
  table.dst_device.push_back(dst_device);
  table.bytes.push_back(bytes);
  return *this;
}

ModelBuilder& ModelBuilder::collective(std::int32_t device, std::int64_t correlation, std::string_view name,
                                       std::int64_t in_bytes, std::int64_t out_bytes, std::int64_t group_size) {
  auto& table = model_.collectives;
  table.device.push_back(device);
  table.correlation_id.push_back(correlation);
  table.name.push_back(intern(name));
  // Elements of 4 bytes, as float tensors have.
  table.in_elements.push_back(in_bytes == trace::kUnknown ? trace::kUnknown : in_bytes / 4);
  table.out_elements.push_back(out_bytes == trace::kUnknown ? trace::kUnknown : out_bytes / 4);
  table.in_bytes.push_back(in_bytes);
  table.out_bytes.push_back(out_bytes);
  table.group_size.push_back(group_size);
  table.dtype.push_back(intern("Float"));
  for (auto* column : {&table.process_group, &table.group_description, &table.group_ranks}) {
    column->push_back(trace::kNoString);
  }
  return *this;
}

ModelBuilder& ModelBuilder::memset(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end) {
  add_gpu(model_.memsets, device, stream, start, end, trace::kUnknown);
  model_.memsets.bytes.push_back(1024);
  return *this;
}

ModelBuilder& ModelBuilder::api_call(std::int64_t thread, std::int64_t start, std::int64_t end,
                                     std::int64_t correlation, std::string_view name) {
  auto& table = model_.api_calls;
  add_host(table, thread, start, end);
  table.correlation_id.push_back(correlation);
  table.return_code.push_back(0);
  table.name.push_back(intern(name));
  table.kind.push_back(trace::ApiKind::runtime);
  return *this;
}

ModelBuilder& ModelBuilder::sync(std::int64_t thread, std::int64_t start, std::int64_t end) {
  auto& table = model_.syncs;
  add_host(table, thread, start, end);
  table.type.push_back(trace::SyncType::stream);
  table.device.push_back(0);
  table.stream.push_back(7);
  table.event.push_back(trace::kUnknown);
  table.correlation_id.push_back(trace::kUnknown);
  return *this;
}

ModelBuilder& ModelBuilder::range(std::int64_t thread, std::int64_t start, std::int64_t end, std::string_view name) {
  auto& table = model_.ranges;
  add_host(table, thread, start, end);
  table.name.push_back(intern(name));
  table.domain.push_back(trace::kNoString);
  table.category.push_back(trace::kUnknown);
  table.on_gpu.push_back(0);
  table.device.push_back(trace::kUnknown32);
  table.stream.push_back(trace::kUnknown);
  table.correlation_id.push_back(trace::kUnknown);
  return *this;
}

ModelBuilder& ModelBuilder::gpu_range(std::int32_t device, std::int64_t start, std::int64_t end,
                                      std::string_view name) {
  range(trace::kUnknown, start, end, name);
  model_.ranges.on_gpu.back() = 1;
  model_.ranges.device.back() = device;
  return *this;
}

ModelBuilder& ModelBuilder::meta(const std::string& key, const std::string& value) {
  model_.meta[key] = value;
  return *this;
}

ModelBuilder& ModelBuilder::memory_event(std::int32_t device, std::int64_t time, trace::MemoryOperation operation,
                                         std::int64_t bytes, std::int64_t allocated_after, trace::MemoryKind kind) {
  auto& t = model_.memory_events;
  model_.memory_events_table = true;
  t.device.push_back(device), t.context.push_back(trace::kUnknown), t.stream.push_back(trace::kUnknown);
  t.time_ns.push_back(time), t.correlation_id.push_back(trace::kUnknown), t.operation.push_back(operation);
  t.memory_kind.push_back(kind), t.address.push_back(trace::kUnknown), t.bytes.push_back(bytes);
  t.allocated_after.push_back(allocated_after);
  return *this;
}

trace::TraceModel ModelBuilder::build() {
  trace::TraceModel model = model_;
  model.kernel_streams = trace::sort_by_device_stream_start(model.kernels);
  model.memcpy_streams = trace::sort_by_device_stream_start(model.memcpys);
  model.memset_streams = trace::sort_by_device_stream_start(model.memsets);
  trace::sort_by_start(model.api_calls);
  trace::sort_by_start(model.syncs);
  trace::sort_by_start(model.ranges);
  trace::sort_by_device_time(model.memory_events);
  return model;
}

}  // namespace gpuprof::testing
