#pragma once

// Binds one row of each table to a statement's parameters, starting at
// parameter `first`, so the same code fills single-row and multi-row INSERTs
// and the column chunks (ChunkRowSink). Column order is that of trace.sql.

#include <string_view>

#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

template <typename Row>
struct TableOf;
template <>
struct TableOf<DeviceRow> { static constexpr std::string_view name = "devices"; static constexpr int columns = 10; };
template <>
struct TableOf<DeviceLinkRow> { static constexpr std::string_view name = "device_links"; static constexpr int columns = 5; };
template <>
struct TableOf<KernelRow> { static constexpr std::string_view name = "kernels"; static constexpr int columns = 18; };
template <>
struct TableOf<MemcpyRow> { static constexpr std::string_view name = "memcpys"; static constexpr int columns = 12; };
template <>
struct TableOf<MemoryEventRow> {
  static constexpr std::string_view name = "memory_events";
  static constexpr int columns = 10;
};
template <>
struct TableOf<ThreadStateRow> {
  static constexpr std::string_view name = "thread_states";
  static constexpr int columns = 8;
};
template <>
struct TableOf<MemsetRow> { static constexpr std::string_view name = "memsets"; static constexpr int columns = 7; };
template <>
struct TableOf<ApiCallRow> { static constexpr std::string_view name = "api_calls"; static constexpr int columns = 8; };
template <>
struct TableOf<SyncRow> { static constexpr std::string_view name = "syncs"; static constexpr int columns = 9; };
template <>
struct TableOf<RangeRow> { static constexpr std::string_view name = "ranges"; static constexpr int columns = 11; };
template <>
struct TableOf<CollectiveRow> { static constexpr std::string_view name = "collectives"; static constexpr int columns = 12; };

void bind_row(sqlite::Statement& statement, int first, const DeviceRow& row);
void bind_row(sqlite::Statement& statement, int first, const DeviceLinkRow& row);
void bind_row(sqlite::Statement& statement, int first, const CollectiveRow& row);
void bind_row(sqlite::Statement& statement, int first, const MemoryEventRow& row);
void bind_row(sqlite::Statement& statement, int first, const ThreadStateRow& row);
// The event tables hold integers only, so they also bind to a ChunkRowSink
// (instantiated for it and for sqlite::Statement).
template <typename Sink>
void bind_row(Sink& sink, int first, const KernelRow& row);
template <typename Sink>
void bind_row(Sink& sink, int first, const MemcpyRow& row);
template <typename Sink>
void bind_row(Sink& sink, int first, const MemsetRow& row);
template <typename Sink>
void bind_row(Sink& sink, int first, const ApiCallRow& row);
template <typename Sink>
void bind_row(Sink& sink, int first, const SyncRow& row);
template <typename Sink>
void bind_row(Sink& sink, int first, const RangeRow& row);

}  // namespace gpuprof::trace
