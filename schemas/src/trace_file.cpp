#include "gpuprof/trace/trace_file.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/input_limits.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "row_rules.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSqliteHeaderSize = 100;

std::uint32_t read_big_endian(const unsigned char* bytes, int count) {
  std::uint32_t value = 0;
  for (int i = 0; i < count; ++i) value = (value << 8) | bytes[i];
  return value;
}

}  // namespace

void check_sqlite_file(const std::string& path) {
  check_input_file(path);
  std::error_code error;
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceError::bad_input(path, "cannot be read (permission denied?)");
  std::array<unsigned char, kSqliteHeaderSize> header{};
  file.read(reinterpret_cast<char*>(header.data()), header.size());
  const auto got = static_cast<std::size_t>(file.gcount());
  if (got == 0) throw TraceError::bad_input(path, "is empty");
  if (got < 16 || std::memcmp(header.data(), "SQLite format 3", 16) != 0) {
    throw TraceError::bad_input(
        path, "is not a SQLite trace file (for PyTorch/Kineto JSON or Nsight Systems exports use `gpuprof import`)");
  }
  if (got < kSqliteHeaderSize) throw TraceError::bad_input(path, "is truncated (incomplete SQLite header)");
  std::uint32_t page_size = read_big_endian(&header[16], 2);
  if (page_size == 1) page_size = 65536;
  const std::uint32_t page_count = read_big_endian(&header[28], 4);
  const bool page_count_valid = std::memcmp(&header[24], &header[92], 4) == 0 && page_count > 0;
  const auto file_size = fs::file_size(path, error);
  if (page_count_valid && !error && file_size < std::uint64_t{page_count} * page_size) {
    throw TraceError::bad_input(path, "is truncated: " + std::to_string(file_size) + " bytes, but its header says " +
                                          std::to_string(std::uint64_t{page_count} * page_size));
  }
}

TraceFile::TraceFile(const std::string& path, sqlite::OpenMode mode)
    : path_(path), database_((check_sqlite_file(path), path), mode) {
  std::optional<std::int64_t> version;
  try {
    version = database_.query_int("PRAGMA user_version");
  } catch (const sqlite::BusyError&) {
    throw;
  } catch (const TraceError& error) {
    if ((sqlite3_extended_errcode(database_.handle()) & 0xff) == SQLITE_READONLY) {
      throw TraceError::bad_input(path, "holds an unfinished write from a killed process; open it once with "
                                        "write access (sqlite3 FILE 'PRAGMA quick_check') to roll it back");
    }
    throw TraceError::bad_input(path, "is not a readable SQLite database (" + error.problem() + ")");
  }
  user_version_ = version.value_or(0);
  refuse_stored_code(database_);
  if (!database_.has_table("meta")) {
    throw TraceError::bad_input(path, "is a SQLite file without the gpuprof trace schema "
                                      "(an Nsight Systems or nvprof export? use `gpuprof import`)");
  }
  if (meta_value("format").value_or("") != kFormatName) {
    throw TraceError::bad_input(path, "has a meta table but is not a gpuprof trace");
  }
  const std::int64_t major = user_version_ / 1000;
  if (major > kSchemaMajor) {
    throw TraceError::bad_input(path, "has trace schema version " + schema_version_text() +
                                          ", newer than this gpuprof reads (" + std::to_string(kSchemaMajor) +
                                          ".x); upgrade gpuprof");
  }
  if (major < 1) throw TraceError::bad_input(path, "has no valid trace schema version");
}

std::string TraceFile::schema_version_text() const {
  return std::to_string(user_version_ / 1000) + "." + std::to_string(user_version_ % 1000);
}

std::map<std::string, std::string> TraceFile::meta() {
  std::map<std::string, std::string> values;
  sqlite::Statement query(database_, "SELECT key, value FROM meta");
  while (query.step()) values.emplace(query.column_text(0), query.column_text(1));
  return values;
}

std::optional<std::string> TraceFile::meta_value(const std::string& key) {
  sqlite::Statement query(database_, "SELECT value FROM meta WHERE key = ?");
  query.bind(1, std::string_view(key));
  if (!query.step() || query.is_null(0)) return std::nullopt;
  return std::string(query.column_text(0));
}

