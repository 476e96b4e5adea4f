#include "gpuprof/predict/gpu_topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// Terminals print the header's underline as ANSI escapes ("\x1b[4mGPU0 ... \x1b[0m"): dropped before splitting.
std::string without_escapes(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b') {
      while (i < line.size() && line[i] != 'm') ++i;
      continue;
    }
    out += line[i];
  }
  return out;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const auto start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// "GPU12" -> 12; anything else -> nothing.
std::optional<std::int32_t> gpu_index(std::string_view word) {
  if (!word.starts_with("GPU") || word.size() == 3 || word.size() > 8) return std::nullopt;
  std::int32_t index = 0;
  const auto* end = word.data() + word.size();
  const auto [ptr, error] = std::from_chars(word.data() + 3, end, index);
  if (error != std::errc() || ptr != end || index < 0) return std::nullopt;
  return index;
}

std::optional<PathKind> path_kind(std::string_view word) {
  if (word == "X") return PathKind::self;
  if (word == "PIX") return PathKind::pix;
  if (word == "PXB") return PathKind::pxb;
  if (word == "PHB") return PathKind::phb;
  if (word == "NODE") return PathKind::node;
  if (word == "SYS" || word == "SOC") return PathKind::sys;
  if (word.starts_with("NV") && word.size() > 2 && word.size() <= 4 &&
      std::all_of(word.begin() + 2, word.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return PathKind::nvlink;
  return std::nullopt;
}

[[noreturn]] void refuse(const std::string& name, std::size_t line, const std::string& why) {
  throw TraceError::bad_input(name, fmt::format("topology (nvidia-smi topo -m), line {}: {}", line, why));
}

// The header's GPU columns: GPU0 to GPUn-1 in order, nothing else before them.
std::int32_t header_gpus(const std::vector<std::string>& words, const std::string& name, std::size_t line) {
  std::int32_t count = 0;
  for (const auto& word : words) {
    const auto index = gpu_index(word);
    if (!index) break;
    if (*index != count) refuse(name, line, fmt::format("the header's GPU columns are not GPU0, GPU1, ... in order "
                                                        "('{}')", word));
    if (++count > kMaxTopologyGpus) refuse(name, line, fmt::format("more than {} GPUs", kMaxTopologyGpus));
  }
  return count;
}

}  // namespace

PathKind GpuTopology::farthest(std::int32_t count) const {
  PathKind worst = PathKind::self;
  const auto n = std::min(count, gpus());
  for (std::int32_t a = 0; a < n; ++a)
    for (std::int32_t b = 0; b < n; ++b) worst = std::max(worst, path[a][b]);
  return worst;
}

GpuTopology GpuTopology::visible(const std::vector<std::int32_t>& gpus) const {
  GpuTopology seen;
  seen.source = source;
  std::vector<bool> taken(path.size(), false);
  for (const auto gpu : gpus) {
    if (gpu < 0 || gpu >= this->gpus() || taken[gpu])
      throw TraceError::bad_input(source, fmt::format("GPU{} is not a GPU of this topology, or is given twice", gpu));
    taken[gpu] = true;
  }
  for (const auto a : gpus) {
    seen.path.emplace_back();
    for (const auto b : gpus) seen.path.back().push_back(path[a][b]);
  }
  return seen;
}

GpuTopology parse_topology(std::string_view text, const std::string& name) {
  GpuTopology topology;
  topology.source = name;
  std::int32_t columns = 0;
  std::vector<bool> seen;
  std::size_t number = 0, start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const auto words = words_of(without_escapes(text.substr(start, end - start)));
    start = end + 1, ++number;
    if (words.empty()) continue;
    if (columns == 0) {
      columns = header_gpus(words, name, number);
      if (columns == 0) refuse(name, number, "expected the header GPU0 GPU1 ... before any row");
      topology.path.assign(columns, std::vector<PathKind>(columns, PathKind::self));
      seen.assign(columns, false);
      continue;
    }
    const auto row = gpu_index(words.front());
    if (!row) {
      if (std::find(seen.begin(), seen.end(), false) == seen.end()) break;  // the legend after the matrix
      refuse(name, number, fmt::format("expected the row of GPU{}, got '{}'",
                                       std::find(seen.begin(), seen.end(), false) - seen.begin(), words.front()));
    }
    if (*row >= columns)
      refuse(name, number, fmt::format("GPU{} is not in the header (GPU0 to GPU{})", *row, columns - 1));
    if (seen[*row]) refuse(name, number, fmt::format("a second row for GPU{}", *row));
    if (static_cast<std::int32_t>(words.size()) < columns + 1)
      refuse(name, number, fmt::format("GPU{}'s row has {} of its {} cells", *row, words.size() - 1, columns));
    for (std::int32_t b = 0; b < columns; ++b) {
      const auto kind = path_kind(words[b + 1]);
      if (!kind) refuse(name, number, fmt::format("unknown path '{}' between GPU{} and GPU{}", words[b + 1], *row, b));
      if ((*kind == PathKind::self) != (b == *row))
        refuse(name, number, fmt::format("'{}' between GPU{} and GPU{}: X is a GPU with itself only", words[b + 1],
                                         *row, b));
      topology.path[*row][b] = *kind;
    }
    seen[*row] = true;
  }
  if (columns == 0) refuse(name, number, "no GPU matrix");
  if (const auto missing = std::find(seen.begin(), seen.end(), false); missing != seen.end())
    refuse(name, number, fmt::format("no row for GPU{}", missing - seen.begin()));
  for (std::int32_t a = 0; a < columns; ++a)
    for (std::int32_t b = a + 1; b < columns; ++b)
      if (topology.path[a][b] != topology.path[b][a])
        refuse(name, number, fmt::format("GPU{} to GPU{} is {} but GPU{} to GPU{} is {}", a, b,
                                         to_string(topology.path[a][b]), b, a, to_string(topology.path[b][a])));
  return topology;
}

GpuTopology read_topology_file(const std::string& path) {
  const auto text = read_text_input(path, "topology file (nvidia-smi topo -m)", {std::size_t{1} << 20, 64 << 10});
  return parse_topology(text, path);
}

std::string_view to_string(PathKind kind) {
  switch (kind) {
    case PathKind::self:
      return "X";
    case PathKind::nvlink:
      return "NV";
    case PathKind::pix:
      return "PIX";
    case PathKind::pxb:
      return "PXB";
    case PathKind::phb:
      return "PHB";
    case PathKind::node:
      return "NODE";
    case PathKind::sys:
      return "SYS";
  }
  return "?";
}

bool beyond_one_switch(PathKind kind) { return kind > PathKind::pix; }

}  // namespace gpuprof::predict
