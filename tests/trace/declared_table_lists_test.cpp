// The reader's lists of tables and the loader's reads come from the tables'
// declarations (schemas/src/table_declarations.hpp): a declared table must be
// guarded, counted, loaded and counted for progress under its own name, with
// the columns and rules its declaration states.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "event_chunks.hpp"
#include "table_declarations.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

// `gpuprof info` lists the counts in this order (versions 1.0 to 1.4 shipped it
// so); tables a later version adds come after, in the order versions add them.
TEST(DeclaredTableLists, EventTablesKeepTheOrderGpuprofInfoShows) {
  const std::vector<std::string> shipped = {"kernels", "memcpys",     "memsets",       "api_calls",
                                            "syncs",   "ranges",      "steps",         "gaps",
                                            "collectives", "memory_events", "thread_states"};
  const auto& tables = event_tables();
  ASSERT_GE(tables.size(), shipped.size());
  EXPECT_EQ(std::vector<std::string>(tables.begin(), tables.begin() + static_cast<long>(shipped.size())), shipped);
}

TEST(DeclaredTableLists, EveryDeclaredTableStandsOnceInEachListItBelongsTo) {
  const auto count = [](const std::vector<std::string>& tables, std::string_view name) {
    return std::count(tables.begin(), tables.end(), name);
  };
  std::size_t declared = 0;
  for_each_table([&]<typename Row>() {
    using Table = TableDeclaration<Row>;
    ++declared;
    EXPECT_EQ(count(trace_tables(), Table::name), 1) << Table::name;
    EXPECT_EQ(count(event_tables(), Table::name), Table::options.counted ? 1 : 0) << Table::name;
    EXPECT_EQ(count(chunked_tables(), Table::name), Table::options.chunked ? 1 : 0) << Table::name;
  });
  // meta, strings, collector_stats and event_chunks have no record type.
  EXPECT_EQ(trace_tables().size(), declared + 4);
}

// A value every rule of the column accepts (string 0 exists in the file).
template <typename Row>
std::string valid_value(const Column<Row>& column) {
  if (column.sql.starts_with("TEXT")) return "'x'";
  if (!column.rule) return "0";
  switch (*column.rule) {
    case Rule::enum_value:
    case Rule::enum_or_null: return std::to_string(column.low);
    case Rule::positive_or_null: return "1";
    default: return "0";  // a device, a time, a count, string 0, an end at the start 0
  }
}

// The first column with a rule, and a value that breaks it: text in an integer
// column breaks every rule; a device id is a key where text would not fit.
template <typename Row>
std::size_t first_checked_column() {
  const auto& columns = TableDeclaration<Row>::columns;
  std::size_t at = 0;
  while (at < columns.size() && !columns[at].rule) ++at;
  return at;
}
template <typename Row>
std::string breaking_value(const Column<Row>& column) {
  return column.rule == Rule::device || column.rule == Rule::device_or_null ? "-1" : "'not a number'";
}

// Two rows in every declared table, written with SQL from the declarations
// alone, so that a table declared tomorrow gets them here too: one that keeps
// every rule, one that breaks the rule of its first checked column.
void add_two_rows_to_every_table(const std::string& path) {
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  for_each_table([&]<typename Row>() {
    using Table = TableDeclaration<Row>;
    ASSERT_LT(first_checked_column<Row>(), Table::columns.size()) << Table::name << " has no checked column";
    std::string names, valid, broken;
    for (std::size_t i = 0; i < Table::columns.size(); ++i) {
      const auto& column = Table::columns[i];
      const auto separator = names.empty() ? "" : ", ";
      names += separator + std::string(column.name);
      valid += separator + valid_value(column);
      broken += separator + (i == first_checked_column<Row>() ? breaking_value(column) : valid_value(column));
    }
    const std::string insert = "INSERT INTO " + std::string(Table::name) + " (" + names + ") VALUES ";
    database.execute(insert + "(" + valid + ")");
    database.execute(insert + "(" + broken + ")");
  });
}

// TraceFile reads these itself (devices(), device_links(), steps(), gaps());
// every other declared table is the model's, read by load_trace_model().
bool read_by_trace_file(std::string_view table) {
  return table == "devices" || table == "device_links" || table == "steps" || table == "gaps";
}

