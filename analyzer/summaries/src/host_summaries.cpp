#include "gpuprof/summaries/host_summaries.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <string>
#include <utility>

namespace gpuprof::summaries {
namespace {

template <typename Groups, typename Namer>
std::vector<NamedDurations> rows_of(Groups& groups, Namer&& name_of) {
  std::vector<NamedDurations> rows;
  rows.reserve(groups.size());
  for (auto& [key, durations] : groups) rows.push_back({name_of(key), analysis::duration_stats(durations), 0});
  finish_named_rows(rows);
  return rows;
}

std::int64_t duration(const trace::HostColumns& table, std::size_t row) {
  return std::max<std::int64_t>(0, table.end_ns[row] - table.start_ns[row]);
}

}  // namespace

std::vector<NamedDurations> range_summary(const trace::TraceModel& model) {
  const auto& ranges = model.ranges;
  // Keyed by (domain, name) ids packed in 64 bits: a hash lookup per range.
  std::unordered_map<std::uint64_t, std::vector<std::int64_t>> groups;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0) continue;
    const auto key = (std::uint64_t{ranges.domain[row]} << 32) | ranges.name[row];
    groups[key].push_back(duration(ranges, row));
  }
  return rows_of(groups, [&](std::uint64_t key) {
    const auto domain = static_cast<trace::StringId>(key >> 32);
    const std::string name(model.string(static_cast<trace::StringId>(key & 0xffffffffu)));
    return domain == trace::kNoString ? name : std::string(model.string(domain)) + ":" + name;
  });
}

std::vector<NamedDurations> api_summary(const trace::TraceModel& model) {
  const auto& calls = model.api_calls;
  std::unordered_map<trace::StringId, std::vector<std::int64_t>> groups;
  for (std::size_t row = 0; row < calls.size(); ++row) groups[calls.name[row]].push_back(duration(calls, row));
  return rows_of(groups, [&](trace::StringId name) { return std::string(model.string(name)); });
}

}  // namespace gpuprof::summaries
