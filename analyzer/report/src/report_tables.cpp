#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {

using analysis::RankAnalysis;

Cell integer(std::int64_t value) { return integer_cell(value); }
Cell duration(std::int64_t ns) { return duration_cell(ns); }
Cell duration(double ns) { return duration_cell(ns); }
Cell bytes(std::int64_t value) { return bytes_cell(value); }
Cell number(double value, int decimals) { return number_cell(value, decimals); }
Cell percent(double share) { return percent_cell(share); }
Cell text(std::string value) { return text_cell(std::move(value)); }
Cell device_name(std::int32_t device) {
  return device == analysis::kHost ? text("host") : integer(device);
}

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Computation + exposed comm + exposed memcpy + idle in steps + batch gaps = window.
std::vector<Cell> breakdown_cells(const analysis::Breakdown& b) {
  return {duration(b.window_ns), duration(b.computation_ns), duration(b.total_comm_ns), duration(b.exposed_comm_ns),
          duration(b.total_memcpy_ns), duration(b.exposed_memcpy_ns), duration(b.busy_ns), duration(b.idle_ns),
          duration(b.idle_in_steps_ns), duration(b.batch_gap_ns), percent(share(b.idle_ns, b.window_ns)),
          percent(b.comm_hidden_share()), percent(b.memcpy_hidden_share())};
}

const std::vector<std::string> kBreakdownColumns = {"Window", "Computation", "Comm", "Exposed comm", "Memcpy",
                                                    "Exposed memcpy", "Busy", "Idle", "Idle in steps",
                                                    "Batch gaps", "Idle%", "Comm hidden%", "Memcpy hidden%"};

std::vector<std::string> with_prefix(std::vector<std::string> prefix, const std::vector<std::string>& rest) {
  prefix.insert(prefix.end(), rest.begin(), rest.end());
  return prefix;
}

void add_devices(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::devices, "devices", "Time breakdown per device",
              with_prefix({"Rank", "Device", "Windows", "Steps"}, kBreakdownColumns), {}};
  Table steady{Section::devices, "steady_state", "Steady state (warm-up steps excluded; Avg step = mean step period)",
               with_prefix({"Rank", "Device", "Steps", "Avg step"}, kBreakdownColumns), {}};
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      const bool steps = device.source == analysis::WindowSource::steps;
      auto row = std::vector<Cell>{integer(rank.rank), integer(device.device), text(steps ? "steps" : "span"),
                                   integer(device.steps)};
      for (auto& cell : breakdown_cells(device.total)) row.push_back(std::move(cell));
      table.rows.push_back(std::move(row));
      if (!steps) continue;
      const auto average = device.average_step_ns();
      // The notice says so too; the row must not pass for warm-up-free figures.
      const auto steps_cell = device.steady_is_all_steps ? text(std::to_string(device.steady_steps) + " (all warm-up)")
                                                         : integer(device.steady_steps);
      auto steady_row = std::vector<Cell>{integer(rank.rank), integer(device.device), steps_cell, duration(average)};
      for (auto& cell : breakdown_cells(device.steady)) steady_row.push_back(std::move(cell));
      steady.rows.push_back(std::move(steady_row));
    }
  }
  tables.push_back(std::move(table));
  if (!steady.rows.empty()) tables.push_back(std::move(steady));
}

std::vector<Cell> transfer_cells(const analysis::TransferTotals& totals) {
  return {integer(totals.count), bytes(totals.bytes), duration(totals.total_ns), duration(totals.exposed_ns),
          number(totals.gigabytes_per_second(), 2)};
}

