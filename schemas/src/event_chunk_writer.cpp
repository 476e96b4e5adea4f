#include <sqlite3.h>

#include <algorithm>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "event_chunks.hpp"
#include "table_chunk_stream.hpp"

namespace gpuprof::trace {
namespace {

void insert_chunk_row(sqlite::Statement& insert, const std::string& table, std::int64_t chunk, std::int64_t first_row,
                  ChunkEncoder& encoder) {
  insert.bind(1, std::string_view(table));
  insert.bind(2, chunk);
  insert.bind(3, first_row);
  insert.bind(4, encoder.rows());
  insert.bind(5, std::int64_t{encoder.columns()});
  insert.bind_blob(6, encoder.take_blob());
  insert.run();
}

void write_table_chunks(sqlite::Database& database, sqlite::Statement& insert, const std::string& table) {
  sqlite::Statement rows(database, "SELECT * FROM " + table + " ORDER BY rowid");
  ChunkEncoder encoder(std::min(sqlite3_column_count(rows.raw()), RowValues::kMaxColumns));
  RowValues values;
  std::int64_t chunk = 0, written = 0;
  while (rows.step()) {
    values.fetch(rows.raw());
    if (!encoder.add(values)) {
      sqlite::Statement drop(database, "DELETE FROM event_chunks WHERE table_name = ?");
      drop.bind(1, std::string_view(table));
      drop.run();
      return;
    }
    if (encoder.rows() == kChunkRows) {
      written += kChunkRows;
      insert_chunk_row(insert, table, chunk++, written - kChunkRows, encoder);
    }
  }
  if (encoder.rows() > 0) insert_chunk_row(insert, table, chunk, written, encoder);
}

}  // namespace

void TableChunkStream::write(sqlite::Statement& insert_chunk) {
  const auto rows = encoder_.rows();
  insert_chunk_row(insert_chunk, table_, next_chunk_++, first_row_, encoder_);
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
