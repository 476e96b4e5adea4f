#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"

namespace gpuprof::report {

std::string render_csv(const ReportInput& input) {
  std::string out;
  bool first = true;
  for (const auto& table : build_tables(input, table_view(Format::csv, input))) {
    if (!first) out += "\n";
    first = false;
    out += "# " + table.id + "\n" + csv_table(table);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> render_csv_files(const ReportInput& input) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& table : build_tables(input, table_view(Format::csv, input))) files.emplace_back(table.id + ".csv", csv_table(table));
  return files;
}

}  // namespace gpuprof::report
