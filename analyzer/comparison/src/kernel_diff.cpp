#include "gpuprof/comparison/kernel_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuprof::comparison {
namespace {

struct Side {
  std::map<std::string, job::StepKernel> kernels;  // by full name, over every rank
  double windows = 1;                              // basis windows over every device of every rank
};

// Kernel time inside the windows the waterfall averages over (job::step_basis), so rows are per steady step.
Side side_of(const job::JobAnalysis& job) {
  Side side;
  std::int64_t windows = 0;
  for (const auto& rank : job.ranks) {
    windows += rank.step_basis_windows;
    for (const auto& kernel : rank.step_kernels) {
      auto& entry = side.kernels[kernel.name];
      entry.name = kernel.name, entry.short_name = kernel.short_name, entry.category = kernel.category;
      entry.total_ns += kernel.total_ns;
      entry.instances += kernel.instances;
    }
  }
  side.windows = static_cast<double>(std::max<std::int64_t>(windows, 1));
  return side;
}

bool larger_change(const KernelChange& a, const KernelChange& b) {
  return std::abs(a.delta_ns_per_step) > std::abs(b.delta_ns_per_step);
}

// Variants that share a short name add up to one family row, with the variants below it, numbered in name
// order (DESIGN.md, "Kernel names").
KernelChange family_of(std::vector<KernelChange> variants) {
  KernelChange family;
  family.name = family.short_name = variants.front().short_name;
  family.category = variants.front().category;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const auto& variant = variants[i];
    family.base_ns_per_step += variant.base_ns_per_step, family.other_ns_per_step += variant.other_ns_per_step;
    family.base_instances_per_step += variant.base_instances_per_step;
    family.other_instances_per_step += variant.other_instances_per_step;
    if (variant.category != family.category) family.category = "mixed";
    variants[i].short_name += " #" + std::to_string(i + 1);
  }
  family.delta_ns_per_step = family.other_ns_per_step - family.base_ns_per_step;
  std::stable_sort(variants.begin(), variants.end(), larger_change);
  family.variants = std::move(variants);
  return family;
}

}  // namespace

std::vector<KernelChange> diff_kernels(const job::JobAnalysis& base, const job::JobAnalysis& other, std::size_t top) {
  const auto base_side = side_of(base), other_side = side_of(other);
  std::map<std::string, KernelChange> changes;
  for (const auto& [side, is_base] : {std::pair{&base_side, true}, std::pair{&other_side, false}}) {
    for (const auto& [name, kernel] : side->kernels) {
      auto& change = changes[name];
      change.name = name, change.short_name = kernel.short_name, change.category = kernel.category;
      (is_base ? change.base_ns_per_step : change.other_ns_per_step) = static_cast<double>(kernel.total_ns) / side->windows;
      (is_base ? change.base_instances_per_step : change.other_instances_per_step) =
          static_cast<double>(kernel.instances) / side->windows;
    }
  }
  std::map<std::string, std::vector<KernelChange>> families;  // by short name; variants in full-name order
  for (auto& [name, change] : changes) {
    change.delta_ns_per_step = change.other_ns_per_step - change.base_ns_per_step;
    families[change.short_name].push_back(std::move(change));
  }
  std::vector<KernelChange> result;
  for (auto& [short_name, variants] : families) {
    result.push_back(variants.size() == 1 ? std::move(variants.front()) : family_of(std::move(variants)));
  }
  std::stable_sort(result.begin(), result.end(), larger_change);
  if (top > 0 && result.size() > top) result.resize(top);
  return result;
}

}  // namespace gpuprof::comparison
