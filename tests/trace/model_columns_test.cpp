// The tables the loader stores as declared (schemas/src/model_columns.hpp),
// every table the model keeps: a value that keeps its column's rule is
// stored unchanged, and a NULL in a nullable column becomes the unknown value
// of the model column's type (trace_model.hpp). Which member holds which
// column is checked against the records, spelled apart, by round_trip_test.cpp,
// memory_events_test.cpp and thread_states_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "model_columns.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

constexpr int kStrings = 32;

template <typename Table>
const Table& model_table(const TraceModel& model) {
  if constexpr (std::is_same_v<Table, SyncTable>) return model.syncs;
  if constexpr (std::is_same_v<Table, RangeTable>) return model.ranges;
  if constexpr (std::is_same_v<Table, CollectiveTable>) return model.collectives;
  if constexpr (std::is_same_v<Table, MemoryEventTable>) return model.memory_events;
  if constexpr (std::is_same_v<Table, ThreadStateTable>) return model.thread_states;
  if constexpr (std::is_same_v<Table, KernelTable>) return model.kernels;
  if constexpr (std::is_same_v<Table, MemcpyTable>) return model.memcpys;
  if constexpr (std::is_same_v<Table, MemsetTable>) return model.memsets;
  if constexpr (std::is_same_v<Table, ApiCallTable>) return model.api_calls;
}

// Column I's value in the row: distinct per column where its rule lets it be
// (strings and devices by position, other integers 100 + position; an enum its
// lowest code), or NULL where `nulls` and the column may be NULL.
template <typename Row>
std::string value_of(std::size_t i, bool nulls) {
  const auto& column = TableDeclaration<Row>::columns[i];
  const Rule rule = *column.rule;
  if (nulls && nullable(rule)) return "NULL";
  switch (rule) {
    case Rule::enum_value:
    case Rule::enum_or_null: return std::to_string(column.low);
    case Rule::string_id:
    case Rule::string_id_or_null:
    case Rule::device:
    case Rule::device_or_null: return std::to_string(i);
    default: return std::to_string(100 + i);
  }
}

template <typename Row>
TraceModel load_one_row(const testing::TemporaryFolder& folder, bool nulls) {
  using Table = TableDeclaration<Row>;
  const auto path = folder.file(std::string(Table::name) + (nulls ? "-nulls" : "-values") + ".sqlite");
  {
    TraceWriter writer({.path = path, .tool_version = "test"});
    for (int i = 0; i < kStrings; ++i) writer.intern("s" + std::to_string(i));
    writer.finish();
  }
  std::string values;
  for (std::size_t i = 0; i < Table::columns.size(); ++i) values += (i ? ", " : "") + value_of<Row>(i, nulls);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute("INSERT INTO " + std::string(Table::name) + " VALUES (" + values + ")");
  }
  return load_trace_model(path);
}

template <typename T>
T unknown() {
  if constexpr (std::is_same_v<T, StringId>) return kNoString;
  else if constexpr (std::is_enum_v<T>) return T{};
  else if constexpr (std::is_same_v<T, std::int32_t>) return kUnknown32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return kUnknown;
  else return T{};  // a flag, never NULL
}

template <typename Row, std::size_t I, typename Column>
void expect_stored(const Column& stored, bool nulls) {
  using T = typename Column::value_type;
  const auto& column = TableDeclaration<Row>::columns[I];
  ASSERT_EQ(stored.size(), 1U) << TableDeclaration<Row>::name << "." << column.name;
  const std::string text = value_of<Row>(I, nulls);
  const T expected = text == "NULL" ? unknown<T>() : static_cast<T>(std::stoll(text));
  EXPECT_EQ(stored[0], expected) << TableDeclaration<Row>::name << "." << column.name;
}

// A mark (model_columns.hpp) instead of a member: the device and stream are the
// grouped table's, a grid or block one Dim3 ({0, 0, 0} where its first axis is NULL).
template <typename Row, std::size_t I>
void expect_column(const TraceModel& model, bool nulls) {
  const auto& table = model_table<typename ModelColumns<Row>::T>(model);
  constexpr auto member = std::get<I>(ModelColumns<Row>::members);
  using Member = std::remove_cvref_t<decltype(member)>;
  if constexpr (std::is_same_v<Member, DeviceOfStream>) {
    expect_stored<Row, I>(table.device, nulls);
  } else if constexpr (std::is_same_v<Member, StreamOfDevice>) {
    expect_stored<Row, I>(table.stream, nulls);
  } else if constexpr (detail::Mark<Member>::dim_axis) {
    const Dim3 dim = (table.*detail::Mark<Member>::member).at(0);
    const int axis = detail::Mark<Member>::axis;
    const std::int32_t value = axis == 0 ? dim.x : axis == 1 ? dim.y : dim.z;
    EXPECT_EQ(value, nulls ? 0 : static_cast<std::int32_t>(100 + I)) << TableDeclaration<Row>::columns[I].name;
  } else if constexpr (detail::Mark<Member>::optional) {
    expect_stored<Row, I>(table.*detail::Mark<Member>::member, nulls);
  } else {
    expect_stored<Row, I>(table.*member, nulls);
  }
}

template <typename Row, std::size_t... I>
void expect_columns(const TraceModel& model, bool nulls, std::index_sequence<I...>) {
  (expect_column<Row, I>(model, nulls), ...);
}

template <typename Row>
void check_table() {
  const testing::TemporaryFolder folder;
  for (const bool nulls : {false, true}) {
    const auto model = load_one_row<Row>(folder, nulls);
    EXPECT_TRUE(model.stats.empty()) << TableDeclaration<Row>::name << ": the row broke a rule";
    expect_columns<Row>(model, nulls, std::make_index_sequence<TableDeclaration<Row>::columns.size()>{});
  }
}

TEST(ModelColumns, ValuesAreStoredAsReadAndNullAsTheColumnsUnknown) {
  check_table<SyncRow>();
  check_table<RangeRow>();
  check_table<CollectiveRow>();
  check_table<MemoryEventRow>();
  check_table<ThreadStateRow>();
  check_table<KernelRow>();
  check_table<MemcpyRow>();
  check_table<MemsetRow>();
  check_table<ApiCallRow>();
}

}  // namespace
}  // namespace gpuprof::trace
