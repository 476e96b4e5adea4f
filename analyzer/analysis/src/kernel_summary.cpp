#include "gpuprof/analysis/kernel_summary.hpp"

#include <algorithm>

#include "gpuprof/analysis/grouped_values.hpp"
#include "gpuprof/analysis/kernel_names.hpp"

namespace gpuprof::analysis {
namespace {

void sort_rows(std::vector<KernelSummaryRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const KernelSummaryRow& a, const KernelSummaryRow& b) {
    return a.stats.total_ns != b.stats.total_ns ? a.stats.total_ns > b.stats.total_ns : a.name < b.name;
  });
}

// `total` in double: the rows' times may each be near INT64_MAX (a hostile file), and an int64 sum of them wrapped.
void set_percent(std::vector<KernelSummaryRow>& rows, double total) {
  for (auto& row : rows) {
    row.percent = total > 0 ? 100.0 * static_cast<double>(row.stats.total_ns) / total : 0.0;
  }
}

bool is_comm(const std::vector<KernelCategory>& categories, trace::StringId id) {
  return id < categories.size() && categories[id] == KernelCategory::communication;
}

// Name ids outside the string table (a hostile file) share one slot past its end.
std::size_t slot(const trace::TraceModel& model, trace::StringId id) {
  return std::min<std::size_t>(id, model.strings.size());
}

// Kernel durations grouped by name in one array: computation names first, then
// communication names, so each category is also one contiguous range.
struct GroupedDurations {
  GroupedValues values;                       // group g holds the kernels of names[g]
  std::vector<trace::StringId> names;         // by group
  std::size_t communication_groups_begin = 0;  // the first communication group
  std::span<std::int64_t> category(bool communication) {
    const auto split = values.begin[communication_groups_begin];
    return communication ? std::span(values.values).subspan(split) : std::span(values.values).first(split);
  }
};

GroupedDurations group_by_name(const trace::TraceModel& model, const std::vector<KernelCategory>& categories) {
  const auto& kernels = model.kernels;
  std::vector<bool> present(model.strings.size() + 1, false);
  for (const auto id : kernels.name) present[slot(model, id)] = true;
  GroupedDurations grouped;
  std::vector<std::size_t> group_of_slot(present.size(), kNoGroup);
  for (const bool communication : {false, true}) {
    if (communication) grouped.communication_groups_begin = grouped.names.size();
    for (std::size_t id = 0; id < present.size(); ++id) {
      const auto name = static_cast<trace::StringId>(id);
      if (!present[id] || is_comm(categories, name) != communication) continue;
      group_of_slot[id] = grouped.names.size();
      grouped.names.push_back(name);
    }
  }
  grouped.values = group_values(
      kernels.size(), grouped.names.size(), [&](std::size_t row) { return group_of_slot[slot(model, kernels.name[row])]; },
      [&](std::size_t row) { return kernels.end_ns[row] - kernels.start_ns[row]; });
  return grouped;
}

std::vector<KernelSummaryRow> per_name(const trace::TraceModel& model, const NameClasses& classes,
                                       GroupedDurations& grouped) {
  const auto& categories = classes.categories;
  std::vector<KernelSummaryRow> rows;
  for (std::size_t group = 0; group < grouped.names.size(); ++group) {
    const auto id = grouped.names[group];
    KernelSummaryRow row;
    row.name = readable_kernel_name(model.string(id));
    row.short_name = short_kernel_name(row.name);
    row.category = std::string(to_string(is_comm(categories, id) ? KernelCategory::communication
                                                                  : KernelCategory::computation));
    if (id < classes.rules.size()) row.rule = classes.rules[id];
    row.stats = duration_stats(grouped.values.group(group));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<KernelSummaryRow> per_category(const trace::TraceModel& model, GroupedDurations& grouped) {
  std::vector<KernelSummaryRow> rows;
  const auto add = [&rows](const std::string& name, std::span<std::int64_t> durations) {
    if (!durations.empty()) rows.push_back({name, name, name, {}, duration_stats(durations), 0.0});
  };
  add("computation kernels", grouped.category(false));
  add("communication kernels", grouped.category(true));
  std::vector<std::int64_t> memsets;
  memsets.reserve(model.memsets.size());
  for (std::size_t row = 0; row < model.memsets.size(); ++row) {
    memsets.push_back(model.memsets.end_ns[row] - model.memsets.start_ns[row]);
  }
  add("memset", memsets);
  std::vector<std::vector<std::int64_t>> copies(trace::kCopyKindCount);
  for (std::size_t row = 0; row < model.memcpys.size(); ++row) {
    // The loader only keeps known kinds; a model built otherwise still must not index past the table.
    const auto kind = static_cast<std::size_t>(model.memcpys.copy_kind[row]);
    if (kind >= copies.size()) continue;
    copies[kind].push_back(model.memcpys.end_ns[row] - model.memcpys.start_ns[row]);
  }
  for (std::size_t kind = 0; kind < copies.size(); ++kind) {
    add("memcpy " + std::string(trace::to_string(static_cast<trace::CopyKind>(kind))), copies[kind]);
  }
  return rows;
}

}  // namespace

KernelSummary summarize_kernels(const trace::TraceModel& model, const std::vector<KernelCategory>& name_categories,
                                std::size_t top) {
  return summarize_kernels(model, NameClasses{name_categories, {}}, top);
}

KernelSummary summarize_kernels(const trace::TraceModel& model, const NameClasses& classes, std::size_t top) {
  KernelSummary summary;
  auto grouped = group_by_name(model, classes.categories);
  summary.kernels = per_name(model, classes, grouped);
  for (const auto& row : summary.kernels) {
    if (!row.rule.empty()) summary.comm_rules.push_back({row.name, row.short_name, row.rule});
  }
  std::sort(summary.comm_rules.begin(), summary.comm_rules.end(),
            [](const CommRuleRow& a, const CommRuleRow& b) { return a.name < b.name; });
  double kernel_total = 0;
  for (const auto& row : summary.kernels) kernel_total += static_cast<double>(row.stats.total_ns);
  set_percent(summary.kernels, kernel_total);
  sort_rows(summary.kernels);
  if (top > 0 && summary.kernels.size() > top) summary.kernels.resize(top);
  summary.categories = per_category(model, grouped);
  double all_total = 0;
  for (const auto& row : summary.categories) all_total += static_cast<double>(row.stats.total_ns);
  set_percent(summary.categories, all_total);
  sort_rows(summary.categories);
  return summary;
}

}  // namespace gpuprof::analysis
