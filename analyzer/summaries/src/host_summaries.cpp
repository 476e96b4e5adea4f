#include "gpuprof/summaries/host_summaries.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace gpuprof::summaries {
namespace {

template <typename Key, typename Namer>
std::vector<NamedDurations> rows_of(std::map<Key, std::vector<std::int64_t>>& groups, Namer&& name_of) {
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
  std::map<std::pair<trace::StringId, trace::StringId>, std::vector<std::int64_t>> groups;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0) continue;
    groups[{ranges.domain[row], ranges.name[row]}].push_back(duration(ranges, row));
  }
  return rows_of(groups, [&](const auto& key) {
    const std::string name(model.string(key.second));
    return key.first == trace::kNoString ? name : std::string(model.string(key.first)) + ":" + name;
  });
}

std::vector<NamedDurations> api_summary(const trace::TraceModel& model) {
  const auto& calls = model.api_calls;
  std::map<trace::StringId, std::vector<std::int64_t>> groups;
  for (std::size_t row = 0; row < calls.size(); ++row) groups[calls.name[row]].push_back(duration(calls, row));
  return rows_of(groups, [&](trace::StringId name) { return std::string(model.string(name)); });
}

}  // namespace gpuprof::summaries
