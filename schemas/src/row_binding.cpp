#include "row_binding.hpp"

#include "event_chunks.hpp"

namespace gpuprof::trace {
namespace {

template <typename Sink>
void bind_dim3(Sink& statement, int first, const std::optional<Dim3>& value) {
  if (value) {
    statement.bind(first, std::int64_t{value->x});
    statement.bind(first + 1, std::int64_t{value->y});
    statement.bind(first + 2, std::int64_t{value->z});
  } else {
    for (int i = 0; i < 3; ++i) statement.bind_null(first + i);
  }
}

template <typename Enum>
std::optional<std::int64_t> enum_code(const std::optional<Enum>& value) {
  if (!value) return std::nullopt;
  return static_cast<std::int64_t>(*value);
}

// The six leading columns of kernels, memcpys and memsets.
template <typename Sink, typename Row>
void bind_gpu_columns(Sink& s, int first, const Row& row) {
  s.bind(first, std::int64_t{row.device});
  s.bind(first + 1, row.context);
  s.bind(first + 2, row.stream);
  s.bind(first + 3, row.start_ns);
  s.bind(first + 4, row.end_ns);
  s.bind(first + 5, row.correlation_id);
}

}  // namespace

void bind_row(sqlite::Statement& s, int first, const DeviceRow& row) {
  s.bind(first, std::int64_t{row.id});
  s.bind(first + 1, row.name);
  s.bind(first + 2, row.uuid);
  s.bind(first + 3, row.pci_bus_id);
  s.bind(first + 4, row.compute_major);
  s.bind(first + 5, row.compute_minor);
  s.bind(first + 6, row.sm_count);
  s.bind(first + 7, row.memory_bytes);
  s.bind(first + 8, row.memory_bandwidth_bps);
  s.bind(first + 9, row.host_link_bandwidth_bps);
}

void bind_row(sqlite::Statement& s, int first, const DeviceLinkRow& row) {
  s.bind(first, std::int64_t{row.src_device});
  s.bind(first + 1, std::int64_t{row.dst_device});
  s.bind(first + 2, row.peer_access);
  s.bind(first + 3, row.link_kind);
  s.bind(first + 4, row.performance_rank);
}

template <typename Sink>
void bind_row(Sink& s, int first, const KernelRow& row) {
  bind_gpu_columns(s, first, row);
  s.bind(first + 6, std::int64_t{row.name});
  bind_dim3(s, first + 7, row.grid);
  bind_dim3(s, first + 10, row.block);
  s.bind(first + 13, row.registers_per_thread);
  s.bind(first + 14, row.static_shared_bytes);
  s.bind(first + 15, row.dynamic_shared_bytes);
  s.bind(first + 16, row.graph_node_id);
  s.bind(first + 17, row.mangled_name);
}

template <typename Sink>
void bind_row(Sink& s, int first, const MemcpyRow& row) {
  bind_gpu_columns(s, first, row);
  s.bind(first + 6, static_cast<std::int64_t>(row.copy_kind));
  s.bind(first + 7, enum_code(row.src_memory_kind));
  s.bind(first + 8, enum_code(row.dst_memory_kind));
  s.bind(first + 9, row.src_device);
  s.bind(first + 10, row.dst_device);
  s.bind(first + 11, row.bytes);
}

template <typename Sink>
void bind_row(Sink& s, int first, const MemsetRow& row) {
  bind_gpu_columns(s, first, row);
  s.bind(first + 6, row.bytes);
}

template <typename Sink>
void bind_row(Sink& s, int first, const ApiCallRow& row) {
  s.bind(first, row.process_id);
  s.bind(first + 1, row.thread_id);
  s.bind(first + 2, row.start_ns);
  s.bind(first + 3, row.end_ns);
  s.bind(first + 4, row.correlation_id);
  s.bind(first + 5, std::int64_t{row.name});
  s.bind(first + 6, static_cast<std::int64_t>(row.kind));
  s.bind(first + 7, row.return_code);
}

template <typename Sink>
void bind_row(Sink& s, int first, const SyncRow& row) {
  s.bind(first, row.process_id);
  s.bind(first + 1, row.thread_id);
  s.bind(first + 2, row.start_ns);
  s.bind(first + 3, row.end_ns);
  s.bind(first + 4, static_cast<std::int64_t>(row.type));
  s.bind(first + 5, row.device);
  s.bind(first + 6, row.stream);
  s.bind(first + 7, row.event);
  s.bind(first + 8, row.correlation_id);
}

template <typename Sink>
void bind_row(Sink& s, int first, const RangeRow& row) {
  s.bind(first, row.process_id);
  s.bind(first + 1, row.thread_id);
  s.bind(first + 2, row.start_ns);
  s.bind(first + 3, row.end_ns);
  s.bind(first + 4, std::int64_t{row.name});
  s.bind(first + 5, row.domain);
  s.bind(first + 6, row.category);
  s.bind(first + 7, std::int64_t{row.on_gpu ? 1 : 0});
  s.bind(first + 8, row.device);
  s.bind(first + 9, row.stream);
  s.bind(first + 10, row.correlation_id);
}

void bind_row(sqlite::Statement& s, int first, const CollectiveRow& row) {
  s.bind(first, std::int64_t{row.device});
  s.bind(first + 1, row.correlation_id);
  s.bind(first + 2, std::int64_t{row.name});
  s.bind(first + 3, row.in_elements);
  s.bind(first + 4, row.out_elements);
  s.bind(first + 5, row.in_bytes);
  s.bind(first + 6, row.out_bytes);
  s.bind(first + 7, row.dtype);
  s.bind(first + 8, row.group_size);
  s.bind(first + 9, row.process_group);
  s.bind(first + 10, row.group_description);
  s.bind(first + 11, row.group_ranks);
}

void bind_row(sqlite::Statement& s, int first, const MemoryEventRow& row) {
  s.bind(first, std::int64_t{row.device});
  s.bind(first + 1, row.context);
  s.bind(first + 2, row.stream);
  s.bind(first + 3, row.time_ns);
  s.bind(first + 4, row.correlation_id);
  s.bind(first + 5, static_cast<std::int64_t>(row.operation));
  s.bind(first + 6, enum_code(row.memory_kind));
  s.bind(first + 7, row.address);
  s.bind(first + 8, row.bytes);
  s.bind(first + 9, row.allocated_after);
}

void bind_row(sqlite::Statement& s, int first, const ThreadStateRow& row) {
  s.bind(first, row.process_id);
  s.bind(first + 1, row.thread_id);
  s.bind(first + 2, row.start_ns);
  s.bind(first + 3, row.end_ns);
  s.bind(first + 4, static_cast<std::int64_t>(row.state));
  s.bind(first + 5, row.cpu);
  s.bind(first + 6, row.os_state);
  s.bind(first + 7, row.block_reason);
}

template void bind_row(sqlite::Statement&, int, const KernelRow&);
template void bind_row(sqlite::Statement&, int, const MemcpyRow&);
template void bind_row(sqlite::Statement&, int, const MemsetRow&);
template void bind_row(sqlite::Statement&, int, const ApiCallRow&);
template void bind_row(sqlite::Statement&, int, const SyncRow&);
template void bind_row(sqlite::Statement&, int, const RangeRow&);
template void bind_row(ChunkRowSink&, int, const KernelRow&);
template void bind_row(ChunkRowSink&, int, const MemcpyRow&);
template void bind_row(ChunkRowSink&, int, const MemsetRow&);
template void bind_row(ChunkRowSink&, int, const ApiCallRow&);
template void bind_row(ChunkRowSink&, int, const SyncRow&);
template void bind_row(ChunkRowSink&, int, const RangeRow&);

}  // namespace gpuprof::trace
