#pragma once

// The column-chunk form of the large event tables (schema 1.2): per
// kChunkRows rows of a table, one `event_chunks` row whose blob holds every
// column delta + zigzag + varint encoded. Decoding a blob costs a fraction of
// SQLite's row-by-row decoding, which is most of loading a large trace. The
// byte layout is documented in schemas/README.md ("Column chunks").
//
// A blob read from a file is hostile: the decoder checks every length and
// count against the blob's own size and refuses anything that does not add up;
// decoded values then go through the same row rules as rows read from SQL.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "row_rules.hpp"

namespace gpuprof::trace {

inline constexpr std::int64_t kChunkRows = 65536;
// PRAGMA user_version of schema 1.2, which added the chunks.
inline constexpr std::int64_t kFirstChunkedVersion = 1002;
// The tables written in chunk form, in the order the writer writes them.
const std::vector<std::string>& chunked_tables();

// Writes the checksum of blob[8..] into blob[0..8] (the encoder's last step;
// tests use it to build hostile blobs that pass the checksum).
void seal_chunk(std::vector<std::uint8_t>& blob);

// Encodes up to kChunkRows rows of one table into one blob. Values are delta
// encoded as they arrive, so the encoder holds the encoded bytes (about two per
// value), not the values: writers keep one per table while they add rows.
class ChunkEncoder {
 public:
  explicit ChunkEncoder(int columns);
  // One row is put column by column, in order, each exactly once, then ended.
  void put(int column, bool null, std::int64_t value);
  void end_row() { ++rows_; }
  // False when a value is neither an integer nor NULL: the chunk form cannot
  // hold it, so the table is left without chunks (the rows still hold it).
  bool add(const RowValues& row);
  std::int64_t rows() const { return rows_; }
  int columns() const { return static_cast<int>(columns_.size()); }
  // The encoded blob of the rows added since the last call; starts a new chunk.
  std::vector<std::uint8_t> take_blob();

 private:
  struct Column {
    std::vector<std::uint8_t> deltas;       // varints of the non-NULL values' zigzag deltas
    std::vector<std::uint8_t> null_bitmap;  // bit i set: row i is NULL
    std::uint64_t nulls = 0;
    std::uint64_t previous = 0;
  };
  std::int64_t rows_ = 0;
  std::vector<Column> columns_;
};

// Hands one row's columns from bind_row (table_columns.hpp) to an encoder:
// parameters are numbered from 1, as in SQLite, columns from 0.
class ChunkRowSink {
 public:
  explicit ChunkRowSink(ChunkEncoder& encoder) : encoder_(encoder) {}
  void bind(int index, std::int64_t value) { encoder_.put(index - 1, false, value); }
  void bind_null(int index) { encoder_.put(index - 1, true, 0); }
  template <typename T>
  void bind(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, static_cast<std::int64_t>(*value));
    } else {
      bind_null(index);
    }
  }

 private:
  ChunkEncoder& encoder_;
};

// Decodes one chunk blob into columns, whose values ChunkRow reads in place.
class ChunkDecoder {
 public:
  // Decodes the first `wanted` columns of a blob holding `stored` columns of
  // `rows` rows (columns past `stored` read as NULL). Returns an empty string,
  // or what is wrong with the blob.
  std::string decode(std::span<const std::uint8_t> blob, std::int64_t rows, int stored, int wanted);
  std::int64_t rows() const { return rows_; }
  // Column `column` of row `at` (< rows()), as SQL would read it. Columns past
  // the stored ones (written by an older writer that lacked them) read as NULL.
  bool is_null(int column, std::size_t at) const {
    return column >= stored_ || (has_nulls_[column] != 0 && nulls_[column][at] != 0);
  }
  std::int64_t value(int column, std::size_t at) const { return column < stored_ ? values_[column][at] : 0; }
  // A whole column's values, for checks over columns; null for a column with NULLs or not stored.
  const std::int64_t* values_without_nulls(int column) const {
    return column >= 0 && column < stored_ && has_nulls_[column] == 0 ? values_[column].data() : nullptr;
  }
  // A whole stored column's values (NULL rows read as 0), for copying columns out; null for a column not stored.
  const std::int64_t* column_values(int column) const {
    return column >= 0 && column < stored_ ? values_[column].data() : nullptr;
  }
  // A stored column's NULL flags, one byte a row; null when it has no NULL (or is not stored: all NULL).
  const std::uint8_t* column_nulls(int column) const {
    return column >= 0 && column < stored_ && has_nulls_[column] != 0 ? nulls_[column].data() : nullptr;
  }

 private:
  std::int64_t rows_ = 0;
  int stored_ = 0;  // the columns decoded
  std::vector<std::vector<std::int64_t>> values_;
  std::vector<std::vector<std::uint8_t>> nulls_;  // filled only for columns with NULLs
  std::vector<std::uint8_t> has_nulls_;
};

// One decoded row, read in place with RowValues' interface (copying each row
// out of the decoder was a tenth of loading a large trace).
class ChunkRow {
 public:
  ChunkRow(const ChunkDecoder& decoder, std::size_t at) : decoder_(decoder), at_(at) {}
  int type(int column) const { return is_null(column) ? RowValues::kNull : RowValues::kInteger; }
  bool is_null(int column) const { return decoder_.is_null(column, at_); }
  std::int64_t i64(int column) const { return decoder_.value(column, at_); }

 private:
  const ChunkDecoder& decoder_;
  std::size_t at_;
};

}  // namespace gpuprof::trace

namespace gpuprof::sqlite {
class Database;
}

namespace gpuprof::trace {
// Writes the chunk form of every table in chunked_tables() from its rows (in
// rowid order), inside the caller's transaction. A table holding a value the
// chunk form cannot hold gets no chunks; readers then use its rows.
void write_event_chunks(sqlite::Database& database);
}  // namespace gpuprof::trace
