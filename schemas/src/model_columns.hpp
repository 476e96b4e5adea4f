#pragma once

// Where the loader stores each declared column of a table in the model
// (trace_model.hpp): one model column per declared column, in declaration
// order. How a value is stored follows from the column's declared rule and the
// model column's type, so a nullable column always becomes kUnknown, kUnknown32,
// kNoString or the enum's unknown code, never a made-up 0.
//
// Not yet used by kernels, memcpys, memsets and api_calls: their row readers in
// trace_model_loader.cpp also group GPU rows by stream, store a Dim3 from three
// columns and skip columns by LoadOptions (schemas/README.md, "Adding a table").

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpuprof/trace/trace_model.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {

// Specialised per table: `Table` (the model's) and `members`, a tuple of one
// pointer to a Table member per declared column.
template <typename Row>
struct ModelColumns;

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

template <typename Row, std::size_t I, typename Rows, typename Table>
[[gnu::always_inline]] inline void store_column(const Rows& rows, Table& table) {
  constexpr auto& column = TableDeclaration<Row>::columns[I];
  static_assert(column.rule.has_value(), "a column the model stores is checked by a rule");
  constexpr Rule rule = *column.rule;
  auto& into = table.*std::get<I>(ModelColumns<Row>::members);
  using T = typename std::remove_cvref_t<decltype(into)>::value_type;
  rows.put(into, static_cast<int>(I), [](bool null, std::int64_t value) { return model_value<T, rule>(null, value); });
}

template <typename Row, typename Rows, typename Table, std::size_t... I>
[[gnu::always_inline]] inline void store_columns(const Rows& rows, Table& table, std::index_sequence<I...>) {
  (store_column<Row, I>(rows, table), ...);
}

}  // namespace detail

// Stores rows that kept their table's rules into the model's columns: `Rows`
// is one row (OneRow) or a whole column chunk (ChunkRows), row_stores.hpp.
template <typename Row, typename Rows>
void store_row(const Rows& rows, typename ModelColumns<Row>::T& table) {
  constexpr std::size_t columns = TableDeclaration<Row>::columns.size();
  static_assert(std::tuple_size_v<decltype(ModelColumns<Row>::members)> == columns,
                "one model column per declared column");
  detail::store_columns<Row>(rows, table, std::make_index_sequence<columns>{});
}

}  // namespace gpuprof::trace
