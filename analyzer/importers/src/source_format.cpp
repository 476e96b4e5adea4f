#include "gpuprof/importers/source_format.hpp"

#include <sqlite3.h>
#include <zlib.h>

#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {
namespace {

namespace fs = std::filesystem;

std::string read_head(const std::string& path, std::size_t size) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceError::bad_input(path, "cannot be read (permission denied?)");
  std::string head(size, '\0');
  file.read(head.data(), static_cast<std::streamsize>(size));
  head.resize(static_cast<std::size_t>(file.gcount()));
  return head;
}

// The first bytes after decompression, to tell a gzip'd JSON trace from other gzip files.
std::string read_gzip_head(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw TraceError::bad_input(path, "cannot be read");
  std::array<char, 256> buffer{};
  const int got = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
  gzclose(file);
  if (got <= 0) throw TraceError::bad_input(path, "is a gzip file that cannot be decompressed (truncated or corrupt)");
  return {buffer.data(), static_cast<std::size_t>(got)};
}

bool starts_like_json_object(const std::string& text) {
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    return c == '{';
  }
  return false;
}

bool has_table_prefix(sqlite::Database& database, const std::string& prefix) {
  return database
             .query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE '" + prefix + "%'")
             .value_or(0) > 0;
}

// Our tables alone do not make a gpuprof trace: another tool may name tables
// `meta` or `kernels` too. The format mark in meta decides.
bool has_gpuprof_mark(sqlite::Database& database) {
  if (!database.has_table("meta") || !database.has_table("strings") || !database.has_table("kernels")) return false;
  try {
    sqlite::Statement format(database, "SELECT count(*) FROM meta WHERE key = 'format' AND value = ?");
    format.bind(1, trace::kFormatName);
    return format.step() && format.column_int(0) > 0;
  } catch (const TraceError&) {
    return false;  // a meta table without our columns
  }
}

// Views never run on our connections (sqlite_database.hpp), so a view in place
// of an Nsight Systems or nvprof table read as empty: every kernel lost silently.
void refuse_foreign_views(const std::string& path, sqlite::Database& database) {
  sqlite::Statement views(database, "SELECT name FROM sqlite_master WHERE type = 'view' AND (name LIKE 'CUPTI\\_%' "
                                    "ESCAPE '\\' OR name IN ('StringIds', 'StringTable', 'NVTX_EVENTS', "
                                    "'TARGET_INFO_GPU', 'TARGET_INFO_CUDA_DEVICE', 'TARGET_INFO_SESSION_START_TIME', "
                                    "'SCHED_EVENTS', 'ENUM_SAMPLING_THREAD_STATE', 'ENUM_SCHEDULING_THREAD_BLOCK'))");
  if (views.step()) {
    throw TraceError::bad_input(path, "contains view " + std::string(views.column_text(0)) +
                                          " in place of a table; gpuprof never runs code stored in a trace file");
  }
}

SourceFormat detect_sqlite(const std::string& path) {
  // The same sentence for a truncated file here as when the trace is opened.
  trace::check_sqlite_file(path);
  sqlite::Database database(path, sqlite::OpenMode::read_only);
  // A view or trigger in place of our tables would make this look foreign; say what it is.
  trace::refuse_stored_code(database);
  refuse_foreign_views(path, database);
  if (has_gpuprof_mark(database)) return SourceFormat::gpuprof;
  if (has_table_prefix(database, "CUPTI_ACTIVITY_KIND_")) {
    if (database.has_table("StringIds")) return SourceFormat::nsys;
    if (database.has_table("StringTable")) return SourceFormat::nvprof;
  }
  throw TraceError::bad_input(path, "is a SQLite database from another tool (neither a gpuprof trace, an Nsight "
                                    "Systems export nor an nvprof database)");
}

}  // namespace

std::string_view to_string(SourceFormat format) {
  switch (format) {
    case SourceFormat::kineto: return "kineto";
    case SourceFormat::nsys: return "nsys";
    case SourceFormat::nvprof: return "nvprof";
    case SourceFormat::gpuprof: return "gpuprof";
  }
  return "unknown";
}

std::optional<SourceFormat> parse_source_format(std::string_view name) {
  if (name == "kineto" || name == "pytorch") return SourceFormat::kineto;
  if (name == "nsys") return SourceFormat::nsys;
  if (name == "nvprof") return SourceFormat::nvprof;
  return std::nullopt;
}

SourceFormat detect_source_format(const std::string& path) {
  check_input_file(path);
  const std::string head = read_head(path, 64);
  if (head.empty()) throw TraceError::bad_input(path, "is empty");
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
    if (starts_like_json_object(read_gzip_head(path))) return SourceFormat::kineto;
    throw TraceError::bad_input(path, "is a gzip file that does not hold a JSON trace");
  }
  if (head.size() >= 16 && std::memcmp(head.data(), "SQLite format 3", 16) == 0) return detect_sqlite(path);
  if (starts_like_json_object(head)) return SourceFormat::kineto;
  throw TraceError::bad_input(path, "is not a trace gpuprof can read (expected Kineto JSON, an Nsight Systems or "
                                    "nvprof SQLite file, or a gpuprof trace)");
}

}  // namespace gpuprof::importers
