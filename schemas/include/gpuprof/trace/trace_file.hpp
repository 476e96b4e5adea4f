#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

struct TableCount {
  std::string table;
  std::int64_t rows = 0;
};

// A trace file opened read-only and checked: it exists, is a complete SQLite
// file, carries the gpuprof schema, and its major version is one we read.
// Every refusal is a TraceError::bad_input naming the file and the problem.
class TraceFile {
 public:
  explicit TraceFile(const std::string& path);

  const std::string& path() const { return path_; }
  std::int64_t user_version() const { return user_version_; }
  std::string schema_version_text() const;

  std::map<std::string, std::string> meta();
  std::optional<std::string> meta_value(const std::string& key);
  std::vector<TableCount> counts();
  std::vector<StatRow> stats();
  std::vector<DeviceRow> devices();
  std::vector<DeviceLinkRow> device_links();
  std::vector<std::string> strings();
  std::vector<StepRow> steps();
  std::vector<GapRow> gaps();

  sqlite::Database& database() { return database_; }

 private:
  std::string path_;
  sqlite::Database database_;
  std::int64_t user_version_ = 0;
};

// The tables `gpuprof info` counts, in display order.
const std::vector<std::string>& event_tables();

}  // namespace gpuprof::trace
