#include "gpuprof/units/number_list.hpp"

#include <fmt/format.h>

#include <charconv>

namespace gpuprof::units {

std::optional<std::vector<std::int64_t>> parse_number_list(const std::string& text) {
  std::vector<std::int64_t> numbers;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::int64_t value = 0;
    const char* first = text.data() + start;
    const char* last = text.data() + end;
    const auto [pointer, error] = std::from_chars(first, last, value);
    if (first == last || error != std::errc() || pointer != last) return std::nullopt;
    numbers.push_back(value);
    start = end + 1;
  }
  return numbers;
}

std::string number_list_problem(const std::vector<std::int64_t>& values, const char* option, std::int64_t high) {
  if (values.empty()) return fmt::format("{}: give at least one value", option);
  for (const auto value : values) {
    if (value < 1 || value > high) return fmt::format("{}: {} is not between 1 and {}", option, value, high);
  }
  return {};
}

}  // namespace gpuprof::units
