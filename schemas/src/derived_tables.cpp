#include "gpuprof/trace/derived_tables.hpp"

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {
namespace {

template <typename Row>
void insert_all(sqlite::Database& database, const std::vector<Row>& rows) {
  sqlite::Statement insert(database, insert_sql<Row>(1));
  for (const auto& row : rows) {
    bind_row(insert, 1, row);
    insert.run();
  }
}

}  // namespace

void save_derived_tables(const std::string& path, const std::vector<StepRow>& steps,
                         const std::vector<GapRow>& gaps) {
  { TraceFile check(path); }  // refuses foreign or newer files before anything is written
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute("BEGIN IMMEDIATE");
  database.execute("DELETE FROM steps; DELETE FROM gaps;");
  insert_all(database, steps);
  insert_all(database, gaps);
  database.execute("COMMIT");
}

}  // namespace gpuprof::trace
