#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/analysis/kernel_labels.hpp"
#include "gpuprof/rank/gap_summary.hpp"
#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"
#include "host_summary_tables.hpp"
#include "memory_tables.hpp"
#include "idle_tables.hpp"

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

// The terminal view: the five parts that add up to the window, and the idle share.
std::vector<Cell> compact_breakdown_cells(const analysis::Breakdown& b) {
  return {duration(b.computation_ns), duration(b.exposed_comm_ns), duration(b.exposed_memcpy_ns),
          duration(b.idle_in_steps_ns), duration(b.batch_gap_ns), percent(share(b.idle_ns, b.window_ns))};
}

const std::vector<std::string> kCompactBreakdownColumns = {"Computation", "Exposed comm", "Exposed memcpy",
                                                           "Idle in steps", "Batch gaps", "Idle%"};

void append(std::vector<Cell>& row, std::vector<Cell> cells) {
  for (auto& cell : cells) row.push_back(std::move(cell));
}

void add_devices(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  Table table{Section::devices, "devices", "Time breakdown per device (all steps, warm-up included; no steps: the span)",
              view.wide ? with_prefix({"Rank", "Device", "Windows", "Steps"}, kBreakdownColumns)
                        : with_prefix({"Rank", "Device", "Steps", "Window"}, kCompactBreakdownColumns), {}};
  Table steady{Section::devices, "steady_state", "Steady state (warm-up steps excluded; Avg step = mean step period)",
               with_prefix({"Rank", "Device", "Steps", "Avg step"}, view.wide ? kBreakdownColumns : kCompactBreakdownColumns),
               {}};
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      const bool steps = device.source == analysis::WindowSource::steps;
      if (view.wide) {
        auto row = std::vector<Cell>{integer(rank.rank), integer(device.device), text(steps ? "steps" : "span"),
                                     integer(device.steps)};
        append(row, breakdown_cells(device.total));
        table.rows.push_back(std::move(row));
      } else {
        auto row = std::vector<Cell>{integer(rank.rank), integer(device.device),
                                     steps ? integer(device.steps) : text("span"), duration(device.total.window_ns)};
        append(row, compact_breakdown_cells(device.total));
        table.rows.push_back(std::move(row));
      }
      if (!steps) continue;
      const auto average = device.average_step_ns();
      // The notice says so too; the row must not pass for warm-up-free figures.
      const auto steps_cell = device.steady_is_all_steps ? text(std::to_string(device.steady_steps) + " (all warm-up)")
                                                         : integer(device.steady_steps);
      auto steady_row = std::vector<Cell>{integer(rank.rank), integer(device.device), steps_cell, duration(average)};
      append(steady_row, view.wide ? breakdown_cells(device.steady) : compact_breakdown_cells(device.steady));
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

std::string kernels_title(const ReportInput& input, const TableView& view) {
  if (view.kernel_rows == 0) return "Kernel summary";
  std::size_t hidden = 0;
  for (const auto& rank : input.ranks) {
    const auto rows = rank.kernels.kernels.size();
    hidden += rows > view.kernel_rows ? rows - view.kernel_rows : 0;
  }
  if (hidden == 0) return "Kernel summary";
  return fmt::format("Kernel summary (the {} longest per rank; {} more with --top 0)", view.kernel_rows, hidden);
}

void add_kernels(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  const auto stats = stats_columns(view.wide);
  Table categories{Section::kernels, "categories", "GPU time per category", with_prefix({"Rank"}, stats), {}};
  Table kernels{Section::kernels, "kernels", kernels_title(input, view), with_prefix({"Rank"}, stats), {}};
  categories.columns.push_back("Category");
  kernels.columns.push_back("Category");
  kernels.columns.push_back("Name");
  for (const auto& rank : input.ranks) {
    for (const auto& row : rank.kernels.categories) {
      auto cells = std::vector<Cell>{integer(rank.rank)};
      append(cells, stats_cells(row.stats, row.percent, view.wide));
      cells.push_back(text(row.name));
      categories.rows.push_back(std::move(cells));
    }
    const auto labels = analysis::kernel_labels(rank.kernels.kernels, input.full_names);
    for (std::size_t shown = 0; shown < labels.size(); ++shown) {
      if (view.kernel_rows > 0 && shown == view.kernel_rows) break;
      const auto& row = rank.kernels.kernels[shown];
      auto cells = std::vector<Cell>{integer(rank.rank)};
      append(cells, stats_cells(row.stats, row.percent, view.wide));
      cells.push_back(text(row.category));
      cells.push_back(text(labels[shown]));
      kernels.rows.push_back(std::move(cells));
    }
  }
  tables.push_back(std::move(categories));
  tables.push_back(std::move(kernels));
  add_comm_rules(input, tables);
}

Cell optional_number(const std::optional<double>& value) { return value ? number(*value, 2) : text("-"); }
Cell known_integer(std::int64_t value) { return value == trace::kUnknown ? text("-") : integer(value); }
Cell known_bytes(std::int64_t value) { return value == trace::kUnknown ? text("-") : bytes(value); }

// Bandwidth per collective kind, group size and operation size (S of NCCL tests' algbw = S / t).
void add_collectives(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::collectives, "collectives",
              "Collectives per kind and size (Size: S of NCCL tests' algbw = S / mean time; busbw = algbw x factor)",
              {"Rank", "Collective", "Ranks", "Size", "Count", "Total", "Mean", "Alg GB/s", "Bus GB/s"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& group : rank.collectives.groups) {
      table.rows.push_back({integer(rank.rank), text(group.name), known_integer(group.group_size),
                            known_bytes(group.bytes), integer(group.count), duration(group.total_ns),
                            duration(group.mean_ns), optional_number(group.algorithm_gbps),
                            optional_number(group.bus_gbps)});
    }
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

// Absolute nanoseconds in the full view; time since the rank's first GPU activity in the terminal view.
Cell time_point(const TableView& view, std::int64_t ns, std::int64_t origin_ns) {
  return time_point_cell(view, ns, origin_ns);
}

std::string start_column(const TableView& view) { return view.relative_times ? "Start" : "Start (ns)"; }

void add_steps(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  Table table{Section::steps, "steps", "Steps per device",
              {"Rank", "Device", "Step", "Warm-up", start_column(view), "Period", "Busy", "Idle in step", "Batch gap",
               "Computation", "Exposed comm", "Exposed memcpy"}, {}};
  if (view.relative_times) table.title += " (Start: since the rank's first GPU activity)";
  for (const auto& rank : input.ranks) {
    for (const auto& entry : rank.steps) {
      const auto& b = entry.breakdown;
      table.rows.push_back({integer(rank.rank), integer(entry.step.device), integer(entry.step.step),
                            text(entry.step.warmup ? "yes" : "no"),
                            time_point(view, entry.step.start_ns, rank.trace_start_ns), duration(b.window_ns),
                            duration(b.busy_ns), duration(b.idle_in_steps_ns), duration(b.batch_gap_ns),
                            duration(b.computation_ns), duration(b.exposed_comm_ns), duration(b.exposed_memcpy_ns)});
    }
  }
  if (!view.wide) {  // busy = computation + exposed comm + exposed memcpy, so it adds no information
    table.columns.erase(table.columns.begin() + 6);
    for (auto& row : table.rows) row.erase(row.begin() + 6);
  }
  tables.push_back(std::move(table));
}

std::string causes_text(const analysis::GapStats& stats, bool with_time) {
  std::string out;
  for (const auto& cause : analysis::causes_by_idle(stats.by_cause)) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", analysis::to_string(cause.cause), cause.count);
    if (with_time) out += " (" + units::format_duration(cause.idle_ns) + ")";
  }
  return out;
}

void add_gap_summary(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  Table table{Section::gaps, "gap_summary", "Batch gaps per device (GPU idle between steps)",
              {"Rank", "Device", "Gaps", "Total", "Mean", "P50", "P95", "Max", "By cause"}, {}};
  if (!view.gap_list) table.title += "; --gaps all lists each gap";
  for (const auto& rank : input.ranks) {
    for (const auto& stats : analysis::summarize_gaps(rank.gaps)) {
      table.rows.push_back({integer(rank.rank), integer(stats.device), integer(stats.count), duration(stats.total_ns),
                            duration(stats.mean_ns), duration(stats.p50_ns), duration(stats.p95_ns),
                            duration(stats.max_ns), text(causes_text(stats, view.wide))});
    }
  }
  tables.push_back(std::move(table));
}

void add_gaps(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  add_gap_summary(input, view, tables);
  if (!view.gap_list) return;
  Table table{Section::gaps, "gaps", "Batch gaps (GPU idle between steps)",
              {"Rank", "Device", "After step", start_column(view), "Duration", "Idle", "Cause", "Coverage%",
               "After warm-up"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& gap : rank.gaps) {
      table.rows.push_back({integer(rank.rank), integer(gap.device), integer(gap.after_step),
                            time_point(view, gap.start_ns, rank.trace_start_ns), duration(gap.end_ns - gap.start_ns),
                            duration(gap.idle_ns), text(std::string(analysis::to_string(gap.cause))),
                            percent(gap.coverage()), text(gap.after_warmup ? "yes" : "no")});
    }
  }
  tables.push_back(std::move(table));
}

void add_launches(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::launches, "launches", "Kernel launches (API call start to kernel start)",
              {"Rank", "Device", "Launches", "Launches/s", "Avg delay", "Med delay", "Min delay", "Max delay"}, {}};
  std::int64_t before_call = 0;
  std::int64_t graph_kernels = 0;
  for (const auto& rank : input.ranks) {
    for (const auto& launch : rank.launches) {
      before_call += launch.starts_before_call;
      graph_kernels += launch.graph_kernels;
      const auto& d = launch.delay;
      table.rows.push_back({integer(rank.rank), integer(launch.device), integer(d.instances),
                            number(launch.launches_per_second, 0), duration(d.avg_ns), duration(d.med_ns),
                            duration(d.min_ns), duration(d.max_ns)});
    }
  }
  if (before_call > 0) {
    table.title += fmt::format(" ({} kernels left out of every launch table: they start before their call, "
                               "clocks disagree)", before_call);
  }
  if (graph_kernels > 0) {
    table.title += fmt::format(" ({} kernels run by CUDA graph launches left out of every launch table: one "
                               "graph launch call runs them all)", graph_kernels);
  }
  tables.push_back(std::move(table));
}

}  // namespace

