#pragma once

// Where the loader stores each declared column of a table in the model
// (trace_model.hpp): one model column per declared column, in declaration
// order. How a value is stored follows from the column's declared rule and the
// model column's type, so a nullable column always becomes kUnknown, kUnknown32,
// kNoString or the enum's unknown code, never a made-up 0.
//
// Columns the model does not keep one for one are marked instead of a member:
// a GPU row's device and stream go to the stream grouping (StreamsOfRows), a
// grid or block is one Dim3 from three columns, and contexts and return codes
// are stored only when LoadOptions asks for them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_sorting.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {

// Specialised per table: `Table` (the model's) and `members`, a tuple of one
// pointer to a Table member (or one of the marks below) per declared column.
template <typename Row>
struct ModelColumns;

// The device of a GPU row: with the stream (column `stream`), its place in the stream grouping.
struct DeviceOfStream {
  int stream;
};
// The stream of a GPU row: stored with its device.
struct StreamOfDevice {};
// Axis `axis` of a Dim3 member (grid, block): the three axes, declared one after another, are stored at the first.
template <auto member, int axis>
struct DimAxis {};
// A member stored only when the load asks for it (LoadOptions::load_contexts_and_return_codes).
template <auto member>
struct Optional {};

template <>
struct ModelColumns<KernelRow> {
  using T = KernelTable;
  static constexpr std::tuple members{DeviceOfStream{2},
                                      Optional<&T::context>{},
                                      StreamOfDevice{},
                                      &T::start_ns,
                                      &T::end_ns,
                                      &T::correlation_id,
                                      &T::name,
                                      DimAxis<&T::grid, 0>{},
                                      DimAxis<&T::grid, 1>{},
                                      DimAxis<&T::grid, 2>{},
                                      DimAxis<&T::block, 0>{},
                                      DimAxis<&T::block, 1>{},
                                      DimAxis<&T::block, 2>{},
                                      &T::registers_per_thread,
                                      &T::static_shared_bytes,
                                      &T::dynamic_shared_bytes,
                                      &T::graph_node_id,
                                      &T::mangled_name};
};

template <>
struct ModelColumns<MemcpyRow> {
  using T = MemcpyTable;
  static constexpr std::tuple members{DeviceOfStream{2}, Optional<&T::context>{}, StreamOfDevice{}, &T::start_ns,
                                      &T::end_ns,        &T::correlation_id,     &T::copy_kind,    &T::src_memory_kind,
                                      &T::dst_memory_kind, &T::src_device,       &T::dst_device,   &T::bytes};
};

template <>
struct ModelColumns<MemsetRow> {
  using T = MemsetTable;
  static constexpr std::tuple members{DeviceOfStream{2}, Optional<&T::context>{}, StreamOfDevice{}, &T::start_ns,
                                      &T::end_ns,        &T::correlation_id,     &T::bytes};
};

template <>
struct ModelColumns<ApiCallRow> {
  using T = ApiCallTable;
  static constexpr std::tuple members{&T::process_id, &T::thread_id, &T::start_ns, &T::end_ns,
                                      &T::correlation_id, &T::name, &T::kind, Optional<&T::return_code>{}};
};

template <>
struct ModelColumns<SyncRow> {
  using T = SyncTable;
  static constexpr std::tuple members{&T::process_id, &T::thread_id, &T::start_ns, &T::end_ns,        &T::type,
                                      &T::device,     &T::stream,    &T::event,    &T::correlation_id};
};

template <>
struct ModelColumns<RangeRow> {
  using T = RangeTable;
  static constexpr std::tuple members{&T::process_id, &T::thread_id, &T::start_ns, &T::end_ns,
                                      &T::name,       &T::domain,    &T::category, &T::on_gpu,
                                      &T::device,     &T::stream,    &T::correlation_id};
};

template <>
struct ModelColumns<CollectiveRow> {
  using T = CollectiveTable;
  static constexpr std::tuple members{&T::device,      &T::correlation_id, &T::name,          &T::in_elements,
                                      &T::out_elements, &T::in_bytes,      &T::out_bytes,     &T::dtype,
                                      &T::group_size,  &T::process_group,  &T::group_description, &T::group_ranks};
};

template <>
struct ModelColumns<MemoryEventRow> {
  using T = MemoryEventTable;
  static constexpr std::tuple members{&T::device,    &T::context,     &T::stream,  &T::time_ns, &T::correlation_id,
                                      &T::operation, &T::memory_kind, &T::address, &T::bytes,   &T::allocated_after};
};

template <>
struct ModelColumns<ThreadStateRow> {
  using T = ThreadStateTable;
  static constexpr std::tuple members{&T::process_id, &T::thread_id, &T::start_ns,  &T::end_ns,
                                      &T::state,      &T::cpu,       &T::os_state,  &T::block_reason};
};

