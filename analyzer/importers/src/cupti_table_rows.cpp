#include "cupti_table_rows.hpp"

#include "cuda_enums.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

template <typename Row>
void read_gpu_columns(sqlite3_stmt* row, Row& out) {
  out.start_ns = column_int(row, 0);
  out.end_ns = column_int(row, 1);
  out.device = static_cast<std::int32_t>(column_int(row, 2));
  out.context = column_optional(row, 3);
  out.stream = column_optional(row, 4);
  out.correlation_id = column_optional(row, 5);
}

trace::Dim3 dim3_at(sqlite3_stmt* row, int first) {
  return {static_cast<std::int32_t>(column_int(row, first)), static_cast<std::int32_t>(column_int(row, first + 1)),
          static_cast<std::int32_t>(column_int(row, first + 2))};
}

std::optional<trace::MemoryKind> decode_optional(sqlite3_stmt* row, int column, MemoryKindDecoder decode) {
  const auto code = column_optional(row, column);
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

trace::KernelRow kernel_from_row(sqlite3_stmt* row) {
  trace::KernelRow kernel;
  read_gpu_columns(row, kernel);
  kernel.grid = dim3_at(row, 7);
  kernel.block = dim3_at(row, 10);
  kernel.registers_per_thread = column_optional32(row, 13);
  kernel.static_shared_bytes = column_optional32(row, 14);
  kernel.dynamic_shared_bytes = column_optional32(row, 15);
  kernel.graph_node_id = column_optional(row, 16);
  return kernel;
}

trace::MemcpyRow memcpy_from_row(sqlite3_stmt* row, MemoryKindDecoder memory_kind, PeerDeviceColumns peer_devices) {
  trace::MemcpyRow copy;
  read_gpu_columns(row, copy);
  copy.bytes = column_optional(row, 6);
  copy.copy_kind = copy_kind_from_cupti(column_int(row, 7));
  copy.src_memory_kind = decode_optional(row, 8, memory_kind);
  copy.dst_memory_kind = decode_optional(row, 9, memory_kind);
  const bool devices_from_columns =
      peer_devices == PeerDeviceColumns::every_row ||
      (peer_devices == PeerDeviceColumns::peer_copies && copy.copy_kind == trace::CopyKind::peer_to_peer);
  if (devices_from_columns) {
    copy.src_device = column_optional32(row, 10);
    copy.dst_device = column_optional32(row, 11);
  } else {
    const CopyEnds ends = copy_ends(copy.copy_kind);
    if (ends.source_on_device) copy.src_device = copy.device;
    if (ends.destination_on_device) copy.dst_device = copy.device;
  }
  return copy;
}

trace::MemsetRow memset_from_row(sqlite3_stmt* row) {
  trace::MemsetRow memset;
  read_gpu_columns(row, memset);
  memset.bytes = column_optional(row, 6);
  return memset;
}

bool has_valid_times(sqlite3_stmt* row) {
  if (sqlite3_column_type(row, 0) == SQLITE_NULL || sqlite3_column_type(row, 1) == SQLITE_NULL) return false;
  const std::int64_t start = column_int(row, 0);
  const std::int64_t end = column_int(row, 1);
  return start > 0 && end >= start;
}

bool keep_valid_times(sqlite3_stmt* row, ImportSink& sink, std::string_view stat) {
  if (has_valid_times(row)) return true;
  sink.count(std::string(stat), trace::Severity::warning, 1,
             "rows whose start or end is 0 or missing, or whose end precedes the start");
  return false;
}

}  // namespace gpuprof::importers
