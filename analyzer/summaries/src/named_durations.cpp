#include "gpuprof/summaries/named_durations.hpp"

#include <algorithm>

namespace gpuprof::summaries {

void finish_named_rows(std::vector<NamedDurations>& rows) {
  // In long double: a sum of int64 totals must not wrap, and only the shares are needed.
  long double all = 0;
  for (const auto& row : rows) all += static_cast<long double>(row.stats.total_ns);
  for (auto& row : rows) {
    row.percent = all > 0 ? static_cast<double>(100.0L * static_cast<long double>(row.stats.total_ns) / all) : 0.0;
  }
  std::sort(rows.begin(), rows.end(), [](const NamedDurations& a, const NamedDurations& b) {
    return a.stats.total_ns != b.stats.total_ns ? a.stats.total_ns > b.stats.total_ns : a.name < b.name;
  });
}

}  // namespace gpuprof::summaries
