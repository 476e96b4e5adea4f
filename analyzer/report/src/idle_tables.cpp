#include "idle_tables.hpp"

#include <fmt/format.h>

#include "gpuprof/report/cells.hpp"
#include "gpuprof/rank/idle_description.hpp"
#include "gpuprof/report/idle_summary.hpp"

namespace gpuprof::report {
namespace {

std::string percent_text(double share) { return fmt::format("{:.0f}%", 100.0 * share); }

// "blocking_copy 91% (cov 99%)": the label with most time and its share of the idle time and coverage.
std::string main_cause(const idle::IdleTally& tally) {
  const auto lines = idle_lines(tally, {});
  if (lines.empty()) return "-";
  return fmt::format("{} {} (cov {})", idle::to_string(lines.front().label), percent_text(lines.front().share),
                     percent_text(lines.front().coverage));
}

void add_part(std::int32_t rank, std::int32_t device, std::string_view part, const idle::IdleTally& tally,
              Table& table) {
  const auto total = tally.total_ns();
  for (const auto& line : idle_lines(tally, {})) {
    table.rows.push_back({integer_cell(rank), integer_cell(device), text_cell(std::string(part)),
                          text_cell(std::string(idle::to_string(line.label))), duration_cell(line.in_steps_ns),
                          percent_cell(total > 0 ? static_cast<double>(line.in_steps_ns) / static_cast<double>(total) : 0.0),
                          percent_cell(line.coverage)});
  }
}

}  // namespace

void add_idle_device_table(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::devices, "idle_causes",
              "Idle by cause per device (steady step periods, or the activity span without steps; Share: of the "
              "part's idle; Coverage: what the cause covers)",
              {"Rank", "Device", "Part", "Cause", "Time", "Share%", "Coverage%"}, {}};
  for (const auto& device : summarize_idle(input).devices) {
    add_part(device.rank, device.device, "in steps", device.in_steps, table);
    add_part(device.rank, device.device, "batch gaps", device.gaps, table);
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

void add_idle_step_table(const ReportInput& input, std::vector<Table>& tables) {
  Table table{Section::steps, "idle_steps",
              "Idle by cause per step (main cause: its share of the idle time and its coverage)",
              {"Rank", "Device", "Step", "Idle in step", "Main cause in step", "Batch gap", "Main cause in gap"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& entry : rank.steps) {
      const auto& b = entry.breakdown;
      table.rows.push_back({integer_cell(rank.rank), integer_cell(entry.step.device), integer_cell(entry.step.step),
                            duration_cell(b.idle_in_steps_ns), text_cell(main_cause(b.idle_in_steps_causes)),
                            duration_cell(b.batch_gap_ns), text_cell(main_cause(b.batch_gap_causes))});
    }
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

void add_idle_interval_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  Table table{Section::gaps, "idle_intervals", "Idle intervals (each with its causes, as the app shows on hover)",
              {"Rank", "Device", "Step", "Part", view.relative_times ? "Start" : "Start (ns)", "Idle", "Description"},
              {}};
  for (const auto& rank : input.ranks) {
    for (const auto& interval : rank.idle_intervals) {
      table.rows.push_back({integer_cell(rank.rank), integer_cell(interval.device), integer_cell(interval.step),
                            text_cell(interval.in_gap ? "batch gap" : "in step"),
                            view.relative_times ? time_point_cell(interval.start_ns, rank.trace_start_ns)
                                                : integer_cell(interval.start_ns),
                            duration_cell(interval.end_ns - interval.start_ns),
                            text_cell(idle::describe_idle(interval))});
    }
  }
  if (!table.rows.empty()) tables.push_back(std::move(table));
}

}  // namespace gpuprof::report
