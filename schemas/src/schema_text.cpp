#include "schema_text.hpp"

#include <stdexcept>

#include "gpuprof/trace/schema_version.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {
namespace {

constexpr std::string_view kTableLine = "-- table: ";

std::string create_statement(std::string_view table) {
  std::string statement;
  for_each_table([&]<typename Row>() {
    if (TableDeclaration<Row>::name == table) statement = create_table_sql<Row>() + ";";
  });
  if (statement.empty()) throw std::logic_error("trace.sql names an undeclared table: " + std::string(table));
  return statement;
}

}  // namespace

std::string expand_table_lines(std::string_view text) {
  std::string expanded;
  expanded.reserve(text.size() * 2);
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.starts_with(kTableLine)) {
      expanded += create_statement(line.substr(kTableLine.size()));
    } else {
      expanded += line;
    }
    if (end == std::string_view::npos) break;
    expanded += '\n';
    text.remove_prefix(end + 1);
  }
  return expanded;
}

std::string_view schema_sql() {
  // Never destroyed, as every static the trace writer uses: see chunk_guard_triggers().
  static const auto* text = new std::string(expand_table_lines(schema_template_sql()));
  return *text;
}

}  // namespace gpuprof::trace
