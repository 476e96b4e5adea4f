#include "markdown_tables.hpp"

#include <cstddef>

namespace gpuprof::testing {

std::string first_row_with_other_columns(const std::string& markdown) {
  std::size_t header_pipes = 0, start = 0;  // 0: not inside a table
  while (start < markdown.size()) {
    auto end = markdown.find('\n', start);
    if (end == std::string::npos) end = markdown.size();
    const auto line = markdown.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] != '|') {
      header_pipes = 0;
      continue;
    }
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    if (header_pipes == 0) header_pipes = pipes;
    if (pipes != header_pipes) return line;
  }
  return {};
}

}  // namespace gpuprof::testing