bool counted_under(const LeftOutRows& left_out, std::string_view table) {
  return std::any_of(left_out.begin(), left_out.end(), [table](const auto& entry) {
    return entry.first.starts_with(std::string(table) + ".") && entry.second.rows == 1;
  });
}

// A finished trace with one string ("x", id 0) and no rows.
std::string empty_trace(const testing::TemporaryFolder& folder) {
  const auto path = folder.file("t.sqlite");
  TraceWriter writer({.path = path, .tool_version = "test"});
  EXPECT_EQ(writer.intern("x"), 0U);
  writer.finish();
  return path;
}

// The row breaking a rule is counted as load.invalid.<table>.<column>: under the
// declared name of the table and its column, so a table the loader left out, or
// read under another name or its columns at other positions, fails here.
TEST(DeclaredTableLists, TheLoaderReadsEveryDeclaredTableUnderItsName) {
  const testing::TemporaryFolder folder;
  const auto path = empty_trace(folder);
  add_two_rows_to_every_table(path);
  TraceFile file(path);
  EXPECT_EQ(file.devices().size(), 1U);
  EXPECT_EQ(file.device_links().size(), 1U);
  EXPECT_EQ(file.steps().size(), 1U);
  EXPECT_EQ(file.gaps().size(), 1U);

  std::atomic<std::int64_t> reported{0};
  const auto model = load_trace_model(path, {.on_rows = [&reported](std::int64_t rows) { reported += rows; }});
  const auto counted = [&model](const std::string& name) {
    return std::any_of(model.stats.begin(), model.stats.end(),
                       [&name](const StatRow& stat) { return stat.name == name && stat.value == 1; });
  };
  std::int64_t loaded_tables = 0;
  for_each_table([&]<typename Row>() {
    using Table = TableDeclaration<Row>;
    const std::string name(Table::name);
    if (read_by_trace_file(name)) {
      EXPECT_TRUE(counted_under(file.left_out(), name)) << name << ": TraceFile did not count its broken row";
      return;
    }
    ++loaded_tables;
    const std::string column = Table::columns[first_checked_column<Row>()].name;
    EXPECT_TRUE(counted("load.invalid." + name + "." + column))
        << name << " is declared but load_trace_model() did not read it, or not under its name";
  });
  // Every row was counted once, by rows_to_load() as by the loader, and the valid ones kept.
  EXPECT_EQ(reported.load(), 2 * loaded_tables);
  EXPECT_EQ(rows_to_load(path), 2 * loaded_tables);
  EXPECT_EQ(model.event_count(), 6U);
  EXPECT_EQ(model.collectives.size() + model.memory_events.size() + model.thread_states.size(), 3U);
}

// Without start_ns and end_ns in meta, a file's span is that of the event tables
// schema 1.0 had (found from the declarations now); thread_states, added later,
// leaves it as it was, and so do the derived steps.
TEST(DeclaredTableLists, TimeSpanWithoutMetaComesFromTheFirstEventTables) {
  const testing::TemporaryFolder folder;
  const auto path = empty_trace(folder);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute("DELETE FROM meta WHERE key IN ('start_ns', 'end_ns')");
    database.execute("INSERT INTO kernels (device, start_ns, end_ns, name_id) VALUES (0, 40, 50, 0)");
    database.execute("INSERT INTO ranges (start_ns, end_ns, name_id, on_gpu) VALUES (7, 45, 0, 0)");
    database.execute("INSERT INTO memsets (device, start_ns, end_ns) VALUES (0, 20, 60)");
    database.execute("INSERT INTO thread_states (thread_id, start_ns, end_ns, state) VALUES (1, 1, 1000, 1)");
    database.execute("INSERT INTO steps (device, step, start_ns, end_ns, busy_ns) VALUES (0, 0, 0, 2000, 0)");
  }
  TraceFile file(path);
  const auto span = file.time_span();
  EXPECT_EQ(span.start_ns, 7);
  EXPECT_EQ(span.end_ns, 60);
}

}  // namespace
}  // namespace gpuprof::trace
