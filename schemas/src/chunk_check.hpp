#pragma once

// Column chunks are used only when they stand for the rows they claim (issue 27:
// a sealed chunk of made-up rows was analysed while SQL saw other rows, and a
// 130 MB file decoded 32.7 M kernels from chunks that claimed max(rowid) rows
// of a table holding a few). What the check costs is kept in proportion to what
// it protects (issue 38: summing every table in SQL on every open was a quarter
// of a report's CPU; then counting rows with count(*) read every page of the
// table, 81 s of an uncached 100 M-event file, where the chunks are a fifth of
// its bytes):
//  - the row count, bounded: the table's first row id must be 1 and its last
//    no more than the table's pages could hold as rows (rows_pages_can_hold:
//    every row takes a few bytes of a page), both B-tree descents; the chunks
//    must hold exactly as many rows as that last id. So chunks never make more
//    rows than a file of that size can hold, whatever they claim;
//  - the content, by sample: kSampledRows rows of every chunk (its first and
//    last, the others spread between them at places drawn from the chunk's own
//    checksum) are read by row id and compared column by column with the
//    decoded values; a sampled row that is missing fails like one that differs.
//    An SQL edit fires the chunk guards and empties the chunks
//    (schemas/README.md); what the sample catches besides is rows changed or
//    deleted behind the guards' back (a writer with triggers off, a file made
//    by hand) wherever a sampled row changed. A hostile file can still hold
//    chunks that differ from unsampled rows, or rows missing between sampled
//    ones: what is analysed then went through the same row rules as rows do, so
//    it is checked data, only not the data SQL shows.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event_chunks.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

inline constexpr std::int64_t kSampledRows = 8;

// The most rows of `columns` columns that `file_bytes` of SQLite pages can hold:
// a table row takes at least its cell pointer (2 bytes), payload size and row
// id (1 each) and a record header of one byte plus one per column.
std::int64_t rows_pages_can_hold(std::int64_t file_bytes, int columns);

// Why the rows of `table`, whose largest row id is `last_row`, cannot be the
// rows its chunks stand for (first row id not 1, or more rows than the file's
// pages could hold), or nullopt. Reads no row but the first.
std::optional<std::string> implausible_row_ids(sqlite::Database& database, const std::string& table,
                                               std::int64_t last_row, int columns);

// The row offsets (0-based, ascending, distinct) compared for a chunk of `rows` rows whose checksum is `seed`.
std::vector<std::int64_t> sampled_rows(std::int64_t rows, std::uint64_t seed);

// Compares decoded chunk rows with the table's rows of the same id.
class ChunkSampleCheck {
 public:
  ChunkSampleCheck(sqlite::Database& database, const std::string& table);
  // Whether row `at` of `decoder` equals the row of id `row_id` in every column decoded (`columns`).
  bool matches(const ChunkDecoder& decoder, std::size_t at, std::int64_t row_id, int columns);

 private:
  sqlite::Statement row_;
};

}  // namespace gpuprof::trace
