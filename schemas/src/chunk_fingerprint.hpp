#pragma once

// Column chunks are used only when they match the rows they claim (issue 27:
// a sealed chunk of made-up rows was analysed while SQL saw other rows, and a
// 130 MB file decoded 32.7 M kernels from chunks that claimed max(rowid) rows
// of a table holding a few). The fingerprint of a table's rows, taken by SQL in
// one scan, is compared with that of the decoded chunks: the row count, that
// the row ids are exactly 1..count (the ids chunks stand for), and sums of the
// start and end times modulo a prime (kept far from int64's limits).

#include <cstdint>
#include <optional>
#include <string>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

inline constexpr std::int64_t kFingerprintModulus = 2147483629;  // a prime below 2^31

struct RowsFingerprint {
  std::int64_t rows = 0;
  std::int64_t start_sum = 0;  // of start_ns % kFingerprintModulus over non-NULL values
  std::int64_t end_sum = 0;

  void add(bool start_null, std::int64_t start_ns, bool end_null, std::int64_t end_ns) {
    ++rows;
    if (!start_null) start_sum += start_ns % kFingerprintModulus;
    if (!end_null) end_sum += end_ns % kFingerprintModulus;
  }
  bool operator==(const RowsFingerprint&) const = default;
};

// The fingerprint of `table`'s rows, or nullopt when its row ids are not
// exactly 1..count (no chunk can stand for such rows).
std::optional<RowsFingerprint> sql_fingerprint(sqlite::Database& database, const std::string& table);

}  // namespace gpuprof::trace
