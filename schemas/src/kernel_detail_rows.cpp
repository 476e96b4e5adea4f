#include "kernel_detail_rows.hpp"

#include <algorithm>

#include "row_rules.hpp"
#include "table_reads.hpp"

namespace gpuprof::trace {

void KernelDetailRows::add(const TraceModel& model, const KernelDetailRow& row) {
  const auto& kernels = model.kernels;
  if (!placement_) {
    placement_.emplace(kernels, model.kernel_streams);
    details_.grid.assign(kernels.size(), Dim3{});
    details_.block.assign(kernels.size(), Dim3{});
  }
  const auto at = placement_->place(row.device, row.stream, row.start_ns, row.end_ns);
  if (!at || kernels.name[*at] != row.name) {
    ++not_in_model_;
    return;
  }
  details_.grid[*at] = row.grid;
  details_.block[*at] = row.block;
}

namespace {

// The rules only a load with launch details applies: what made it leave out a kernel the model kept.
std::string detail_rules_broken(const LeftOutRows& left_out) {
  const auto base = kernel_summary_read().rules;
  std::string broken;
  for (const auto& [column, entry] : left_out) {
    // A named copy: Clang before 16 cannot capture a structured binding.
    const std::string& left_out_column = column;
    const bool base_rule = std::any_of(base.begin(), base.end(), [&left_out_column](const ColumnRule& rule) {
      return left_out_column == std::string("kernels.") + rule.name;
    });
    if (base_rule) continue;
    broken += (broken.empty() ? "" : "; ") + column + ": " + std::to_string(entry.rows) + " " + entry.reason;
  }
  return broken;
}

}  // namespace

KernelLaunchDetails KernelDetailRows::finish(const TraceModel& model, const LeftOutRows& left_out) && {
  const std::size_t kernels = model.kernels.size();
  const std::size_t placed = placement_ ? placement_->placed() : 0;
  if (not_in_model_ == 0 && placed == kernels) return std::move(details_);
  KernelLaunchDetails none;
  const auto broken = detail_rules_broken(left_out);
  if (not_in_model_ > 0 || broken.empty()) {
    none.problem = "the file changed since it was loaded (" + std::to_string(not_in_model_) + " kernels not loaded, " +
                   std::to_string(kernels - placed) + " loaded ones missing)";
  } else {
    none.problem = std::to_string(kernels - placed) + " of " + std::to_string(kernels) +
                   " kernels have launch details the rules leave out (" + broken + ")";
  }
  return none;
}

}  // namespace gpuprof::trace