// The cells of each rank's GPU-to-GPU matrix, as the desktop app's heat map shows them.
void add_transfer_matrix(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::transfers, "transfer_matrix", "GPU-to-GPU copies per rank (source x destination)",
              {"Rank", "Src", "Dst", "Count", "Bytes", "Total", "Exposed", "GB/s"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& entry : analysis::matrix_entries(rank.transfers.matrix)) {
      auto row = std::vector<Cell>{integer(rank.rank), device_name(entry.src_device), device_name(entry.dst_device)};
      for (auto& value : transfer_cells(entry.totals)) row.push_back(std::move(value));
      table.rows.push_back(std::move(row));
    }
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

void add_transfers(const ReportInput& input, std::vector<Table>& tables) {
  const std::vector<std::string> totals = {"Count", "Bytes", "Total", "Exposed", "GB/s"};
  Table kinds{Section::transfers, "transfer_kinds", "Transfers per copy kind", with_prefix({"Rank", "Kind"}, totals), {}};
  Table pairs{Section::transfers, "transfers", "Transfers per (source, destination)",
              with_prefix({"Rank", "Kind", "Src", "Dst"}, totals), {}};
  Table flags{Section::transfers, "transfer_flags", "Transfer warnings", with_prefix({"Rank", "Pattern"}, totals), {}};
  for (const auto& rank : input.ranks) {
    for (const auto& kind : rank.transfers.kinds) {
      auto row = std::vector<Cell>{integer(rank.rank), text(std::string(trace::to_string(kind.kind)))};
      for (auto& cell : transfer_cells(kind.totals)) row.push_back(std::move(cell));
      kinds.rows.push_back(std::move(row));
    }
    for (const auto& pair : rank.transfers.pairs) {
      auto row = std::vector<Cell>{integer(rank.rank), text(std::string(trace::to_string(pair.kind))),
                                   device_name(pair.src_device), device_name(pair.dst_device)};
      for (auto& cell : transfer_cells(pair.totals)) row.push_back(std::move(cell));
      pairs.rows.push_back(std::move(row));
    }
    const std::pair<const char*, const analysis::TransferTotals*> patterns[] = {
        {"pageable HtoD", &rank.transfers.pageable_host_to_device},
        {"host-staged GPU-to-GPU", &rank.transfers.host_staged}};
    for (const auto& [name, values] : patterns) {
      if (values->count == 0) continue;
      auto row = std::vector<Cell>{integer(rank.rank), text(name)};
      for (auto& cell : transfer_cells(*values)) row.push_back(std::move(cell));
      flags.rows.push_back(std::move(row));
    }
  }
  tables.push_back(std::move(kinds));
  tables.push_back(std::move(pairs));
  if (!flags.rows.empty()) tables.push_back(std::move(flags));
  add_transfer_matrix(input, tables);
}

std::vector<Cell> summary_cells(const analysis::KernelSummaryRow& row) {
  const auto& s = row.stats;
  return {number(row.percent, 1), duration(s.total_ns), integer(s.instances), duration(s.avg_ns), duration(s.med_ns),
          duration(s.min_ns), duration(s.max_ns), duration(s.stddev_ns)};
}

std::string kernel_name(const ReportInput& input, const analysis::KernelSummaryRow& row) {
  return input.full_names || row.short_name.empty() ? row.name : row.short_name;
}

// Every communication kernel name with the rule that made it one, so the classification can be audited.
void add_comm_rules(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::kernels, "comm_rules", "Communication kernels and the rule that classified each",
              {"Rank", "Name", "Rule"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& row : rank.kernels.comm_rules) {
      table.rows.push_back({integer(rank.rank), text(input.full_names ? row.name : row.short_name), text(row.rule)});
    }
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

void add_kernels(const ReportInput& input, std::vector<Table>& tables) {
  const std::vector<std::string> stats = {"Time%", "Total", "Instances", "Avg", "Med", "Min", "Max", "StdDev"};
  Table categories{Section::kernels, "categories", "GPU time per category", with_prefix({"Rank"}, stats), {}};
  Table kernels{Section::kernels, "kernels", "Kernel summary", with_prefix({"Rank"}, stats), {}};
  categories.columns.push_back("Category");
  kernels.columns.push_back("Category");
  kernels.columns.push_back("Name");
  for (const auto& rank : input.ranks) {
    for (const auto& row : rank.kernels.categories) {
      auto cells = std::vector<Cell>{integer(rank.rank)};
      for (auto& cell : summary_cells(row)) cells.push_back(std::move(cell));
      cells.push_back(text(row.name));
      categories.rows.push_back(std::move(cells));
    }
    for (const auto& row : rank.kernels.kernels) {
      auto cells = std::vector<Cell>{integer(rank.rank)};
      for (auto& cell : summary_cells(row)) cells.push_back(std::move(cell));
      cells.push_back(text(row.category));
      cells.push_back(text(kernel_name(input, row)));
      kernels.rows.push_back(std::move(cells));
    }
  }
  tables.push_back(std::move(categories));
  tables.push_back(std::move(kernels));
  add_comm_rules(input, tables);
}

void add_steps(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::steps, "steps", "Steps per device",
              {"Rank", "Device", "Step", "Warm-up", "Start (ns)", "Period", "Busy", "Idle in step", "Batch gap",
               "Computation", "Exposed comm", "Exposed memcpy"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& entry : rank.steps) {
      const auto& b = entry.breakdown;
      table.rows.push_back({integer(rank.rank), integer(entry.step.device), integer(entry.step.step),
                            text(entry.step.warmup ? "yes" : "no"), integer(entry.step.start_ns),
                            duration(b.window_ns), duration(b.busy_ns), duration(b.idle_in_steps_ns),
                            duration(b.batch_gap_ns), duration(b.computation_ns), duration(b.exposed_comm_ns), duration(b.exposed_memcpy_ns)});
    }
  }
  tables.push_back(std::move(table));
}

void add_gaps(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::gaps, "gaps", "Batch gaps (GPU idle between steps)",
              {"Rank", "Device", "After step", "Start (ns)", "Duration", "Idle", "Cause", "After warm-up"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& gap : rank.gaps) {
      table.rows.push_back({integer(rank.rank), integer(gap.device), integer(gap.after_step), integer(gap.start_ns),
                            duration(gap.end_ns - gap.start_ns), duration(gap.idle_ns),
                            text(std::string(analysis::to_string(gap.cause))),
                            text(gap.after_warmup ? "yes" : "no")});
    }
  }
  tables.push_back(std::move(table));
}

