// Each table is declared once (schemas/src/table_declarations.hpp) and its SQL,
// binding and rules derived from that: the schema of a new file must stay what
// schema 1.4 shipped (data/trace_schema_1_4.sql, the trace.sql of bf4e8e2) and
// what the recorded samples hold, statement for statement, and the rules must
// name the columns a file has at the positions it has them.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "schema_text.hpp"
#include "table_declarations.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

namespace fs = std::filesystem;

// type, name, table and SQL text of every schema object, in creation order:
// what a file stores of its schema.
using SchemaRows = std::vector<std::tuple<std::string, std::string, std::string, std::string>>;

SchemaRows schema_rows(sqlite::Database& database) {
  SchemaRows rows;
  sqlite::Statement query(database, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY rowid");
  while (query.step()) {
    rows.emplace_back(query.column_text(0), query.column_text(1), query.column_text(2), query.column_text(3));
  }
  return rows;
}

SchemaRows schema_created_by(const std::string& path, std::string_view sql) {
  sqlite::Database database(path, sqlite::OpenMode::create);
  database.execute(sql);
  return schema_rows(database);
}

// A later minor version may add objects; it never changes one that shipped.
TEST(TableDeclarations, NewFilesKeepEveryStatementThatShippedWithVersion14) {
  const testing::TemporaryFolder folder;
  const auto shipped = schema_created_by(folder.file("shipped.sqlite"),
                                         testing::read_file(GPUPROF_TRACE_SCHEMA_1_4));
  const auto declared = schema_created_by(folder.file("declared.sqlite"), schema_sql());
  SchemaRows kept;
  for (const auto& object : declared) {
    for (const auto& old : shipped) {
      if (std::get<1>(old) == std::get<1>(object)) kept.push_back(object);
    }
  }
  ASSERT_EQ(kept.size(), shipped.size());
  for (std::size_t i = 0; i < shipped.size(); ++i) EXPECT_EQ(kept[i], shipped[i]) << "schema object " << i;
  if (kSchemaMinor == 4) EXPECT_EQ(declared.size(), shipped.size());
}

TEST(TableDeclarations, EachDeclaredTableStandsOnceInTraceSql) {
  for_each_table([]<typename Row>() {
    const std::string line = "\n-- table: " + std::string(TableDeclaration<Row>::name) + "\n";
    const std::string_view text = schema_template_sql();
    const auto first = text.find(line);
    EXPECT_NE(first, std::string_view::npos) << line;
    EXPECT_EQ(text.find(line, first + 1), std::string_view::npos) << line;
  });
}

TEST(TableDeclarations, AnUndeclaredTableLineIsAnError) {
  EXPECT_THROW(expand_table_lines("-- table: kernel\n"), std::logic_error);
  EXPECT_EQ(expand_table_lines("-- not a table line\n"), "-- not a table line\n");
}

// The statement each declared table has in every recorded sample (schema 1.3:
// all but thread_states, which the shipped 1.4 text above covers).
TEST(TableDeclarations, RecordedSamplesHoldTheDeclaredStatements) {
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(GPUPROF_SAMPLES_DIR)) {
    if (entry.path().extension() != ".sqlite") continue;
    sqlite::Database database(entry.path().string(), sqlite::OpenMode::read_only);
    for_each_table([&]<typename Row>() {
      sqlite::Statement query(database, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?");
      query.bind(1, TableDeclaration<Row>::name);
      if (!query.step()) return;
      EXPECT_EQ(query.column_text(0), create_table_sql<Row>()) << entry.path();
      ++compared;
    });
  }
  EXPECT_GE(compared, 12 * 5);  // 12 declared tables of 1.3 in each of the 5 samples
}

TEST(TableDeclarations, RulesNameTheColumnsAtTheirPositions) {
  const testing::TemporaryFolder folder;
  sqlite::Database database(folder.file("t.sqlite"), sqlite::OpenMode::create);
  database.execute(schema_sql());
  for_each_table([&]<typename Row>() {
    const std::string table(TableDeclaration<Row>::name);
    std::vector<std::string> names;
    sqlite::Statement info(database, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid");
    while (info.step()) names.emplace_back(info.column_text(0));
    ASSERT_EQ(names.size(), TableDeclaration<Row>::columns.size()) << table;
    for (const auto& rule : kColumnRules<Row>) {
      ASSERT_LT(static_cast<std::size_t>(rule.column), names.size()) << table;
      EXPECT_EQ(names[static_cast<std::size_t>(rule.column)], rule.name) << table;
    }
  });
}

// A table's binding puts every member in its own column: a row whose members
// all differ comes back column by column as declared.
TEST(TableDeclarations, BindingFillsEachColumnFromItsMember) {
  const testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  {
    TraceWriter writer({.path = path, .tool_version = "test"});
    writer.add(KernelRow{.device = 1, .context = 2, .stream = 3, .start_ns = 4, .end_ns = 5, .correlation_id = 6,
                         .name = 7, .grid = Dim3{8, 9, 10}, .block = Dim3{11, 12, 13}, .registers_per_thread = 14,
                         .static_shared_bytes = 15, .dynamic_shared_bytes = 16, .graph_node_id = 17,
                         .mangled_name = 18});
    writer.add(DeviceLinkRow{.src_device = 1, .dst_device = 2, .peer_access = true, .link_kind = "nvlink"});
    writer.finish();
  }
  sqlite::Database database(path, sqlite::OpenMode::read_only);
  sqlite::Statement kernel(database, "SELECT * FROM kernels");
  ASSERT_TRUE(kernel.step());
  for (int column = 0; column < kColumnCount<KernelRow>; ++column) EXPECT_EQ(kernel.column_int(column), column + 1);
  sqlite::Statement link(database, "SELECT src_device, dst_device, peer_access, link_kind, performance_rank IS NULL "
                                   "FROM device_links");
  ASSERT_TRUE(link.step());
  EXPECT_EQ(link.column_int(0), 1);
  EXPECT_EQ(link.column_int(1), 2);
  EXPECT_EQ(link.column_int(2), 1);
  EXPECT_EQ(link.column_text(3), "nvlink");
  EXPECT_EQ(link.column_int(4), 1);
}

}  // namespace
}  // namespace gpuprof::trace