void record_left_out(const LeftOutRows& left_out, std::vector<StatRow>& stats) {
  for (const auto& [column, entry] : left_out) {
    stats.push_back({stat_name(StatId::load_invalid, column), entry.rows, Severity::error,
                     "rows left out when loading: " + entry.reason});
  }
}

void refuse_stored_code(sqlite::Database& database) { database.refuse_code(trace_tables(), chunk_guard_triggers()); }

namespace {

std::optional<std::int64_t> parse_integer(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

}  // namespace

namespace {
template <typename Row>
constexpr bool has_column(std::string_view name) {
  const auto& columns = TableDeclaration<Row>::columns;
  return std::any_of(columns.begin(), columns.end(), [name](const auto& column) { return std::string_view(column.name) == name; });
}
}  // namespace

TimeSpan TraceFile::time_span() {
  TimeSpan span{parse_integer(meta_value("start_ns")), parse_integer(meta_value("end_ns"))};
  if (span.start_ns && span.end_ns) return span;
  span = {};
  // The event tables of schema 1.0 with times (kernels, memcpys, memsets, api_calls, syncs, ranges): the
  // span files without these meta keys have always had; later tables (thread_states) leave it as it was.
  for_each_table([&]<typename Row>() {
    using Table = TableDeclaration<Row>;
    if (Table::options.since_minor != 0 || Table::options.loaded_with == LoadedWith::trace_file) return;
    if (!has_column<Row>("start_ns") || !has_column<Row>("end_ns")) return;
    const std::string table(Table::name);
    if (!database_.has_table(table)) return;
    const auto low = database_.query_int("SELECT min(start_ns) FROM " + table);
    const auto high = database_.query_int("SELECT max(end_ns) FROM " + table);
    if (low) span.start_ns = std::min(span.start_ns.value_or(*low), *low);
    if (high) span.end_ns = std::max(span.end_ns.value_or(*high), *high);
  });
  return span;
}

std::vector<TableCount> TraceFile::counts() {
  std::vector<TableCount> result;
  for (const auto& table : event_tables()) {
    if (!database_.has_table(table)) continue;
    result.push_back({table, database_.query_int("SELECT count(*) FROM " + table).value_or(0)});
  }
  return result;
}

std::vector<StatRow> TraceFile::stats() {
  std::vector<StatRow> rows;
  sqlite::Statement query(database_, "SELECT name, value, severity, detail FROM collector_stats");
  while (query.step()) {
    StatRow row;
    row.name = query.column_text(0);
    row.value = query.column_int(1);
    const auto severity = query.column_text(2);
    row.severity = severity == "error" ? Severity::error : severity == "warning" ? Severity::warning : Severity::info;
    if (!query.is_null(3)) row.detail = std::string(query.column_text(3));
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {
std::optional<std::string> optional_text(const sqlite::Statement& query, int column) {
  if (query.is_null(column)) return std::nullopt;
  return std::string(query.column_text(column));
}
template <typename T>
std::optional<T> optional_number(const sqlite::Statement& query, int column) {
  if (query.is_null(column)) return std::nullopt;
  return static_cast<T>(query.column_int(column));
}
bool is_device_number(const sqlite::Statement& query, int column) {
  const auto value = query.column_int(column);
  return sqlite3_column_type(query.raw(), column) == SQLITE_INTEGER && value >= 0 &&
         value <= std::numeric_limits<std::int32_t>::max();
}
// Counts the row in `left_out` when it breaks one of `rules`.
bool leaves_out(const sqlite::Statement& query, std::span<const ColumnRule> rules, const char* table,
                LeftOutRows& left_out) {
  RowValues values;
  values.fetch(query.raw());
  const auto* broken = broken_rule(values, rules, {});
  if (broken == nullptr) return false;
  auto& entry = left_out[std::string(table) + "." + broken->name];
  ++entry.rows, entry.reason = describe(broken->rule);
  return true;
}
}  // namespace

std::vector<DeviceRow> TraceFile::devices() {
  std::vector<DeviceRow> rows;
  sqlite::Statement query(database_, "SELECT * FROM devices ORDER BY id");
  while (query.step()) {
    if (!is_device_number(query, 0)) {
      auto& entry = left_out_["devices.id"];
      ++entry.rows, entry.reason = describe(Rule::device);
      continue;
    }
    DeviceRow row;
    row.id = static_cast<std::int32_t>(query.column_int(0));
    row.name = optional_text(query, 1);
    row.uuid = optional_text(query, 2);
    row.pci_bus_id = optional_text(query, 3);
    row.compute_major = optional_number<std::int32_t>(query, 4);
    row.compute_minor = optional_number<std::int32_t>(query, 5);
    row.sm_count = optional_number<std::int32_t>(query, 6);
    row.memory_bytes = optional_number<std::int64_t>(query, 7);
    row.memory_bandwidth_bps = optional_number<std::int64_t>(query, 8);
    row.host_link_bandwidth_bps = optional_number<std::int64_t>(query, 9);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<DeviceLinkRow> TraceFile::device_links() {
  std::vector<DeviceLinkRow> rows;
  sqlite::Statement query(database_, "SELECT * FROM device_links ORDER BY src_device, dst_device");
  while (query.step()) {
    if (!is_device_number(query, 0) || !is_device_number(query, 1)) {
      auto& entry = left_out_["device_links.device"];
      ++entry.rows, entry.reason = describe(Rule::device);
      continue;
    }
    DeviceLinkRow row;
    row.src_device = static_cast<std::int32_t>(query.column_int(0));
    row.dst_device = static_cast<std::int32_t>(query.column_int(1));
    row.peer_access = optional_number<bool>(query, 2);
    row.link_kind = optional_text(query, 3);
    row.performance_rank = optional_number<std::int32_t>(query, 4);
    rows.push_back(std::move(row));
  }
  return rows;
}

LoadedStrings TraceFile::strings() {
  LoadedStrings strings;
  const auto rows = database_.query_int("SELECT count(*) FROM strings").value_or(0);
  strings.values.resize(static_cast<std::size_t>(rows));
  strings.present.resize(static_cast<std::size_t>(rows), 0);
  sqlite::Statement query(database_, "SELECT id, value FROM strings");
  while (query.step()) {
    const auto id = query.column_int(0);
    const bool integer = sqlite3_column_type(query.raw(), 0) == SQLITE_INTEGER;
    if (!integer || id < 0 || id >= rows || query.is_null(1) || strings.present[static_cast<std::size_t>(id)]) {
      auto& entry = left_out_["strings.id"];
      ++entry.rows, entry.reason = "not an integer from 0 to the row count - 1, repeated, or without a value";
      continue;
    }
    if (static_cast<std::size_t>(sqlite3_column_bytes(query.raw(), 1)) > kMaxStringBytes) {
      auto& entry = left_out_["strings.value"];
      ++entry.rows, entry.reason = "longer than " + std::to_string(kMaxStringBytes >> 20) + " MiB";
      continue;
    }
    const auto slot = static_cast<std::size_t>(id);
    strings.values[slot] = query.column_text(1);
    strings.present[slot] = 1;
  }
  return strings;
}

std::vector<StepRow> TraceFile::steps() {
  std::vector<StepRow> rows;
  sqlite::Statement query(database_, "SELECT * FROM steps ORDER BY device, step");
  while (query.step()) {
    if (leaves_out(query, kColumnRules<StepRow>, "steps", left_out_)) continue;
    StepRow row;
    row.rank = optional_number<std::int32_t>(query, 0);
    row.device = static_cast<std::int32_t>(query.column_int(1));
    row.step = query.column_int(2);
    row.start_ns = query.column_int(3);
    row.end_ns = query.column_int(4);
    row.busy_ns = query.column_int(5);
    row.warmup = query.column_int(6) != 0;
    rows.push_back(row);
  }
  return rows;
}

std::vector<GapRow> TraceFile::gaps() {
  std::vector<GapRow> rows;
  sqlite::Statement query(database_, "SELECT * FROM gaps ORDER BY device, start_ns");
  while (query.step()) {
    if (leaves_out(query, kColumnRules<GapRow>, "gaps", left_out_)) continue;
    GapRow row;
    row.rank = optional_number<std::int32_t>(query, 0);
    row.device = static_cast<std::int32_t>(query.column_int(1));
    row.after_step = query.column_int(2);
    row.start_ns = query.column_int(3);
    row.end_ns = query.column_int(4);
    row.cause = query.column_text(5);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace gpuprof::trace
