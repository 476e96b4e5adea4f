// The tables the loader stores column for column as declared
// (schemas/src/model_columns.hpp): a value that keeps its column's rule is
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

template <typename Row, std::size_t I>
void expect_column(const TraceModel& model, bool nulls) {
  const auto& table = model_table<typename ModelColumns<Row>::T>(model);
  const auto& stored = table.*std::get<I>(ModelColumns<Row>::members);
  using T = typename std::remove_cvref_t<decltype(stored)>::value_type;
  const auto& column = TableDeclaration<Row>::columns[I];
  ASSERT_EQ(stored.size(), 1U) << TableDeclaration<Row>::name << "." << column.name;
  const std::string text = value_of<Row>(I, nulls);
  const T expected = text == "NULL" ? unknown<T>() : static_cast<T>(std::stoll(text));
  EXPECT_EQ(stored[0], expected) << TableDeclaration<Row>::name << "." << column.name;
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
}

}  // namespace
}  // namespace gpuprof::trace
