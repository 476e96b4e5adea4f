#include "study_tables.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpuprof/report/cells.hpp"

namespace gpuprof::study {
namespace {

// A figure this file formatted ("1.27x ± 0.02", "62.3%", "-" for none): numeric, its text is its value.
report::Cell figure(std::string text) { return {text, text, true}; }
// Words: names from the study file or the traces (hostile), and sentences; escaped as text by every writer.
report::Cell words(std::string text) { return report::text_cell(std::move(text)); }

std::string spread_cell(const std::optional<Spread>& spread, int digits, double scale = 1.0, const char* unit = "") {
  if (!spread) return "-";
  if (spread->n < 2) return fmt::format("{:.{}f}{}", spread->mean * scale, digits, unit);
  return fmt::format("{:.{}f}{} ± {:.{}f}", spread->mean * scale, digits, unit, spread->sd * scale, digits);
}

std::string optional_int(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string("-");
}

std::string share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

std::string batch_text(double batch) {
  return std::isinf(batch) ? std::string("∞") : fmt::format("{:.0f}", batch);
}

Table results_table(const StudyReport& report) {
  Table table{report::Section::summary, "results", "Results (mean ± standard deviation over repeats)",
              // The answer (step time, speedup) before the training figures: a narrow screen splits the rest off.
              {"Model", "Batch", "GPUs", "Strategy", "Runs", "Step (ms)", "Samples/s", "Speedup", "Overhead",
               "Time (s)", "Epochs", "Accuracy", "Val accuracy"},
              {}};
  for (const auto& row : report.rows) {
    const auto& c = row.configuration;
    table.rows.push_back(
        {words(row.model), figure(std::to_string(c.batch)), figure(std::to_string(c.gpus)), words(c.strategy),
         figure(row.runs_failed ? fmt::format("{} ok, {} failed", row.runs_ok, row.runs_failed)
                                : std::to_string(row.runs_ok)),
         figure(spread_cell(row.seconds_per_step, 3, 1000.0)), figure(spread_cell(row.samples_per_second, 1)),
         figure(c.gpus == 1 && row.runs_ok ? std::string("1.00x") : spread_cell(row.speedup, 2, 1.0, "x")),
         figure(row.overhead ? fmt::format("{:+.1f}%", *row.overhead * 100.0) : std::string("-")),
         figure(spread_cell(row.time_seconds, 3)), figure(optional_int(row.epochs)),
         figure(spread_cell(row.accuracy, 4)), figure(spread_cell(row.validation_accuracy, 4))});
  }
  return table;
}

Table breakdown_table(const StudyReport& report) {
  Table table{report::Section::summary, "breakdown", "Where the GPU time went (share of the steady-state time of every device, from the traces)",
              {"Batch", "GPUs", "Strategy", "Computation", "Exposed transfer", "Exposed communication", "Gaps",
               "Traces"},
              {}};
  for (const auto& row : report.rows) {
    if (!row.breakdown) continue;
    const auto& b = *row.breakdown;
    const auto total = b.total_ns();
    table.rows.push_back({figure(std::to_string(row.configuration.batch)),
                          figure(std::to_string(row.configuration.gpus)), words(row.configuration.strategy),
                          figure(share(b.computation_ns, total)), figure(share(b.exposed_transfer_ns, total)),
                          figure(share(b.exposed_comm_ns, total)), figure(share(b.gaps_ns, total)),
                          figure(std::to_string(b.traces))});
  }
  return table;
}

Table fits_table(const StudyReport& report) {
  const bool step = report.time_basis == "step";
  Table table{report::Section::summary, "fits", step ? "Fitted step time t(b) = a + c·b" : "Fitted run time t(b) = a + c·b",
              {"GPUs", "Runs", step ? "a (ms per step)" : "a (ms per run)", "c (µs per sample)", "R²"},
              {}};
  for (const auto& [gpus, fit] : report.fits) {
    if (!fit.valid) {
      table.rows.push_back({figure(std::to_string(gpus)), figure(std::to_string(fit.points)), figure("-"),
                            figure("-"), figure("-")});
      continue;
    }
    table.rows.push_back({figure(std::to_string(gpus)), figure(std::to_string(fit.points)),
                          figure(fmt::format("{:.4f}", fit.intercept * 1e3)),
                          figure(fmt::format("{:.4f}", fit.slope * 1e6)), figure(fmt::format("{:.4f}", fit.r_squared))});
  }
  return table;
}

Table break_even_table(const StudyReport& report) {
  Table table{report::Section::summary, "break_even", "Break-even batch size (where N GPUs become faster than 1)",
              {"GPUs", "Outcome", "Batch", "95% interval", "Resamples breaking even"},
              {}};
  for (const auto& row : report.break_evens) {
    const bool crossing =
        row.point.kind == BreakEvenKind::breaks_even || row.point.kind == BreakEvenKind::faster_below;
    table.rows.push_back({figure(std::to_string(row.gpus)), words(describe_break_even(row)),
                          figure(crossing ? batch_text(row.point.batch) : std::string("-")),
                          figure(describe_interval(row)),
                          figure(row.interval.available
                                     ? fmt::format("{:.0f}%", row.interval.share_breaking_even * 100.0)
                                     : std::string("-"))});
  }
  return table;
}

Table waterfall_table(const StudyReport& report) {
  Table table{report::Section::summary, "waterfall", "Step time against 1 GPU at the same batch: what changed (first repeat of each)",
              {"Configuration", "Step 1 GPU (ms)", "Step (ms)", "Change (ms): by part"},
              {}};
  for (const auto& row : report.waterfalls) {
    std::string parts;
    for (const auto& [name, delta] : row.deltas_ns) {
      parts += fmt::format("{}{} {:+.3f}", parts.empty() ? "" : ", ", name, delta / 1e6);
    }
    table.rows.push_back({words(row.configuration), figure(fmt::format("{:.3f}", row.base_step_ns / 1e6)),
                          figure(fmt::format("{:.3f}", row.step_ns / 1e6)), words(parts)});
  }
  return table;
}

// `gpuprof predict` from the 1-GPU traces, beside the measured N-GPU runs where the sweep has them.
Table predictions_table(const StudyPredictions& predictions) {
  Table table{report::Section::summary, "predictions",
              fmt::format("Predicted from the 1-GPU traces ({}, link {}; speedup against 1 GPU at the same batch)",
                          predictions.strategy, predictions.link),
              {"Batch", "GPUs", "Predicted speedup", "Band", "Measured speedup", "Error", "Per-GPU work"},
              {}};
  for (const auto& row : predictions.rows) {
    const auto error = row.error();
    table.rows.push_back({figure(std::to_string(row.batch)), figure(std::to_string(row.gpus)),
                          figure(fmt::format("{:.2f}x", row.speedup)),
                          figure(fmt::format("{:.2f}x – {:.2f}x", row.low, row.high)),
                          figure(row.measured_speedup ? fmt::format("{:.2f}x", *row.measured_speedup) : "-"),
                          figure(error ? fmt::format("{:+.1f}%", 100.0 * *error) : std::string("-")),
                          words(row.measured_per_gpu_work ? "1-GPU run at batch/N" : "kernels x 1/N (optimistic)")});
  }
  for (const auto& point : predictions.break_evens) {
    BreakEvenRow row{point.gpus, point.point, {}, 0, 0};
    table.rows.push_back({words("break-even"), figure(std::to_string(point.gpus)), words(describe_break_even(row)),
                          figure("-"), figure("-"), figure("-"), figure("-")});
  }
  return table;
}

Table failures_table(const StudyReport& report) {
  Table table{report::Section::summary, "failures", "Runs that did not succeed", {"Configuration", "Repeat", "Run", "Status", "Exit", "Error"}, {}};
  for (const auto& failure : report.failures) {
    table.rows.push_back({words(failure.configuration), figure(std::to_string(failure.repeat)),
                          words(std::string(to_string(failure.kind))), words(std::string(to_string(failure.status))),
                          figure(optional_int(failure.exit_code)), words(failure.error)});
  }
  return table;
}

}  // namespace

std::string describe_break_even(const BreakEvenRow& row) {
  const auto note = row.extrapolated() ? std::string(" (outside the measured batch sizes)") : std::string();
  switch (row.point.kind) {
    case BreakEvenKind::breaks_even: return fmt::format("faster above batch {:.0f}{}", row.point.batch, note);
    case BreakEvenKind::always_faster: return "always faster";
    case BreakEvenKind::never: return "never breaks even";
    case BreakEvenKind::faster_below: return fmt::format("faster only below batch {:.0f}{}", row.point.batch, note);
  }
  return "";
}

std::string describe_interval(const BreakEvenRow& row) {
  if (!row.interval.available) return "- (needs 3+ runs per GPU count)";
  return fmt::format("{} – {}", batch_text(row.interval.low), batch_text(row.interval.high));
}

std::vector<Table> study_tables(const StudyReport& report) {
  std::vector<Table> tables = {results_table(report)};
  if (auto breakdown = breakdown_table(report); !breakdown.rows.empty()) tables.push_back(std::move(breakdown));
  tables.push_back(fits_table(report));
  if (!report.break_evens.empty()) tables.push_back(break_even_table(report));
  if (!report.waterfalls.empty()) tables.push_back(waterfall_table(report));
  if (report.predictions) tables.push_back(predictions_table(*report.predictions));
  if (!report.failures.empty()) tables.push_back(failures_table(report));
  return tables;
}

}  // namespace gpuprof::study
