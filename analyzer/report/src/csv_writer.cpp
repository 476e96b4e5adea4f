#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::report {
namespace {

// Machine-readable: raw values (nanoseconds, bytes), not the human text.
std::string table_csv(const Table& table) {
  std::string out;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    out += (c ? "," : "") + escape_csv(table.columns[c], true);
  }
  out += "\n";
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + escape_csv(row[c].raw, !row[c].numeric);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_csv(const ReportInput& input) {
  std::string out;
  bool first = true;
  for (const auto& table : build_tables(input)) {
    if (!first) out += "\n";
    first = false;
    out += "# " + table.id + "\n" + table_csv(table);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> render_csv_files(const ReportInput& input) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& table : build_tables(input)) files.emplace_back(table.id + ".csv", table_csv(table));
  return files;
}

}  // namespace gpuprof::report
