#include "gpuprof/predict/nccl_tests_reader.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream stream{std::string(line)};
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

// MPI launchers prefix every line with the rank and stream it came from.
std::string_view strip_mpi_prefix(std::string_view line) {
  if (line.starts_with("[")) {
    const auto end = line.find(">:");
    if (end != std::string_view::npos) return line.substr(end + 2);
  }
  return line;
}

std::optional<double> number(const std::string& word) {
  double value = 0;
  const auto* end = word.data() + word.size();
  const auto [ptr, ec] = std::from_chars(word.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

struct Columns {
  std::size_t size = 0, count = 0;
  std::vector<std::size_t> time, algbw, busbw;
};

// The header row names the columns: the older layout has `error`, the newer one `root` and `#wrong`.
std::optional<Columns> header_columns(const std::vector<std::string>& words) {
  Columns columns;
  bool has_size = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "size") columns.size = i, has_size = true;
    if (words[i] == "time") columns.time.push_back(i);
    if (words[i] == "algbw") columns.algbw.push_back(i);
    if (words[i] == "busbw") columns.busbw.push_back(i);
  }
  if (!has_size || columns.time.empty() || columns.time.size() != columns.busbw.size() ||
      columns.algbw.size() != columns.busbw.size())
    return std::nullopt;
  return columns;
}

// The header's words without the leading '#', so that they line up with data rows.
std::vector<std::string> header_words(std::string_view line) {
  auto words = split_words(line);
  if (!words.empty() && words.front() == "#")
    words.erase(words.begin());
  else if (!words.empty() && words.front().starts_with("#"))
    words.front().erase(0, 1);
  return words;
}

std::int32_t gpu_count(std::string_view text) {
  static const std::regex rank_line(R"(^#\s+Rank\s+\d+\s)");
  std::int32_t ranks = 0;
  std::istringstream stream{std::string(text)};
  for (std::string line; std::getline(stream, line);)
    if (std::regex_search(std::string(strip_mpi_prefix(line)), rank_line)) ++ranks;
  return ranks;
}

struct Row {
  double bytes = 0, time_us = 0;
  std::vector<double> ratios;  // busbw / algbw of each placement, where algbw is large enough to tell
};

std::optional<Row> data_row(const std::vector<std::string>& words, const Columns& columns, std::size_t width) {
  if (words.size() != width) return std::nullopt;
  const auto bytes = number(words[columns.size]);
  if (!bytes || *bytes <= 0) return std::nullopt;
  Row row{*bytes, 0, {}};
  std::size_t times = 0;
  for (std::size_t k = 0; k < columns.time.size(); ++k) {
    const auto time = number(words[columns.time[k]]);
    const auto algbw = number(words[columns.algbw[k]]), busbw = number(words[columns.busbw[k]]);
    if (!time || *time <= 0) continue;
    row.time_us += *time, ++times;
    if (algbw && busbw && *algbw > 0.5) row.ratios.push_back(*busbw / *algbw);
  }
  if (times == 0) return std::nullopt;
  row.time_us /= static_cast<double>(times);
  return row;
}

}  // namespace

AllReduceTable parse_nccl_tests(std::string_view text, const std::string& source) {
  AllReduceTable table;
  table.source = source;
  table.gpus = gpu_count(text);
  std::optional<Columns> columns;
  std::size_t width = 0;
  std::vector<double> ratios;
  std::istringstream stream{std::string(text)};
  for (std::string raw; std::getline(stream, raw);) {
    const auto line = strip_mpi_prefix(raw);
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words.front().starts_with("#")) {
      if (auto header = header_columns(header_words(line))) columns = header, width = header_words(line).size();
      continue;
    }
    if (!columns) continue;
    if (const auto row = data_row(words, *columns, width)) {
      table.points.push_back({static_cast<std::int64_t>(row->bytes), row->time_us * 1'000.0});
      ratios.insert(ratios.end(), row->ratios.begin(), row->ratios.end());
    }
  }
  if (table.points.empty()) throw TraceError::bad_input(source, "no nccl-tests result table found");
  if (table.gpus < 2) throw TraceError::bad_input(source, "an all-reduce on fewer than 2 GPUs says nothing of a link");
  const double expected = all_reduce_factor(table.gpus);
  for (const double ratio : ratios)
    if (std::abs(ratio - expected) > 0.05 * expected)
      throw TraceError::bad_input(source, "not an all-reduce (busbw/algbw is not 2(N-1)/N): run all_reduce_perf");
  return table;
}

AllReduceTable parse_allreduce_lut(std::string_view text, const std::string& source) {
  static const std::regex gpus_in_name(R"(GPU(\d+))");
  std::smatch match;
  AllReduceTable table;
  table.source = source;
  if (std::regex_search(source, match, gpus_in_name)) table.gpus = std::stoi(match[1].str());
  std::istringstream stream{std::string(text)};
  std::string line;
  std::getline(stream, line);  // header
  while (std::getline(stream, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() < 5) continue;
    const auto bytes = number(cells[0]), time = number(cells[cells.size() - 2]);
    if (bytes && time && *bytes > 0 && *time > 0) table.points.push_back({static_cast<std::int64_t>(*bytes), *time});
  }
  if (table.points.empty()) throw TraceError::bad_input(source, "no rows in the all-reduce look-up table");
  if (table.gpus < 2) throw TraceError::bad_input(source, "the GPU count is not in the file name (AR_GPU<n>_...)");
  return table;
}

AllReduceTable read_allreduce_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceError::bad_input(path, "cannot read the link file");
  std::ostringstream content;
  content << file.rdbuf();
  const auto text = content.str();
  if (text.starts_with("size(B),")) return parse_allreduce_lut(text, path);
  return parse_nccl_tests(text, path);
}

}  // namespace gpuprof::predict
