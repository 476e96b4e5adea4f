#include "nsys_memory.hpp"

#include <limits>
#include <string>

#include "cuda_enums.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

constexpr const char* kColumns[] = {"start", "deviceId", "contextId", "correlationId", "memoryOperationType",
                                    "memKind", "address", "bytes"};
// ENUM_CUDA_DEV_MEM_EVENT_OPER.
constexpr std::int64_t kAllocation = 0;
constexpr std::int64_t kDeallocation = 1;
// ENUM_CUDA_MEM_KIND's "Unknown".
constexpr std::int64_t kUnknownKind = 7;

bool has_every_column(sqlite::Database& database) {
  for (const char* column : kColumns) {
    if (!has_column(database, kNsysMemoryTable, column)) return false;
  }
  return true;
}

void count_bad(ImportSink& sink, const char* column) {
  sink.count({StatId::import_nsys_memory_bad_row, column}, Severity::warning, 1,
             "CUDA_GPU_MEMORY_USAGE_EVENTS rows left out: the column is NULL or out of range");
}

// The row's problem column, or nullptr when every column read is usable.
const char* broken_column(const ForeignRow& row) {
  if (row.is_null(0) || row.integer(0) < 0) return "start";
  if (row.is_null(1) || row.integer(1) < 0 || row.integer(1) > std::numeric_limits<std::int32_t>::max()) {
    return "deviceId";
  }
  if (row.is_null(4) || (row.integer(4) != kAllocation && row.integer(4) != kDeallocation)) {
    return "memoryOperationType";
  }
  if (row.is_null(7) || row.integer(7) < 0) return "bytes";
  return nullptr;
}

trace::MemoryEventRow memory_event_from_row(const ForeignRow& row, ImportSink& sink) {
  trace::MemoryEventRow event;
  event.time_ns = row.integer(0);
  event.device = static_cast<std::int32_t>(row.integer(1));
  event.context = row.optional(2);
  // CUPTI numbers correlations from 1; the export writes 0 where it has none.
  event.correlation_id = row.optional(3);
  if (event.correlation_id == 0) event.correlation_id.reset();
  event.operation = row.integer(4) == kAllocation ? trace::MemoryOperation::alloc : trace::MemoryOperation::free;
  if (const auto kind = row.optional(5)) {
    event.memory_kind = memory_kind_from_nsys(*kind);
    if (!event.memory_kind && *kind != kUnknownKind) {
      sink.count(StatId::import_nsys_memory_unknown_kind, Severity::warning, 1,
                 "CUDA_GPU_MEMORY_USAGE_EVENTS rows with a memKind outside ENUM_CUDA_MEM_KIND (stored as unknown)");
    }
  }
  event.address = row.optional(6);
  event.bytes = row.integer(7);
  return event;
}

}  // namespace

void read_nsys_memory_events(sqlite::Database& database, ImportSink& sink) {
  if (!has_every_column(database)) {
    sink.count(StatId::import_nsys_memory_table_unreadable, Severity::warning, 1,
               "CUDA_GPU_MEMORY_USAGE_EVENTS lacks a column gpuprof reads; no memory event imported");
    return;
  }
  std::string select;
  for (const char* column : kColumns) select += (select.empty() ? "" : ", ") + std::string(column);
  sqlite::Statement query(database, "SELECT " + select + " FROM " + kNsysMemoryTable);
  ForeignRow row;
  while (query.step()) {
    row.fetch(query.raw());
    if (const char* column = broken_column(row)) {
      count_bad(sink, column);
      continue;
    }
    sink.add(memory_event_from_row(row, sink));
  }
}

}  // namespace gpuprof::importers
