#include "chunk_fingerprint.hpp"

namespace gpuprof::trace {

std::optional<RowsFingerprint> sql_fingerprint(sqlite::Database& database, const std::string& table) {
  const auto modulus = std::to_string(kFingerprintModulus);
  sqlite::Statement query(database, "SELECT count(*), min(rowid), max(rowid), sum(start_ns % " + modulus +
                                        "), sum(end_ns % " + modulus + ") FROM " + table);
  if (!query.step()) return std::nullopt;
  RowsFingerprint fingerprint;
  fingerprint.rows = query.column_int(0);
  if (fingerprint.rows > 0 && (query.column_int(1) != 1 || query.column_int(2) != fingerprint.rows)) {
    return std::nullopt;
  }
  fingerprint.start_sum = query.column_optional_int(3).value_or(0);
  fingerprint.end_sum = query.column_optional_int(4).value_or(0);
  return fingerprint;
}

}  // namespace gpuprof::trace
