#pragma once

// Nsight Systems and nvprof exports both store CUPTI activity records as
// tables with the same column names. Each importer SELECTs these columns in
// the order below and decodes rows here; only names, memory-kind numbering and
// optional columns differ between them.

#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/trace/records.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {

// Columns 0-5 of every GPU activity SELECT.
inline constexpr const char* kGpuActivityColumns = "start, end, deviceId, contextId, streamId, correlationId";

// SELECT list for kernels: GPU columns, then `name_column` (6), launch
// dimensions and resources (7-15), then `graph_column` (16; "NULL" if absent),
// then `second_name_column` (17; a second spelling of the name where the source has one).
std::string kernel_select(const std::string& name_column, const std::string& graph_column,
                          const std::string& table, const std::string& second_name_column = "NULL");
// SELECT list for copies: GPU columns, bytes, copyKind, srcKind, dstKind (6-9),
// and the peer devices (10-11; "NULL, NULL" where the table has none).
std::string memcpy_select(const std::string& peer_columns, const std::string& table);
std::string memset_select(const std::string& table);

// Decodes a kernel row except its name (column 6), which each importer resolves.
trace::KernelRow kernel_from_row(const ForeignRow& row);

using MemoryKindDecoder = std::optional<trace::MemoryKind> (*)(std::int64_t code);
// Which rows take their source and destination devices from columns 10-11;
// the others derive them from the copy kind and the device that ran the copy.
enum class PeerDeviceColumns { none, peer_copies, every_row };
trace::MemcpyRow memcpy_from_row(const ForeignRow& row, MemoryKindDecoder memory_kind, PeerDeviceColumns peer_devices);
trace::MemsetRow memset_from_row(const ForeignRow& row);

// True when columns 0 and 1 (start, end) are both present, positive and in
// order. nvprof writes 0 for a timestamp it did not collect; such a row taken
// as real stretches the trace back to 1970.
bool has_valid_times(const ForeignRow& row);
// has_valid_times, counting a row without them under `stat` (a warning): such rows are left out.
bool keep_valid_times(const ForeignRow& row, ImportSink& sink, StatId stat);

}  // namespace gpuprof::importers
