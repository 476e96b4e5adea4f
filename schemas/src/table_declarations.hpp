#pragma once

// Every trace table with a record type, declared once: its columns in schema
// order (name, SQL type, the record member, the rule a loaded value keeps).
// The CREATE TABLE text in every new file, the INSERT statements, the binding
// and the row rules come from here (table_columns.hpp); README.md, "Adding a
// table", says what else a new table needs.

#include <array>
#include <cstddef>
#include <limits>
#include <string_view>

#include "gpuprof/trace/records.hpp"
#include "table_columns.hpp"

namespace gpuprof::trace {

template <typename... A, typename... B>
RowTypes<A..., B...> join(RowTypes<A...>, RowTypes<B...>);

// Every declared table: the ones TraceWriter writes (records.hpp), then the
// derived ones `report --save` writes (derived_tables.hpp).
using DeclaredRows = decltype(join(WrittenRows{}, RowTypes<StepRow, GapRow>{}));

namespace sql {
inline constexpr std::string_view kInteger = "INTEGER";
inline constexpr std::string_view kNotNull = "INTEGER NOT NULL";
inline constexpr std::string_view kText = "TEXT";
inline constexpr std::string_view kName = "INTEGER NOT NULL REFERENCES strings(id)";
inline constexpr std::string_view kNameOrNull = "INTEGER REFERENCES strings(id)";
}  // namespace sql

template <typename T, std::size_t N, std::size_t M>
constexpr std::array<T, N + M> concat(const std::array<T, N>& first, const std::array<T, M>& second) {
  std::array<T, N + M> all{};
  for (std::size_t i = 0; i < N; ++i) all[i] = first[i];
  for (std::size_t i = 0; i < M; ++i) all[N + i] = second[i];
  return all;
}

template <typename E>
constexpr std::int64_t code(E value) {
  return static_cast<std::int64_t>(value);
}

// The six leading columns of kernels, memcpys and memsets.
template <typename Row>
constexpr std::array<Column<Row>, 6> gpu_columns() {
  return {{
      {"device", sql::kNotNull, field<&Row::device>, Rule::device},
      {"context", sql::kInteger, field<&Row::context>, Rule::integer_or_null},
      {"stream", sql::kInteger, field<&Row::stream>, Rule::integer_or_null},
      {"start_ns", sql::kNotNull, field<&Row::start_ns>, Rule::time},
      {"end_ns", sql::kNotNull, field<&Row::end_ns>, Rule::end_time},
      {"correlation_id", sql::kInteger, field<&Row::correlation_id>, Rule::integer_or_null},
  }};
}

// The four leading columns of api_calls, syncs and ranges.
template <typename Row>
constexpr std::array<Column<Row>, 4> host_columns() {
  return {{
      {"process_id", sql::kInteger, field<&Row::process_id>, Rule::integer_or_null},
      {"thread_id", sql::kInteger, field<&Row::thread_id>, Rule::integer_or_null},
      {"start_ns", sql::kNotNull, field<&Row::start_ns>, Rule::time},
      {"end_ns", sql::kNotNull, field<&Row::end_ns>, Rule::end_time},
  }};
}

// TraceFile::devices() checks the id itself; the other columns are taken as stored.
template <>
struct TableDeclaration<DeviceRow> {
  using R = DeviceRow;
  static constexpr std::string_view name = "devices";
  static constexpr std::array<Column<R>, 10> columns = {{
      {"id", "INTEGER PRIMARY KEY", field<&R::id>, Rule::device},
      {"name", sql::kText, field<&R::name>, {}},
      {"uuid", sql::kText, field<&R::uuid>, {}},
      {"pci_bus_id", sql::kText, field<&R::pci_bus_id>, {}},
      {"compute_major", sql::kInteger, field<&R::compute_major>, {}},
      {"compute_minor", sql::kInteger, field<&R::compute_minor>, {}},
      {"sm_count", sql::kInteger, field<&R::sm_count>, {}},
      {"memory_bytes", sql::kInteger, field<&R::memory_bytes>, {}},
      {"memory_bandwidth_bps", sql::kInteger, field<&R::memory_bandwidth_bps>, {}},
      {"host_link_bandwidth_bps", sql::kInteger, field<&R::host_link_bandwidth_bps>, {}},
  }};
  static constexpr TableOptions options{.replace = true, .counted = false, .loaded_with = LoadedWith::trace_file};
};

// TraceFile::device_links() checks both devices itself.
template <>
struct TableDeclaration<DeviceLinkRow> {
  using R = DeviceLinkRow;
  static constexpr std::string_view name = "device_links";
  static constexpr std::array<Column<R>, 5> columns = {{
      {"src_device", sql::kNotNull, field<&R::src_device>, Rule::device},
      {"dst_device", sql::kNotNull, field<&R::dst_device>, Rule::device},
      {"peer_access", sql::kInteger, field<&R::peer_access>, {}},
      {"link_kind", sql::kText, field<&R::link_kind>, {}},
      {"performance_rank", sql::kInteger, field<&R::performance_rank>, {}},
  }};
  static constexpr TableOptions options{
      .after_columns = "PRIMARY KEY (src_device, dst_device)", .without_rowid = true, .replace = true, .counted = false,
      .loaded_with = LoadedWith::trace_file};
};

template <>
struct TableDeclaration<KernelRow> {
  using R = KernelRow;
  static constexpr std::string_view name = "kernels";
  static constexpr auto columns = concat(gpu_columns<R>(), std::array<Column<R>, 12>{{
      {"name_id", sql::kName, field<&R::name>, Rule::string_id},
      {"grid_x", sql::kInteger, axis<&R::grid, 0>, Rule::int32_or_null},
      {"grid_y", sql::kInteger, axis<&R::grid, 1>, Rule::int32_or_null},
      {"grid_z", sql::kInteger, axis<&R::grid, 2>, Rule::int32_or_null},
      {"block_x", sql::kInteger, axis<&R::block, 0>, Rule::int32_or_null},
      {"block_y", sql::kInteger, axis<&R::block, 1>, Rule::int32_or_null},
      {"block_z", sql::kInteger, axis<&R::block, 2>, Rule::int32_or_null},
      {"registers_per_thread", sql::kInteger, field<&R::registers_per_thread>, Rule::int32_or_null},
      {"static_shared_bytes", sql::kInteger, field<&R::static_shared_bytes>, Rule::int32_or_null},
      {"dynamic_shared_bytes", sql::kInteger, field<&R::dynamic_shared_bytes>, Rule::int32_or_null},
      {"graph_node_id", sql::kInteger, field<&R::graph_node_id>, Rule::integer_or_null},
      {"mangled_name_id", sql::kNameOrNull, field<&R::mangled_name>, Rule::string_id_or_null, 0, 0,
       "since 1.1; name_id holds the demangled name", 1},
  }});
  static constexpr TableOptions options{.chunked = true};
  // The columns up to name_id: what the loader reads when launch details are not wanted.
  static constexpr std::size_t summary_columns = 7;
};

template <>
struct TableDeclaration<MemcpyRow> {
  using R = MemcpyRow;
  static constexpr std::string_view name = "memcpys";
  static constexpr auto columns = concat(gpu_columns<R>(), std::array<Column<R>, 6>{{
      {"copy_kind", "INTEGER NOT NULL REFERENCES copy_kinds(id)", field<&R::copy_kind>, Rule::enum_value, 0,
       code(CopyKind::peer_to_peer)},
      {"src_memory_kind", "INTEGER REFERENCES memory_kinds(id)", field<&R::src_memory_kind>, Rule::enum_or_null, 0,
       code(MemoryKind::array)},
      {"dst_memory_kind", "INTEGER REFERENCES memory_kinds(id)", field<&R::dst_memory_kind>, Rule::enum_or_null, 0,
       code(MemoryKind::array)},
      {"src_device", sql::kInteger, field<&R::src_device>, Rule::device_or_null},
      {"dst_device", sql::kInteger, field<&R::dst_device>, Rule::device_or_null},
      {"bytes", sql::kInteger, field<&R::bytes>, Rule::count_or_null},
  }});
  static constexpr TableOptions options{.chunked = true};
};

template <>
struct TableDeclaration<MemsetRow> {
  using R = MemsetRow;
  static constexpr std::string_view name = "memsets";
  static constexpr auto columns = concat(gpu_columns<R>(), std::array<Column<R>, 1>{{
      {"bytes", sql::kInteger, field<&R::bytes>, Rule::count_or_null},
  }});
  static constexpr TableOptions options{.chunked = true};
};

template <>
struct TableDeclaration<ApiCallRow> {
  using R = ApiCallRow;
  static constexpr std::string_view name = "api_calls";
  static constexpr auto columns = concat(host_columns<R>(), std::array<Column<R>, 4>{{
      {"correlation_id", sql::kInteger, field<&R::correlation_id>, Rule::integer_or_null},
      {"name_id", sql::kName, field<&R::name>, Rule::string_id},
      {"kind", "INTEGER NOT NULL REFERENCES api_kinds(id)", field<&R::kind>, Rule::enum_value,
       code(ApiKind::runtime), code(ApiKind::driver)},
      {"return_code", sql::kInteger, field<&R::return_code>, Rule::integer_or_null},
  }});
  static constexpr TableOptions options{.chunked = true, .loaded_with = LoadedWith::api_calls};
};

template <>
struct TableDeclaration<SyncRow> {
  using R = SyncRow;
  static constexpr std::string_view name = "syncs";
  static constexpr auto columns = concat(host_columns<R>(), std::array<Column<R>, 5>{{
      {"sync_type", "INTEGER NOT NULL REFERENCES sync_types(id)", field<&R::type>, Rule::enum_value, 0,
       code(SyncType::device)},
      {"device", sql::kInteger, field<&R::device>, Rule::device_or_null},
      {"stream", sql::kInteger, field<&R::stream>, Rule::integer_or_null},
      {"event", sql::kInteger, field<&R::event>, Rule::integer_or_null},
      {"correlation_id", sql::kInteger, field<&R::correlation_id>, Rule::integer_or_null},
  }});
  static constexpr TableOptions options{.chunked = true, .loaded_with = LoadedWith::syncs};
};

template <>
struct TableDeclaration<RangeRow> {
  using R = RangeRow;
  static constexpr std::string_view name = "ranges";
  static constexpr auto columns = concat(host_columns<R>(), std::array<Column<R>, 7>{{
      {"name_id", sql::kName, field<&R::name>, Rule::string_id},
      {"domain_id", sql::kNameOrNull, field<&R::domain>, Rule::string_id_or_null},
      {"category", sql::kInteger, field<&R::category>, Rule::integer_or_null},
      {"on_gpu", "INTEGER NOT NULL DEFAULT 0", field<&R::on_gpu>, Rule::enum_value, 0, 1},
      {"device", sql::kInteger, field<&R::device>, Rule::device_or_null},
      {"stream", sql::kInteger, field<&R::stream>, Rule::integer_or_null},
      {"correlation_id", sql::kInteger, field<&R::correlation_id>, Rule::integer_or_null},
  }});
  static constexpr TableOptions options{.chunked = true, .loaded_with = LoadedWith::ranges};
};

// A group of 0 would divide the bus bandwidth factor (n-1)/n by zero.
template <>
struct TableDeclaration<CollectiveRow> {
  using R = CollectiveRow;
  static constexpr std::string_view name = "collectives";
  static constexpr std::array<Column<R>, 12> columns = {{
      {"device", sql::kNotNull, field<&R::device>, Rule::device},
      {"correlation_id", sql::kNotNull, field<&R::correlation_id>, Rule::integer},
      {"name_id", sql::kName, field<&R::name>, Rule::string_id},
      {"in_elements", sql::kInteger, field<&R::in_elements>, Rule::count_or_null},
      {"out_elements", sql::kInteger, field<&R::out_elements>, Rule::count_or_null},
      {"in_bytes", sql::kInteger, field<&R::in_bytes>, Rule::count_or_null},
      {"out_bytes", sql::kInteger, field<&R::out_bytes>, Rule::count_or_null},
      {"dtype_id", sql::kNameOrNull, field<&R::dtype>, Rule::string_id_or_null},
      {"group_size", sql::kInteger, field<&R::group_size>, Rule::positive_or_null},
      {"process_group_id", sql::kNameOrNull, field<&R::process_group>, Rule::string_id_or_null},
      {"group_desc_id", sql::kNameOrNull, field<&R::group_description>, Rule::string_id_or_null},
      {"group_ranks_id", sql::kNameOrNull, field<&R::group_ranks>, Rule::string_id_or_null},
  }};
  static constexpr TableOptions options{.name_width = 18, .since_minor = 2};  // the width as 1.2 spelled it
};

// Sizes are never negative: the operation says which way they count.
template <>
struct TableDeclaration<MemoryEventRow> {
  using R = MemoryEventRow;
  static constexpr std::string_view name = "memory_events";
  static constexpr std::array<Column<R>, 10> columns = {{
      {"device", sql::kNotNull, field<&R::device>, Rule::device},
      {"context", sql::kInteger, field<&R::context>, Rule::integer_or_null},
      {"stream", sql::kInteger, field<&R::stream>, Rule::integer_or_null},
      {"time_ns", sql::kNotNull, field<&R::time_ns>, Rule::time},
      {"correlation_id", sql::kInteger, field<&R::correlation_id>, Rule::integer_or_null},
      {"operation", "INTEGER NOT NULL REFERENCES memory_operations(id)", field<&R::operation>, Rule::enum_value,
       code(MemoryOperation::alloc), code(MemoryOperation::free)},
      {"memory_kind", "INTEGER REFERENCES memory_kinds(id)", field<&R::memory_kind>, Rule::enum_or_null, 0,
       code(MemoryKind::array)},
      {"address", sql::kInteger, field<&R::address>, Rule::integer_or_null},
      {"bytes", sql::kNotNull, field<&R::bytes>, Rule::count},
      {"allocated_after", sql::kInteger, field<&R::allocated_after>, Rule::count_or_null},
  }};
  static constexpr TableOptions options{.since_minor = 3};
};

// A stretch of a thread's state names its thread: without one it describes nothing.
template <>
struct TableDeclaration<ThreadStateRow> {
  using R = ThreadStateRow;
  static constexpr std::string_view name = "thread_states";
  static constexpr std::array<Column<R>, 8> columns = {{
      {"process_id", sql::kInteger, field<&R::process_id>, Rule::integer_or_null},
      {"thread_id", sql::kNotNull, field<&R::thread_id>, Rule::integer},
      {"start_ns", sql::kNotNull, field<&R::start_ns>, Rule::time},
      {"end_ns", sql::kNotNull, field<&R::end_ns>, Rule::end_time},
      {"state", "INTEGER NOT NULL REFERENCES thread_state_kinds(id)", field<&R::state>, Rule::enum_value,
       code(ThreadRunState::running), code(ThreadRunState::not_running)},
      {"cpu", sql::kInteger, field<&R::cpu>, Rule::integer_or_null},
      {"os_state_id", sql::kNameOrNull, field<&R::os_state>, Rule::string_id_or_null},
      {"block_reason_id", sql::kNameOrNull, field<&R::block_reason>, Rule::string_id_or_null},
  }};
  static constexpr TableOptions options{.since_minor = 4, .loaded_with = LoadedWith::api_calls};
};

// Derived tables (written by `report --save`), read back by the exporter.
template <>
struct TableDeclaration<StepRow> {
  using R = StepRow;
  static constexpr std::string_view name = "steps";
  static constexpr std::array<Column<R>, 7> columns = {{
      {"rank", sql::kInteger, field<&R::rank>, Rule::int32_or_null},
      {"device", sql::kNotNull, field<&R::device>, Rule::device},
      {"step", sql::kNotNull, field<&R::step>, Rule::integer_or_null},
      {"start_ns", sql::kNotNull, field<&R::start_ns>, Rule::time},
      {"end_ns", sql::kNotNull, field<&R::end_ns>, Rule::end_time},
      {"busy_ns", sql::kNotNull, field<&R::busy_ns>, Rule::count_or_null},
      {"warmup", "INTEGER NOT NULL DEFAULT 0", field<&R::warmup>, Rule::enum_or_null, 0, 1},
  }};
  static constexpr TableOptions options{.loaded_with = LoadedWith::trace_file};
};

template <>
struct TableDeclaration<GapRow> {
  using R = GapRow;
  static constexpr std::string_view name = "gaps";
  static constexpr std::array<Column<R>, 6> columns = {{
      {"rank", sql::kInteger, field<&R::rank>, Rule::int32_or_null},
      {"device", sql::kNotNull, field<&R::device>, Rule::device},
      {"after_step", sql::kNotNull, field<&R::after_step>, Rule::integer_or_null},
      {"start_ns", sql::kNotNull, field<&R::start_ns>, Rule::time},
      {"end_ns", sql::kNotNull, field<&R::end_ns>, Rule::end_time},
      {"cause", "TEXT NOT NULL", field<&R::cause>, {}},
  }};
  static constexpr TableOptions options{.loaded_with = LoadedWith::trace_file};
};

template <typename Row>
constexpr bool declaration_holds() {
  using Table = TableDeclaration<Row>;
  // The column chunks hold integers and NULLs only.
  return !Table::options.chunked || integer_columns_only<Row>();
}
template <typename... Rows>
constexpr bool declarations_hold(RowTypes<Rows...>) {
  return (declaration_holds<Rows>() && ...);
}
static_assert(declarations_hold(DeclaredRows{}), "a chunked table declares a column that is not an integer");

// Calls `visit.template operator()<Row>()` for every declared table, in declaration order.
template <typename Visit, typename... Rows>
void for_each_table(RowTypes<Rows...>, Visit&& visit) {
  (visit.template operator()<Rows>(), ...);
}
template <typename Visit>
void for_each_table(Visit&& visit) {
  for_each_table(DeclaredRows{}, visit);
}

}  // namespace gpuprof::trace