void add_launches(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::launches, "launches", "Kernel launches (API call start to kernel start)",
              {"Rank", "Device", "Launches", "Launches/s", "Avg delay", "Med delay", "Min delay", "Max delay"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& launch : rank.launches) {
      const auto& d = launch.delay;
      table.rows.push_back({integer(rank.rank), integer(launch.device), integer(d.instances),
                            number(launch.launches_per_second, 0), duration(d.avg_ns), duration(d.med_ns),
                            duration(d.min_ns), duration(d.max_ns)});
    }
  }
  tables.push_back(std::move(table));
}

}  // namespace

const std::vector<Section>& all_sections() {
  static const std::vector<Section> sections = {Section::devices, Section::transfers, Section::kernels,
                                                Section::steps,   Section::gaps,      Section::launches,
                                                Section::job};
  return sections;
}

std::string_view to_string(Section section) {
  switch (section) {
    case Section::devices: return "devices";
    case Section::transfers: return "transfers";
    case Section::kernels: return "kernels";
    case Section::steps: return "steps";
    case Section::gaps: return "gaps";
    case Section::launches: return "launches";
    case Section::job: return "job";
  }
  return "devices";
}

Section section_from_string(std::string_view name) {
  for (const auto section : all_sections()) {
    if (to_string(section) == name) return section;
  }
  throw TraceError::bad_input("", fmt::format("unknown section '{}' (known: devices, transfers, kernels, steps, "
                                              "gaps, launches, job)", name));
}

bool ReportInput::has(Section section) const {
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

std::vector<Table> build_tables(const ReportInput& input) {
  std::vector<Table> tables;
  for (const auto section : all_sections()) {
    if (!input.has(section)) continue;
    switch (section) {
      case Section::devices: add_devices(input, tables); break;
      case Section::transfers: add_transfers(input, tables); break;
      case Section::kernels: add_kernels(input, tables); break;
      case Section::steps: add_steps(input, tables); break;
      case Section::gaps: add_gaps(input, tables); break;
      case Section::launches: add_launches(input, tables); break;
      case Section::job: add_job_tables(input, tables); break;
    }
  }
  return tables;
}

}  // namespace gpuprof::report
