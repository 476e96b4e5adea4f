#include "gpuprof/comparison/kernel_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuprof::comparison {
namespace {

struct KernelTotals {
  std::string short_name, category;
  std::int64_t total_ns = 0, instances = 0;
};

// Step windows over every device of every rank; a device without steps counts
// its activity span as one.
std::int64_t device_steps(const job::JobAnalysis& job) {
  std::int64_t count = 0;
  for (const auto& rank : job.ranks) {
    for (const auto& device : rank.analysis.devices) count += std::max<std::int64_t>(device.steps, 1);
  }
  return std::max<std::int64_t>(count, 1);
}

std::map<std::string, KernelTotals> kernel_totals(const job::JobAnalysis& job) {
  std::map<std::string, KernelTotals> totals;
  for (const auto& rank : job.ranks) {
    for (const auto& row : rank.analysis.kernels.kernels) {
      auto& entry = totals[row.name];
      entry.short_name = row.short_name;
      entry.category = row.category;
      entry.total_ns += row.stats.total_ns;
      entry.instances += row.stats.instances;
    }
  }
  return totals;
}

}  // namespace

std::vector<KernelChange> diff_kernels(const job::JobAnalysis& base, const job::JobAnalysis& other, std::size_t top) {
  const auto base_totals = kernel_totals(base), other_totals = kernel_totals(other);
  const auto base_steps = static_cast<double>(device_steps(base));
  const auto other_steps = static_cast<double>(device_steps(other));
  std::map<std::string, KernelChange> changes;
  for (const auto& [name, totals] : base_totals) {
    auto& change = changes[name];
    change.name = name, change.short_name = totals.short_name, change.category = totals.category;
    change.base_ns_per_step = static_cast<double>(totals.total_ns) / base_steps;
    change.base_instances_per_step = static_cast<double>(totals.instances) / base_steps;
  }
  for (const auto& [name, totals] : other_totals) {
    auto& change = changes[name];
    change.name = name, change.short_name = totals.short_name, change.category = totals.category;
    change.other_ns_per_step = static_cast<double>(totals.total_ns) / other_steps;
    change.other_instances_per_step = static_cast<double>(totals.instances) / other_steps;
  }
  std::vector<KernelChange> result;
  for (auto& [name, change] : changes) {
    change.delta_ns_per_step = change.other_ns_per_step - change.base_ns_per_step;
    result.push_back(std::move(change));
  }
  std::stable_sort(result.begin(), result.end(), [](const KernelChange& a, const KernelChange& b) {
    return std::abs(a.delta_ns_per_step) > std::abs(b.delta_ns_per_step);
  });
  if (top > 0 && result.size() > top) result.resize(top);
  return result;
}

}  // namespace gpuprof::comparison