const std::vector<Section>& all_sections() {
  // The job's ranks and stragglers answer more than per-kernel tables do, so they come first.
  static const std::vector<Section> sections = {Section::summary, Section::devices, Section::job,
                                                Section::transfers, Section::kernels, Section::collectives,
                                                Section::steps, Section::gaps, Section::launches, Section::nvtx,
                                                Section::api, Section::memory};
  return sections;
}

std::string_view to_string(Section section) {
  switch (section) {
    case Section::summary: return "summary";
    case Section::devices: return "devices";
    case Section::transfers: return "transfers";
    case Section::kernels: return "kernels";
    case Section::collectives: return "collectives";
    case Section::steps: return "steps";
    case Section::gaps: return "gaps";
    case Section::launches: return "launches";
    case Section::nvtx: return "nvtx";
    case Section::api: return "api";
    case Section::memory: return "memory";
    case Section::job: return "job";
  }
  return "devices";
}

Section section_from_string(std::string_view name) {
  for (const auto section : all_sections()) {
    if (to_string(section) == name) return section;
  }
  throw TraceError::bad_input("", fmt::format("unknown section '{}' (known: summary, devices, job, transfers, "
                                              "kernels, collectives, steps, gaps, launches, nvtx, api, memory)", name));
}

bool needs_host_summaries(const std::vector<Section>& sections) {
  return std::any_of(sections.begin(), sections.end(), [](Section section) {
    return section == Section::nvtx || section == Section::api || section == Section::launches;
  });
}

