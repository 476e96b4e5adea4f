#include "job_test_support.hpp"

#include <sqlite3.h>

#include <stdexcept>

namespace gpuprof::testing {

std::string write_rank(const std::string& path, std::int32_t rank, std::int32_t world_size,
                       synthetic::SynthOptions options) {
  options.rank = rank;
  options.world_size = world_size;
  if (options.kernels_per_step == synthetic::SynthOptions{}.kernels_per_step) options.kernels_per_step = 10;
  synthetic::write_synthetic_trace(path, options);
  return path;
}

void execute_sql(const std::string& path, const std::string& sql) {
  sqlite3* database = nullptr;
  if (sqlite3_open(path.c_str(), &database) != SQLITE_OK) {
    sqlite3_close(database);
    throw std::runtime_error("cannot open " + path);
  }
  char* message = nullptr;
  const int status = sqlite3_exec(database, sql.c_str(), nullptr, nullptr, &message);
  const std::string problem = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(database);
  if (status != SQLITE_OK) throw std::runtime_error(path + ": " + problem);
}

void shift_times(const std::string& path, std::int64_t offset_ns) {
  std::string sql;
  for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "syncs", "ranges"}) {
    sql += std::string("UPDATE ") + table + " SET start_ns = start_ns + " + std::to_string(offset_ns) +
           ", end_ns = end_ns + " + std::to_string(offset_ns) + ";";
  }
  // Edited rows: drop the column chunks, which would still hold the old times.
  execute_sql(path, sql + "DELETE FROM event_chunks;");
}

void set_rank(const std::string& path, std::int32_t rank) {
  execute_sql(path, "UPDATE meta SET value = '" + std::to_string(rank) + "' WHERE key = 'rank';");
}

}  // namespace gpuprof::testing
