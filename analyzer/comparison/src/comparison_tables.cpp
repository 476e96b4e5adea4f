#include <fmt/format.h>

#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/report/cells.hpp"

namespace gpuprof::comparison {
namespace {

using report::Cell;
using report::Table;

Table runs_table(const RunComparison& comparison) {
  Table table{report::Section::devices, "runs", "Runs (steady-state step = mean step period per GPU)",
              {"Run", "Ranks", "GPUs", "Steps averaged", "Step time", "Batch", "Batch source", "Samples/s"}, {}};
  for (const auto* side : {&comparison.base, &comparison.other}) {
    const bool base = side == &comparison.base;
    table.rows.push_back({report::text_cell(base ? "base" : "other"), report::integer_cell(side->ranks),
                          report::integer_cell(side->gpus), report::integer_cell(side->samples),
                          report::duration_cell(side->step_ns),
                          side->batch ? report::integer_cell(*side->batch) : Cell{"-", "", true},
                          report::text_cell(side->batch_source.empty() ? "unknown" : side->batch_source),
                          side->samples_per_second ? report::number_cell(*side->samples_per_second, 1)
                                                   : Cell{"-", "", true}});
  }
  return table;
}

Table scaling_table(const RunComparison& comparison) {
  Table table{report::Section::devices, "scaling", "Scaling",
              {"Speedup", "Basis", "GPU ratio", "Scaling efficiency%", "Step time change"}, {}};
  const double ratio = comparison.base.gpus > 0 ? static_cast<double>(comparison.other.gpus) / comparison.base.gpus : 0;
  table.rows.push_back({report::number_cell(comparison.speedup, 3), report::text_cell(comparison.speedup_basis),
                        report::number_cell(ratio, 2), comparison.scaling_efficiency ? report::percent_cell(*comparison.scaling_efficiency)
                                                                  : Cell{"-", "", true},
                        report::duration_cell(comparison.delta_step_ns)});
  return table;
}

Table waterfall_table(const RunComparison& comparison) {
  Table table{report::Section::devices, "waterfall", "Step time waterfall (per GPU, mean steady-state step)",
              {"Term", "Base", "Other", "Change"}, {}};
  for (const auto& term : comparison.waterfall) {
    table.rows.push_back({report::text_cell(term.name), report::duration_cell(term.base_ns),
                          report::duration_cell(term.other_ns), report::duration_cell(term.delta_ns)});
  }
  table.rows.push_back({report::text_cell("= step time"), report::duration_cell(comparison.base.step_ns),
                        report::duration_cell(comparison.other.step_ns),
                        report::duration_cell(comparison.delta_step_ns)});
  return table;
}

std::vector<report::Cell> kernel_row(const KernelChange& kernel, std::string name) {
  return {report::duration_cell(kernel.base_ns_per_step), report::duration_cell(kernel.other_ns_per_step),
          report::duration_cell(kernel.delta_ns_per_step), report::count_cell(kernel.base_instances_per_step),
          report::count_cell(kernel.other_instances_per_step), report::text_cell(kernel.category),
          report::text_cell(std::move(name))};
}

Table kernels_table(const RunComparison& comparison) {
  Table table{report::Section::kernels, "kernel_diff", "Kernel changes (time and instances per steady GPU-step; variants below their family)",
              {"Base/step", "Other/step", "Change", "Base inst", "Other inst", "Category", "Name"}, {}};
  for (const auto& kernel : comparison.kernels) {
    auto name = comparison.full_names || kernel.short_name.empty() ? kernel.name : kernel.short_name;
    if (!kernel.variants.empty()) name += fmt::format(" ({} variants)", kernel.variants.size());
    table.rows.push_back(kernel_row(kernel, name));
    for (const auto& variant : kernel.variants) {
      table.rows.push_back(kernel_row(variant, "  " + (comparison.full_names ? variant.name : variant.short_name)));
    }
  }
  return table;
}

}  // namespace

std::vector<report::Table> comparison_tables(const RunComparison& comparison) {
  return {runs_table(comparison), scaling_table(comparison), waterfall_table(comparison), kernels_table(comparison)};
}

}  // namespace gpuprof::comparison
