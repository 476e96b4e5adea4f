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

// The strings table as read: values indexed by id. Ids must be dense (0 to
// rows - 1); a row with an id outside that range, or a value that is not text,
// is left out and counted, so memory follows the row count and never the
// values. A slot no row filled stays absent (present[id] == 0).
struct LoadedStrings {
  std::vector<std::string> values;
  std::vector<std::uint8_t> present;
};

// Rows of one table left out because one column broke a rule.
struct LeftOut {
  std::int64_t rows = 0;
  std::string reason;  // what was wrong with the column, e.g. "not a device number"
};
// Keyed by "table.column".
using LeftOutRows = std::map<std::string, LeftOut>;

// Adds the counts to `stats` as errors named load.invalid.<table>.<column>:
// data the analyses did not see, which reports show as data loss.
void record_left_out(const LeftOutRows& left_out, std::vector<StatRow>& stats);

// A trace file opened read-only and checked: it exists, is a complete SQLite
// file, carries the gpuprof schema, and its major version is one we read.
// It holds no triggers but the chunk guards (chunk_guards.hpp) and none of the
// tables gpuprof reads is a view (code in a file never runs), and reading it
// is bounded by its size.
// Every refusal is a TraceError::bad_input naming the file and the problem.
// The readers below check ids, devices and times as row_rules.hpp says and
// leave out rows that break a rule; left_out() counts them.
// Checks what SQLite itself would only notice lazily (missing, empty, not
// SQLite, truncated), so the user gets one clear sentence instead of "database
// disk image is malformed" halfway through. Throws TraceError::bad_input.
void check_sqlite_file(const std::string& path);

struct TimeSpan {
  std::optional<std::int64_t> start_ns, end_ns;  // both unknown when nothing was recorded
};

class TraceFile {
 public:
  explicit TraceFile(const std::string& path, sqlite::OpenMode mode = sqlite::OpenMode::read_only);

  const std::string& path() const { return path_; }
  std::int64_t user_version() const { return user_version_; }
  std::string schema_version_text() const;

  std::map<std::string, std::string> meta();
  std::optional<std::string> meta_value(const std::string& key);
  std::vector<TableCount> counts();
  std::vector<StatRow> stats();
  std::vector<DeviceRow> devices();
  std::vector<DeviceLinkRow> device_links();
  LoadedStrings strings();
  std::vector<StepRow> steps();
  std::vector<GapRow> gaps();
  // Start and end of everything recorded: meta's start_ns and end_ns when the
  // producer wrote both as integers, otherwise the extremes of the event tables.
  TimeSpan time_span();

  // Rows the readers above left out so far, by "table.column" of the first
  // rule each broke.
  const LeftOutRows& left_out() const { return left_out_; }

  sqlite::Database& database() { return database_; }

 private:
  std::string path_;
  sqlite::Database database_;
  std::int64_t user_version_ = 0;
  LeftOutRows left_out_;
};

// Every table gpuprof reads from a trace file.
const std::vector<std::string>& trace_tables();

// Throws bad_input when the file holds code: any trigger but the chunk guards
// (chunk_guards.hpp), or a view named like one of trace_tables().
void refuse_stored_code(sqlite::Database& database);

// The tables `gpuprof info` counts, in display order.
const std::vector<std::string>& event_tables();

}  // namespace gpuprof::trace
