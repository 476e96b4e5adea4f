#include "gpuprof/summaries/host_summaries.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <string>
#include <utility>

#include "gpuprof/analysis/grouped_values.hpp"

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
  // Name ids outside the string table (a hostile file) share one group past its end.
  const auto group_of = [&](std::size_t row) { return std::min<std::size_t>(calls.name[row], model.strings.size()); };
  auto grouped = analysis::group_values(calls.size(), model.strings.size() + 1, group_of,
                                        [&](std::size_t row) { return duration(calls, row); });
  std::vector<NamedDurations> rows;
  for (std::size_t name = 0; name < grouped.groups(); ++name) {
    const auto durations = grouped.group(name);
    if (durations.empty()) continue;
    rows.push_back({std::string(model.string(static_cast<trace::StringId>(name))), analysis::duration_stats(durations), 0});
  }
  finish_named_rows(rows);
  return rows;
}

}  // namespace gpuprof::summaries
