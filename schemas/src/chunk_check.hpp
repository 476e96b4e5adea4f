#pragma once

// Column chunks are used only when they stand for the rows they claim (issue 27:
// a sealed chunk of made-up rows was analysed while SQL saw other rows, and a
// 130 MB file decoded 32.7 M kernels from chunks that claimed max(rowid) rows
// of a table holding a few). What the check costs is kept in proportion to what
// it protects (issue 38: summing every table in SQL on every open was a quarter
// of a report's CPU, as much as reading the rows):
//  - the row count, exactly: the table's row ids must be 1..count (count(*),
//    which walks the table's pages without decoding a row, and two B-tree
//    descents), and the chunks must hold that many rows; so chunks never make
//    more rows than the table holds;
//  - the content, by sample: kSampledRows rows of every chunk (its first and
//    last, the others spread between them at places drawn from the chunk's own
//    checksum) are read by row id and compared column by column with the
//    decoded values. An SQL edit fires the chunk guards and empties the chunks
//    (schemas/README.md); what the sample catches besides is rows changed
//    behind the guards' back (a writer with triggers off, a file made by hand)
//    wherever a sampled row changed. A hostile file can still hold chunks that
//    differ from unsampled rows: what is analysed then went through the same row
//    rules as rows do, so it is checked data, only not the data SQL shows.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "event_chunks.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

inline constexpr std::int64_t kSampledRows = 8;

// The number of rows of `table` when its row ids are exactly 1..count, else nullopt.
std::optional<std::int64_t> dense_row_count(sqlite::Database& database, const std::string& table);

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
