#include <sqlite3.h>

#include <algorithm>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "event_chunks.hpp"
#include "table_chunk_stream.hpp"

namespace gpuprof::trace {
namespace {

void write_table_chunks(sqlite::Database& database, sqlite::Statement& insert, const std::string& table) {
  sqlite::Statement rows(database, "SELECT * FROM " + table + " ORDER BY rowid");
  TableChunkStream stream(table, std::min(sqlite3_column_count(rows.raw()), RowValues::kMaxColumns));
  RowValues values;
  while (rows.step()) {
    values.fetch(rows.raw());
    if (!stream.add(values, insert)) {
      sqlite::Statement drop(database, "DELETE FROM event_chunks WHERE table_name = ?");
      drop.bind(1, std::string_view(table));
      drop.run();
      return;
    }
  }
  stream.finish(insert);
}

}  // namespace

void TableChunkStream::write(sqlite::Statement& insert_chunk) {
  const auto rows = encoder_.rows();
  insert_chunk.bind(1, std::string_view(table_));
  insert_chunk.bind(2, next_chunk_++);
  insert_chunk.bind(3, first_row_);
  insert_chunk.bind(4, rows);
  insert_chunk.bind(5, std::int64_t{encoder_.columns()});
  insert_chunk.bind_blob(6, encoder_.take_blob());
  insert_chunk.run();
  first_row_ += rows;
}

void write_event_chunks(sqlite::Database& database) {
  sqlite::Statement insert(database, kInsertChunkSql);
  for (const auto& table : chunked_tables()) write_table_chunks(database, insert, table);
}

void rewrite_event_chunks(sqlite::Database& database) {
  database.execute("DELETE FROM event_chunks");
  write_event_chunks(database);
  install_chunk_guards(database);
}

}  // namespace gpuprof::trace
