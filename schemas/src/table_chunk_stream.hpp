#pragma once

#include <string>
#include <string_view>

#include "event_chunks.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {

// Encodes one table's rows into its column chunks and inserts each chunk once
// full, numbering the chunks. The writer feeds it rows as it adds them, so
// finish() need not read the table back (that re-read was a third of an nvprof
// import's CPU); rows and chunks go in the same transactions, so the chunks of
// a finished file hold exactly its rows. rewrite_event_chunks feeds it the rows
// read back from SQL.
class TableChunkStream {
 public:
  TableChunkStream(std::string_view table, int columns) : table_(table), encoder_(columns) {}

  template <typename Row>
  void add(const Row& row, sqlite::Statement& insert_chunk) {
    ChunkRowSink sink(encoder_);
    bind_row(sink, 1, row);
    encoder_.end_row();
    if (encoder_.rows() == kChunkRows) write(insert_chunk);
  }

  // A row read back from SQL; false when it holds a value the chunk form cannot
  // (ChunkEncoder::add), and the stream must then be dropped with its chunks.
  bool add(const RowValues& row, sqlite::Statement& insert_chunk) {
    if (!encoder_.add(row)) return false;
    if (encoder_.rows() == kChunkRows) write(insert_chunk);
    return true;
  }

  // Writes the last, partly filled chunk.
  void finish(sqlite::Statement& insert_chunk) {
    if (encoder_.rows() > 0) write(insert_chunk);
  }

 private:
  void write(sqlite::Statement& insert_chunk);

  std::string table_;
  ChunkEncoder encoder_;
  std::int64_t next_chunk_ = 0, first_row_ = 0;
};

// The statement that TableChunkStream::finish and write_event_chunks insert with.
inline constexpr const char* kInsertChunkSql = "INSERT INTO event_chunks VALUES (?, ?, ?, ?, ?, ?)";

}  // namespace gpuprof::trace
