#include "gpuprof/analysis/kernel_labels.hpp"

#include <map>

namespace gpuprof::analysis {

std::vector<std::string> kernel_labels(const std::vector<KernelSummaryRow>& rows, bool full_names) {
  const auto name_of = [full_names](const KernelSummaryRow& row) {
    return full_names || row.short_name.empty() ? row.name : row.short_name;
  };
  std::map<std::string, int> uses, seen;
  for (const auto& row : rows) ++uses[name_of(row)];
  std::vector<std::string> labels;
  labels.reserve(rows.size());
  for (const auto& row : rows) {
    auto label = name_of(row);
    if (uses[label] > 1) label += " #" + std::to_string(++seen[label]);
    labels.push_back(std::move(label));
  }
  return labels;
}

}  // namespace gpuprof::analysis
