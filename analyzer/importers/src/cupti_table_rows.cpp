#include "cupti_table_rows.hpp"

#include "cuda_enums.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

template <typename Row>
void read_gpu_columns(const ForeignRow& row, Row& out) {
  out.start_ns = row.integer(0);
  out.end_ns = row.integer(1);
  out.device = static_cast<std::int32_t>(row.integer(2));
  out.context = row.optional(3);
  out.stream = row.optional(4);
  out.correlation_id = row.optional(5);
}

trace::Dim3 dim3_at(const ForeignRow& row, int first) {
  return {static_cast<std::int32_t>(row.integer(first)), static_cast<std::int32_t>(row.integer(first + 1)),
          static_cast<std::int32_t>(row.integer(first + 2))};
}

std::optional<trace::MemoryKind> decode_optional(const ForeignRow& row, int column, MemoryKindDecoder decode) {
  const auto code = row.optional(column);
  return code ? decode(*code) : std::nullopt;
}

}  // namespace

std::string kernel_select(const std::string& name_column, const std::string& graph_column,
                          const std::string& table, const std::string& second_name_column) {
  return std::string("SELECT ") + kGpuActivityColumns + ", " + name_column +
         ", gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
         "dynamicSharedMemory, " + graph_column + ", " + second_name_column + " FROM " + table;
}

std::string memcpy_select(const std::string& peer_columns, const std::string& table) {
  return std::string("SELECT ") + kGpuActivityColumns + ", bytes, copyKind, srcKind, dstKind, " + peer_columns +
         " FROM " + table;
}

std::string memset_select(const std::string& table) {
  return std::string("SELECT ") + kGpuActivityColumns + ", bytes FROM " + table;
}

trace::KernelRow kernel_from_row(const ForeignRow& row) {
  trace::KernelRow kernel;
  read_gpu_columns(row, kernel);
  kernel.grid = dim3_at(row, 7);
  kernel.block = dim3_at(row, 10);
  kernel.registers_per_thread = row.optional32(13);
  kernel.static_shared_bytes = row.optional32(14);
  kernel.dynamic_shared_bytes = row.optional32(15);
  kernel.graph_node_id = row.optional(16);
  return kernel;
}

trace::MemcpyRow memcpy_from_row(const ForeignRow& row, MemoryKindDecoder memory_kind, PeerDeviceColumns peer_devices) {
  trace::MemcpyRow copy;
  read_gpu_columns(row, copy);
  copy.bytes = row.optional(6);
  copy.copy_kind = copy_kind_from_cupti(row.integer(7));
  copy.src_memory_kind = decode_optional(row, 8, memory_kind);
  copy.dst_memory_kind = decode_optional(row, 9, memory_kind);
  const bool devices_from_columns =
      peer_devices == PeerDeviceColumns::every_row ||
      (peer_devices == PeerDeviceColumns::peer_copies && copy.copy_kind == trace::CopyKind::peer_to_peer);
  if (devices_from_columns) {
    copy.src_device = row.optional32(10);
    copy.dst_device = row.optional32(11);
  } else {
    const CopyEnds ends = copy_ends(copy.copy_kind);
    if (ends.source_on_device) copy.src_device = copy.device;
    if (ends.destination_on_device) copy.dst_device = copy.device;
  }
  return copy;
}

trace::MemsetRow memset_from_row(const ForeignRow& row) {
  trace::MemsetRow memset;
  read_gpu_columns(row, memset);
  memset.bytes = row.optional(6);
  return memset;
}

bool has_valid_times(const ForeignRow& row) {
  if (row.is_null(0) || row.is_null(1)) return false;
  const std::int64_t start = row.integer(0);
  const std::int64_t end = row.integer(1);
  return start > 0 && end >= start;
}

bool keep_valid_times(const ForeignRow& row, ImportSink& sink, StatId stat) {
  if (has_valid_times(row)) return true;
  sink.count(stat, trace::Severity::warning, 1,
             "rows whose start or end is 0 or missing, or whose end precedes the start");
  return false;
}

}  // namespace gpuprof::importers
