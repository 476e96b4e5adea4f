#include "gpuprof/predict/nccl_tests_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <vector>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// What a measured all-reduce can be: a message up to 1 TiB, a time from 1 ns to
// 10,000 s, a bus bandwidth under 100,000 GB/s (fifty times NVLink 5). Beyond
// them a row is an edit or damage, and fitting it would predict nonsense.
constexpr double kMaxMessageBytes = 1099511627776.0;
constexpr double kMinTimeNs = 1.0, kMaxTimeNs = 1e13;
constexpr double kMaxBusGbps = 1e5;
constexpr std::int32_t kMaxTableGpus = 65536;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Calls `each(line, number)` for every line of `text`, without copying it.
template <typename Each>
void for_each_line(std::string_view text, Each&& each) {
  std::size_t start = 0, number = 1;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    each(text.substr(start, end - start), number++);
    start = end + 1;
  }
}

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const auto start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
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

std::optional<double> number_of(const std::string& word) {
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

// `^#\s+Rank\s+\d+\s`, scanned by hand: a regex engine that recurses per
// character overflows the stack on a long line of spaces or digits.
bool is_rank_line(std::string_view line) {
  std::size_t i = 0;
  const auto run = [&](auto&& accept) {
    const auto start = i;
    while (i < line.size() && accept(line[i])) ++i;
    return i > start;
  };
  if (line.empty() || line[0] != '#') return false;
  ++i;
  if (!run(is_space) || !line.substr(i).starts_with("Rank")) return false;
  i += 4;
  return run(is_space) && run(is_digit) && i < line.size() && is_space(line[i]);
}

std::int32_t gpu_count(std::string_view text) {
  std::int32_t ranks = 0;
  for_each_line(text, [&](std::string_view line, std::size_t) {
    if (is_rank_line(strip_mpi_prefix(line)) && ranks < kMaxTableGpus + 1) ++ranks;
  });
  return ranks;
}

// One point per size, its time the mean of the rows of that size: a file of two
// runs repeats every size, and two points at one size made the curve's latency
// estimate 0/0 (NaN) (found by fuzz_link_file).
std::vector<AllReducePoint> merged_by_size(std::vector<AllReducePoint> points) {
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  std::vector<AllReducePoint> merged;
  std::size_t rows = 0;
  for (const auto& point : points) {
    if (!merged.empty() && merged.back().bytes == point.bytes) {
      ++rows;
      merged.back().time_ns += (point.time_ns - merged.back().time_ns) / static_cast<double>(rows);
    } else {
      merged.push_back(point), rows = 1;
    }
  }
  return merged;
}

// A measured point, or bad input naming the row when it cannot be a measurement.
AllReducePoint checked_point(double bytes, double time_ns, std::int32_t gpus, const std::string& source,
                             std::size_t line) {
  const auto refuse = [&](const std::string& problem) {
    throw TraceError::bad_input(source, fmt::format("line {}: {}; not a measured all-reduce", line, problem));
  };
  if (bytes < 1 || bytes > kMaxMessageBytes || bytes != std::floor(bytes))
    refuse(fmt::format("a size of {} bytes (a whole number from 1 B to 1 TiB)", bytes));
  if (time_ns < kMinTimeNs || time_ns > kMaxTimeNs)
    refuse(fmt::format("a time of {} ns (from 1 ns to 10,000 s)", time_ns));
  if (bytes * all_reduce_factor(gpus) / time_ns > kMaxBusGbps)
    refuse(fmt::format("{} bytes in {} ns is over {} GB/s", bytes, time_ns, kMaxBusGbps));
  return {static_cast<std::int64_t>(bytes), time_ns};
}

struct Row {
  double bytes = 0, time_us = 0;
  std::size_t line = 0;
  std::vector<double> ratios;  // busbw / algbw of each placement, where algbw is large enough to tell
};

std::optional<Row> data_row(const std::vector<std::string>& words, const Columns& columns, std::size_t width) {
  if (words.size() != width) return std::nullopt;
  const auto bytes = number_of(words[columns.size]);
  if (!bytes || *bytes <= 0) return std::nullopt;
  Row row{*bytes, 0, {}};
  std::size_t times = 0;
  for (std::size_t k = 0; k < columns.time.size(); ++k) {
    const auto time = number_of(words[columns.time[k]]);
    const auto algbw = number_of(words[columns.algbw[k]]), busbw = number_of(words[columns.busbw[k]]);
    if (!time || *time <= 0) continue;
    row.time_us += *time, ++times;
    if (algbw && busbw && *algbw > 0.5) row.ratios.push_back(*busbw / *algbw);
  }
  if (times == 0) return std::nullopt;
  row.time_us /= static_cast<double>(times);
  return row;
}

// The n of the first `GPU<n>` in the file name; 0 when there is none. A
// number past kMaxTableGpus is refused rather than read (stoi threw on it).
std::int32_t gpus_in_name(const std::string& source) {
  const auto name = std::filesystem::path(source).filename().string();
  for (auto at = name.find("GPU"); at != std::string::npos; at = name.find("GPU", at + 1)) {
    auto end = at + 3;
    while (end < name.size() && is_digit(name[end])) ++end;
    if (end == at + 3) continue;
    const std::string_view digits(name.data() + at + 3, end - at - 3);
    std::int32_t gpus = 0;
    const auto [ptr, error] = std::from_chars(digits.data(), digits.data() + digits.size(), gpus);
    if (error != std::errc() || gpus > kMaxTableGpus)
      throw TraceError::bad_input(source, fmt::format("the file name says GPU{}; a GPU count is at most {}",
                                                      digits.substr(0, 12), kMaxTableGpus));
    return gpus;
  }
  return 0;
}

std::vector<std::string> split_cells(std::string_view line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (start <= line.size()) {
    auto end = line.find(',', start);
    if (end == std::string_view::npos) end = line.size();
    cells.emplace_back(line.substr(start, end - start));
    start = end + 1;
  }
  if (line.ends_with(',')) cells.pop_back();  // as getline(row, cell, ',') read them
  return cells;
}

}  // namespace

