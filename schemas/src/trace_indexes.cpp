#include "gpuprof/trace/trace_indexes.hpp"

#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

void build_trace_indexes(const std::string& path) {
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute("BEGIN IMMEDIATE");
  database.execute(index_sql());  // CREATE INDEX IF NOT EXISTS: nothing to do where they exist
  database.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('indexes', 'built')");
  database.execute("COMMIT");
}

}  // namespace gpuprof::trace