bool needs_memory_use(const std::vector<Section>& sections) {
  return std::find(sections.begin(), sections.end(), Section::memory) != sections.end();
}

bool ReportInput::has(Section section) const {
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

std::vector<Table> build_tables(const ReportInput& input, const TableView& view) {
  std::vector<Table> tables;
  for (const auto section : all_sections()) {
    if (!input.has(section)) continue;
    switch (section) {
      case Section::summary: break;  // not a table: each writer lays it out (summary_layout.hpp)
      case Section::devices:
        add_devices(input, view, tables);
        add_idle_device_table(input, tables);
        break;
      case Section::transfers: add_transfers(input, tables); break;
      case Section::kernels: add_kernels(input, view, tables); break;
      case Section::collectives: add_collectives(input, tables); break;
      case Section::steps:
        add_steps(input, view, tables);
        add_idle_step_table(input, tables);
        break;
      case Section::gaps:
        add_gaps(input, view, tables);
        add_idle_interval_table(input, view, tables);
        break;
      case Section::launches:
        add_launches(input, tables);
        add_launch_detail_tables(input, view, tables);
        break;
      case Section::nvtx: add_range_table(input, view, tables); break;
      case Section::api: add_api_table(input, view, tables); break;
      case Section::memory: add_memory_table(input, view, tables); break;
      case Section::job: add_job_tables(input, view, tables); break;
    }
  }
  return tables;
}

}  // namespace gpuprof::report
