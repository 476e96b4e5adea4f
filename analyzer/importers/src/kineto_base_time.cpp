#include "kineto_base_time.hpp"

#include <fstream>
#include <string_view>

#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

// Far more than the closing fields PyTorch writes after the last event.
constexpr std::streamoff kTailBytes = 64 * 1024;

std::string file_tail(std::ifstream& file) {
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  if (size <= 0) return {};
  const std::streamoff start = size > kTailBytes ? size - kTailBytes : 0;
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  file.seekg(start);
  file.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  tail.resize(static_cast<std::size_t>(file.gcount()));
  return tail;
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

std::optional<std::int64_t> guess_kineto_base_time(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[2] = {};
  if (!file.read(magic, 2) || (magic[0] == '\x1f' && magic[1] == '\x8b')) return std::nullopt;  // gzip, or tiny
  const std::string tail = file_tail(file);
  constexpr std::string_view kKey = "\"baseTimeNanoseconds\"";
  const auto key = std::string_view(tail).rfind(kKey);
  if (key == std::string_view::npos) return std::nullopt;
  std::size_t i = key + kKey.size();
  while (i < tail.size() && is_space(tail[i])) ++i;
  if (i == tail.size() || tail[i] != ':') return std::nullopt;
  ++i;
  while (i < tail.size() && is_space(tail[i])) ++i;
  std::size_t end = i;
  while (end < tail.size() && (tail[end] == '-' || tail[end] == '.' || (tail[end] >= '0' && tail[end] <= '9'))) ++end;
  return integer_from_text(std::string_view(tail).substr(i, end - i));
}

}  // namespace gpuprof::importers
