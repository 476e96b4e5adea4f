// The lists of tables the reader and the writer walk, derived from the tables'
// declarations (table_declarations.hpp), so that a declared table cannot be
// missing from one of them or stand there under another name.

#include <algorithm>
#include <string>
#include <vector>

#include "event_chunks.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {
namespace {

struct DeclaredTable {
  std::string name;
  int since_minor;
  bool counted, chunked;
};

std::vector<DeclaredTable> declared_tables() {
  std::vector<DeclaredTable> tables;
  for_each_table([&tables]<typename Row>() {
    using Table = TableDeclaration<Row>;
    tables.push_back({std::string(Table::name), Table::options.since_minor, Table::options.counted,
                      Table::options.chunked});
  });
  return tables;
}

// The tables the schema creates that have no record type: they are read by hand (TraceFile) or hold chunks.
constexpr std::string_view kUndeclaredTables[] = {"meta", "strings", "collector_stats", "event_chunks"};

}  // namespace

// The lists are never destroyed, as every static the trace writer uses: the
// collector may finish a trace on another thread while the program exits.

const std::vector<std::string>& trace_tables() {
  static const auto* tables = [] {
    auto* names = new std::vector<std::string>(std::begin(kUndeclaredTables), std::end(kUndeclaredTables));
    for (const auto& table : declared_tables()) names->push_back(table.name);
    return names;
  }();
  return *tables;
}

const std::vector<std::string>& event_tables() {
  static const auto* tables = [] {
    auto declared = declared_tables();
    std::stable_sort(declared.begin(), declared.end(),
                     [](const DeclaredTable& a, const DeclaredTable& b) { return a.since_minor < b.since_minor; });
    auto* names = new std::vector<std::string>;
    for (const auto& table : declared) {
      if (table.counted) names->push_back(table.name);
    }
    return names;
  }();
  return *tables;
}

const std::vector<std::string>& chunked_tables() {
  static const auto* tables = [] {
    auto* names = new std::vector<std::string>;
    for (const auto& table : declared_tables()) {
      if (table.chunked) names->push_back(table.name);
    }
    return names;
  }();
  return *tables;
}

}  // namespace gpuprof::trace
