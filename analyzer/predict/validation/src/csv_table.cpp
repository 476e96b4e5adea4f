#include "csv_table.hpp"

#include <fstream>
#include <sstream>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// Splits the whole text into records of fields; quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> records(const std::string& text) {
  std::vector<std::vector<std::string>> out(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.back().push_back(std::move(field)), field.clear();
    } else if (c == '\n') {
      out.back().push_back(std::move(field)), field.clear();
      out.emplace_back();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (!field.empty() || !out.back().empty()) out.back().push_back(field);
  if (out.back().empty()) out.pop_back();
  return out;
}

}  // namespace

std::vector<CsvRow> read_csv_table(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceError::bad_input(path, "cannot read the table");
  std::ostringstream content;
  content << file.rdbuf();
  const auto all = records(content.str());
  std::vector<CsvRow> rows;
  if (all.empty()) return rows;
  const auto& header = all.front();
  for (std::size_t r = 1; r < all.size(); ++r) {
    CsvRow row;
    for (std::size_t c = 0; c < header.size() && c < all[r].size(); ++c) row[header[c]] = all[r][c];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace gpuprof::predict