constexpr bool nullable(Rule rule) {
  switch (rule) {
    case Rule::integer_or_null:
    case Rule::int32_or_null:
    case Rule::count_or_null:
    case Rule::positive_or_null:
    case Rule::device_or_null:
    case Rule::string_id_or_null:
    case Rule::enum_or_null: return true;
    default: return false;
  }
}

namespace detail {

// The stored form of a value that kept `rule` (the loader checked it first),
// read as (NULL?, integer).
template <typename T, Rule rule>
[[gnu::always_inline]] inline T model_value(bool null_read, std::int64_t value) {
  const bool null = nullable(rule) && null_read;
  if constexpr (rule == Rule::string_id || rule == Rule::string_id_or_null) {
    static_assert(std::is_same_v<T, StringId>, "a string id is stored as a StringId");
    return null ? kNoString : static_cast<StringId>(value);
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<T>(null ? 0 : value);  // code 0 is each enum's unknown
  } else if constexpr (std::is_same_v<T, std::uint8_t>) {
    static_assert(rule == Rule::enum_value, "a byte column holds a flag");
    return static_cast<std::uint8_t>(value != 0);
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return null ? kUnknown32 : static_cast<std::int32_t>(value);
  } else {
    static_assert(std::is_same_v<T, std::int64_t>, "a model column holds int64, int32, a StringId or an enum");
    return null ? kUnknown : value;
  }
}

template <typename>
struct Mark {
  static constexpr bool dim_axis = false, optional = false;
};
template <auto of, int at>
struct Mark<DimAxis<of, at>> {
  static constexpr bool dim_axis = true, optional = false;
  static constexpr auto member = of;
  static constexpr int axis = at;
};
template <auto of>
struct Mark<Optional<of>> {
  static constexpr bool dim_axis = false, optional = true;
  static constexpr auto member = of;
};

template <typename Row, std::size_t I, typename Rows, typename Table>
[[gnu::always_inline]] inline void store_value(const Rows& rows, Table& table, auto member) {
  constexpr auto& column = TableDeclaration<Row>::columns[I];
  static_assert(column.rule.has_value(), "a column the model stores is checked by a rule");
  constexpr Rule rule = *column.rule;
  auto& into = table.*member;
  using T = typename std::remove_cvref_t<decltype(into)>::value_type;
  rows.put(into, static_cast<int>(I), [](bool null, std::int64_t value) { return model_value<T, rule>(null, value); });
}

template <typename Row, std::size_t I, typename Rows, typename Into>
[[gnu::always_inline]] inline void store_column(const Rows& rows, Into& into) {
  constexpr auto member = std::get<I>(ModelColumns<Row>::members);
  using Member = std::remove_cvref_t<decltype(member)>;
  if (I >= into.read_columns) return;  // not read (the kernels' launch details, when not wanted)
  if constexpr (std::is_same_v<Member, DeviceOfStream>) {
    static_assert(TableDeclaration<Row>::columns[I].rule == Rule::device, "a stream's device is a device");
    rows.put_stream(*into.streams, static_cast<int>(I), member.stream);
  } else if constexpr (std::is_same_v<Member, StreamOfDevice>) {
    // Stored with its device.
  } else if constexpr (Mark<Member>::dim_axis) {
    static_assert(TableDeclaration<Row>::columns[I].rule == Rule::int32_or_null, "an axis is a 32-bit integer");
    if constexpr (Mark<Member>::axis == 0) rows.put_dim3(into.table.*Mark<Member>::member, static_cast<int>(I));
  } else if constexpr (Mark<Member>::optional) {
    if (into.optional_columns) store_value<Row, I>(rows, into.table, Mark<Member>::member);
  } else {
    store_value<Row, I>(rows, into.table, member);
  }
}

template <typename Row, typename Rows, typename Into, std::size_t... I>
[[gnu::always_inline]] inline void store_columns(const Rows& rows, Into& into, std::index_sequence<I...>) {
  (store_column<Row, I>(rows, into), ...);
}

}  // namespace detail

// Where the loader stores a table's rows: its model table, and for a GPU table
// the stream grouping; how many declared columns were read, and whether the
// optional ones (Optional) are wanted.
template <typename Table>
struct ModelTarget {
  Table& table;
  StreamsOfRows* streams = nullptr;
  std::size_t read_columns = std::numeric_limits<std::size_t>::max();
  bool optional_columns = true;
};

// Stores rows that kept their table's rules into the model's columns: `Rows`
// is one row (OneRow) or a whole column chunk (ChunkRows), row_stores.hpp.
template <typename Row, typename Rows>
void store_row(const Rows& rows, ModelTarget<typename ModelColumns<Row>::T>& into) {
  constexpr std::size_t columns = TableDeclaration<Row>::columns.size();
  static_assert(std::tuple_size_v<decltype(ModelColumns<Row>::members)> == columns,
                "one model column (or mark) per declared column");
  detail::store_columns<Row>(rows, into, std::make_index_sequence<columns>{});
}

}  // namespace gpuprof::trace
