#include "report_width.hpp"

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

}  // namespace gpuprof::testing
