#include "chunk_check.hpp"

#include <sqlite3.h>

#include <algorithm>

namespace gpuprof::trace {

std::int64_t rows_pages_can_hold(std::int64_t file_bytes, int columns) {
  return std::max<std::int64_t>(0, file_bytes) / (5 + std::max(0, columns));
}

std::optional<std::string> implausible_row_ids(sqlite::Database& database, const std::string& table,
                                               std::int64_t last_row, int columns) {
  if (last_row == 0) return std::nullopt;
  if (database.query_int("SELECT min(rowid) FROM " + table) != 1) return "the table's row ids do not start at 1";
  const auto file_bytes = database.query_int("PRAGMA page_count").value_or(0) *
                          database.query_int("PRAGMA page_size").value_or(0);
  if (last_row > rows_pages_can_hold(file_bytes, columns)) {
    return "the table's last row id " + std::to_string(last_row) + " is more rows than the file can hold";
  }
  return std::nullopt;
}

std::vector<std::int64_t> sampled_rows(std::int64_t rows, std::uint64_t seed) {
  std::vector<std::int64_t> sampled;
  if (rows <= 0) return sampled;
  sampled.push_back(0);
  sampled.push_back(rows - 1);
  // One offset per stretch between the first and the last row, placed by a 64-bit mix of the seed.
  const std::int64_t between = kSampledRows - 2;
  for (std::int64_t k = 0; k < between && rows > 2; ++k) {
    std::uint64_t mixed = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(k + 1);
    mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ULL;
    mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebULL;
    mixed ^= mixed >> 31;
    const std::int64_t from = 1 + (rows - 2) * k / between, to = 1 + (rows - 2) * (k + 1) / between;
    if (to > from) sampled.push_back(from + static_cast<std::int64_t>(mixed % static_cast<std::uint64_t>(to - from)));
  }
  std::sort(sampled.begin(), sampled.end());
  sampled.erase(std::unique(sampled.begin(), sampled.end()), sampled.end());
  return sampled;
}

ChunkSampleCheck::ChunkSampleCheck(sqlite::Database& database, const std::string& table)
    : row_(database, "SELECT * FROM " + table + " WHERE rowid = ?") {}

bool ChunkSampleCheck::matches(const ChunkDecoder& decoder, std::size_t at, std::int64_t row_id, int columns) {
  row_.reset();
  row_.bind(1, row_id);
  if (!row_.step() || row_.column_count() < columns) return false;
  for (int column = 0; column < columns; ++column) {
    const int type = sqlite3_column_type(row_.raw(), column);
    if (decoder.is_null(column, at)) {
      if (type != SQLITE_NULL) return false;
    } else if (type != SQLITE_INTEGER || sqlite3_column_int64(row_.raw(), column) != decoder.value(column, at)) {
      return false;
    }
  }
  return true;
}

}  // namespace gpuprof::trace
