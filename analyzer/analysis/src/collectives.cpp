#include "gpuprof/analysis/collectives.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gpuprof::analysis {
namespace {

constexpr std::size_t kAmbiguous = std::numeric_limits<std::size_t>::max();

struct KeyHash {
  std::size_t operator()(const std::pair<std::int32_t, std::int64_t>& key) const {
    return std::hash<std::int64_t>{}(key.second) * 31 + std::hash<std::int32_t>{}(key.first);
  }
};

// Kernel row of each (device, correlation id); kAmbiguous when several kernels share it.
std::unordered_map<std::pair<std::int32_t, std::int64_t>, std::size_t, KeyHash> kernels_by_correlation(
    const trace::TraceModel& model) {
  std::unordered_map<std::pair<std::int32_t, std::int64_t>, std::size_t, KeyHash> rows;
  const auto& kernels = model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    if (kernels.correlation_id[row] == trace::kUnknown) continue;
    auto [found, inserted] = rows.try_emplace({kernels.device[row], kernels.correlation_id[row]}, row);
    if (!inserted) found->second = kAmbiguous;
  }
  return rows;
}

// Lower case without '_' and a leading "nccl" / "nccl:", so PyTorch's and NCCL's spellings meet.
std::string folded(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c != '_' && c != ':') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (out.starts_with("nccl")) out.erase(0, 4);
  return out;
}

std::optional<double> bandwidth(std::int64_t bytes, double mean_ns) {
  if (bytes == trace::kUnknown || mean_ns <= 0.0) return std::nullopt;
  return static_cast<double>(bytes) / mean_ns;
}

}  // namespace

std::string_view to_string(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_to_all: return "all_to_all";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::reduce: return "reduce";
    case CollectiveKind::send: return "send";
    case CollectiveKind::recv: return "recv";
    case CollectiveKind::other: break;
  }
  return "other";
}

CollectiveKind collective_kind(std::string_view name) {
  const std::string key = folded(name);
  const std::pair<const char*, CollectiveKind> prefixes[] = {
      {"allreduce", CollectiveKind::all_reduce},         {"allgather", CollectiveKind::all_gather},
      {"reducescatter", CollectiveKind::reduce_scatter}, {"alltoall", CollectiveKind::all_to_all},
      {"broadcast", CollectiveKind::broadcast},          {"send", CollectiveKind::send},
      {"recv", CollectiveKind::recv}};
  for (const auto& [prefix, kind] : prefixes) {
    if (key.starts_with(prefix)) return kind;
  }
  return key == "reduce" ? CollectiveKind::reduce : CollectiveKind::other;
}

std::optional<double> bus_bandwidth_factor(CollectiveKind kind, std::int64_t ranks) {
  if (ranks < 1) return std::nullopt;
  const double n = static_cast<double>(ranks);
  switch (kind) {
    case CollectiveKind::all_reduce: return 2.0 * (n - 1.0) / n;
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all: return (n - 1.0) / n;
    case CollectiveKind::broadcast:
    case CollectiveKind::reduce:
    case CollectiveKind::send:
    case CollectiveKind::recv: return 1.0;
    case CollectiveKind::other: break;
  }
  return std::nullopt;
}

std::optional<std::int64_t> operation_bytes(CollectiveKind kind, std::int64_t in_bytes, std::int64_t out_bytes) {
  // All-gather's whole array is its output and recv has only an output; every other kind is sized by its input.
  const bool by_output = kind == CollectiveKind::all_gather || kind == CollectiveKind::recv;
  const std::int64_t bytes = by_output ? out_bytes : in_bytes;
  if (kind == CollectiveKind::other || bytes == trace::kUnknown) return std::nullopt;
  return bytes;
}

CollectiveReport analyze_collectives(const trace::TraceModel& model) {
  CollectiveReport report;
  const auto& table = model.collectives;
  report.rows = static_cast<std::int64_t>(table.size());
  if (table.size() == 0) return report;
  const auto kernels = kernels_by_correlation(model);
  std::map<std::tuple<CollectiveKind, std::string, std::int64_t, std::int64_t>, CollectiveGroup> groups;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto found = kernels.find({table.device[row], table.correlation_id[row]});
    if (found == kernels.end()) { ++report.unmatched; continue; }
    if (found->second == kAmbiguous) { ++report.ambiguous; continue; }
    const std::size_t kernel = found->second;
    const auto source_name = model.string(table.name[row]);
    const auto kind = collective_kind(source_name);
    const std::string name = kind == CollectiveKind::other ? std::string(source_name) : std::string(to_string(kind));
    const auto bytes = operation_bytes(kind, table.in_bytes[row], table.out_bytes[row]).value_or(trace::kUnknown);
    auto& group = groups[{kind, name, table.group_size[row], bytes}];
    group.kind = kind, group.name = name, group.group_size = table.group_size[row], group.bytes = bytes;
    ++group.count;
    group.total_ns += model.kernels.end_ns[kernel] - model.kernels.start_ns[kernel];
  }
  for (auto& [key, group] : groups) {
    group.mean_ns = static_cast<double>(group.total_ns) / static_cast<double>(group.count);
    group.algorithm_gbps = bandwidth(group.bytes, group.mean_ns);
    const auto factor = bus_bandwidth_factor(group.kind, group.group_size);
    if (group.algorithm_gbps && factor) group.bus_gbps = *group.algorithm_gbps * *factor;
    report.groups.push_back(std::move(group));
  }
  return report;
}

}  // namespace gpuprof::analysis
