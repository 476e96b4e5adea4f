#pragma once

#include <cstdint>
#include <string_view>

namespace gpuprof::trace {

// PRAGMA user_version holds major * 1000 + minor. A reader accepts every minor
// version of its major (minors only add columns and tables) and older majors it
// knows, and refuses newer majors.
inline constexpr std::int64_t kSchemaMajor = 1;
inline constexpr std::int64_t kSchemaMinor = 4;
inline constexpr std::int64_t kUserVersion = kSchemaMajor * 1000 + kSchemaMinor;
inline constexpr std::string_view kFormatName = "gpuprof.trace";

// The SQL that creates a trace file: schemas/trace.sql with the CREATE TABLE
// statements of the declared tables (schemas/src/table_declarations.hpp) in place.
std::string_view schema_sql();
// Indexes created when writing ends.
std::string_view index_sql();

}  // namespace gpuprof::trace