AllReduceTable parse_nccl_tests(std::string_view text, const std::string& source) {
  AllReduceTable table;
  table.source = source;
  table.gpus = gpu_count(text);
  std::optional<Columns> columns;
  std::size_t width = 0;
  std::vector<double> ratios;
  std::vector<Row> rows;
  for_each_line(text, [&](std::string_view raw, std::size_t number) {
    const auto line = strip_mpi_prefix(raw);
    const auto words = split_words(line);
    if (words.empty()) return;
    if (words.front().starts_with("#")) {
      if (auto header = header_columns(header_words(line))) columns = header, width = header_words(line).size();
      return;
    }
    if (!columns) return;
    if (auto row = data_row(words, *columns, width)) {
      row->line = number;
      ratios.insert(ratios.end(), row->ratios.begin(), row->ratios.end());
      rows.push_back(std::move(*row));
    }
  });
  if (rows.empty()) throw TraceError::bad_input(source, "no nccl-tests result table found");
  if (table.gpus < 2) throw TraceError::bad_input(source, "an all-reduce on fewer than 2 GPUs says nothing of a link");
  if (table.gpus > kMaxTableGpus)
    throw TraceError::bad_input(source, fmt::format("names more than {} ranks; not one all_reduce_perf run", kMaxTableGpus));
  for (const auto& row : rows)
    table.points.push_back(checked_point(row.bytes, row.time_us * 1'000.0, table.gpus, source, row.line));
  table.points = merged_by_size(std::move(table.points));
  const double expected = all_reduce_factor(table.gpus);
  for (const double ratio : ratios)
    if (std::abs(ratio - expected) > 0.05 * expected)
      throw TraceError::bad_input(source, "not an all-reduce (busbw/algbw is not 2(N-1)/N): run all_reduce_perf");
  return table;
}

AllReduceTable parse_allreduce_lut(std::string_view text, const std::string& source) {
  AllReduceTable table;
  table.source = source;
  table.gpus = gpus_in_name(source);
  if (table.gpus < 2) throw TraceError::bad_input(source, "the GPU count is not in the file name (AR_GPU<n>_...)");
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (number == 1) return;  // header
    if (line.ends_with('\r')) line.remove_suffix(1);
    const auto cells = split_cells(line);
    if (cells.size() < 5) return;
    const auto bytes = number_of(cells[0]), time = number_of(cells[cells.size() - 2]);
    if (bytes && time && *bytes > 0 && *time > 0)
      table.points.push_back(checked_point(*bytes, *time, table.gpus, source, number));
  });
  if (table.points.empty()) throw TraceError::bad_input(source, "no rows in the all-reduce look-up table");
  table.points = merged_by_size(std::move(table.points));
  return table;
}

AllReduceTable read_allreduce_file(const std::string& path) {
  const auto text = read_text_input(path, "link file (all_reduce_perf output or all-reduce look-up table)");
  if (text.starts_with("size(B),")) return parse_allreduce_lut(text, path);
  return parse_nccl_tests(text, path);
}

}  // namespace gpuprof::predict
