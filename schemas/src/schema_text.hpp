#pragma once

#include <string>
#include <string_view>

namespace gpuprof::trace {

// schemas/trace.sql as written, embedded at build time: each table declared in
// table_declarations.hpp stands there as one line `-- table: NAME`.
std::string_view schema_template_sql();

// `text` with every `-- table: NAME` line replaced by that table's CREATE TABLE
// statement. Throws std::logic_error for a name no declaration has, so a typo
// fails every test that writes a file instead of creating a file without it.
std::string expand_table_lines(std::string_view text);

}  // namespace gpuprof::trace
