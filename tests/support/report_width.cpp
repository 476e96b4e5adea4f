#include "report_width.hpp"

#include <cstdint>
#include <sstream>

namespace gpuprof::testing {

std::string first_line_wider_than(const std::string& text, std::size_t width) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t columns = 0;
    for (const char c : line) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    if (columns > width) return std::to_string(columns) + " columns: " + line;
  }
  return {};
}

std::size_t lines_through_answer(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::size_t count = 0;
  bool in_answer = false;
  while (std::getline(lines, line)) {
    ++count;
    if (line.starts_with("  Answer: ")) {
      in_answer = true;
    } else if (in_answer && !line.starts_with("    ")) {
      return count - 1;  // the first line after the paragraph
    }
  }
  return in_answer ? count : SIZE_MAX;
}

}  // namespace gpuprof::testing
