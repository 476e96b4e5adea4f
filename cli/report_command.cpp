#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli_reference.hpp"
#include "command.hpp"
#include "progress_line.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/report/report_options.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/trace/derived_tables.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

struct ReportArguments {
  std::vector<std::string> traces;
  std::vector<std::int32_t> ranks;
  std::string format = "text";
  std::string output;
  std::vector<std::string> sections;
  std::string window = "steps";
  std::string step_pattern = analysis::kDefaultStepPattern;
  std::vector<std::string> comm_patterns;
  std::int64_t warmup_steps = 1;
  std::optional<std::size_t> top;  // unset: the format's default (report_model.hpp)
  std::string gaps = "summary";
  bool save = false;
  bool force = false;
  bool full_names = false;
  bool wide = false;
  bool skip_bad = false;
  bool timings = false;
  std::size_t max_intervals = report::kDefaultMaxIntervals;
};

analysis::AnalysisOptions analysis_options(const ReportArguments& arguments) {
  analysis::AnalysisOptions options;
  if (arguments.window == "steps") options.window = analysis::WindowMode::steps;
  else if (arguments.window == "span") options.window = analysis::WindowMode::span;
  else throw TraceError::bad_input("", "--window must be 'steps' or 'span', not '" + arguments.window + "'");
  options.step_pattern = arguments.step_pattern;
  options.comm_patterns = arguments.comm_patterns;
  options.warmup_steps = arguments.warmup_steps;
  return options;
}

std::vector<report::Section> sections(const ReportArguments& arguments) {
  if (arguments.sections.empty()) return report::all_sections();
  std::vector<report::Section> result;
  for (const auto& name : arguments.sections) result.push_back(report::section_from_string(name));
  return result;
}

void save_derived(const analysis::RankAnalysis& rank) {
  std::vector<trace::StepRow> steps;
  for (const auto& entry : rank.steps) {
    steps.push_back({rank.rank, entry.step.device, entry.step.step, entry.step.start_ns, entry.step.end_ns,
                     entry.breakdown.busy_ns, entry.step.warmup});
  }
  trace::save_derived_tables(rank.path, steps, analysis::gap_rows(rank.gaps, rank.rank));
}

int run_report(const ReportArguments& arguments, const Invocation& invocation) {
  if (arguments.timings) trace::enable_stage_timings();
  const auto format = report::format_from_string(arguments.format);
  const auto chosen = sections(arguments);
  const auto options = report::report_analysis_options(format, chosen, analysis_options(arguments),
                                                       arguments.gaps == "all", arguments.max_intervals);
  if (arguments.gaps != "summary" && arguments.gaps != "all") {
    throw TraceError::bad_input("", "--gaps must be 'summary' or 'all', not '" + arguments.gaps + "'");
  }
  // Damaged files left out by --skip-bad are inputs too: none may be written over.
  auto expanded = job::expand_inputs(arguments.traces, arguments.skip_bad);
  expanded.paths.insert(expanded.paths.end(), expanded.left_out.begin(), expanded.left_out.end());
  const report::WriteOptions write_options{.overwrite = arguments.force, .inputs = std::move(expanded.paths)};
  report::check_output(format, arguments.output, write_options);
  // Ranks are identified and checked before any analysis, and analysed one
  // model at a time per thread: memory is bounded by a rank, not the job.
  ProgressLine line(stderr, "report", invocation.quiet);
  auto job = job::analyze_job(arguments.traces, {.analysis = options,
                                                 .threads = 2,
                                                 .ranks = arguments.ranks,
                                                 .keep_single_model_until_exit = true,
                                                 .skip_bad = arguments.skip_bad,
                                                 .progress = line.callback()});
  line.clear();
  std::vector<std::string> savable;
  for (const auto& rank : job.ranks) {
    if (rank.trace_path == rank.input) savable.push_back(rank.input);
  }
  auto input = report::report_input(std::move(job));
  input.sections = chosen;
  input.full_names = arguments.full_names;
  input.top_kernels = arguments.top;
  input.wide = arguments.wide;
  input.all_gaps = arguments.gaps == "all";
  input.max_intervals = arguments.max_intervals;
  if (format == report::Format::csv && arguments.output.empty() && arguments.sections.size() != 1 &&
      input.sections.size() > 1) {
    // One stream of several CSV tables is allowed, but say how to get one file per table.
    notice(invocation, "gpuprof: note: several CSV tables go to one stream; use -o FOLDER/ for one file each");
  }
  // Saved before anything is printed: a file that refuses the save fails the command with nothing on stdout.
  if (arguments.save) {
    for (const auto& rank : input.ranks) {
      // Foreign inputs were analysed from a temporary import: there is no gpuprof file to save into.
      if (std::find(savable.begin(), savable.end(), rank.path) != savable.end()) save_derived(rank);
      else notice(invocation, fmt::format("gpuprof: note: {}: not a gpuprof trace; --save skipped it", printable(rank.path)));
    }
  }
  const bool to_stdout = arguments.output.empty() || arguments.output == "-";
  // A text or Markdown report on standard output opens with every warning and notice itself;
  // repeating them on stderr would only push its summary off the screen.
  const bool report_shows_notes = to_stdout && (format == report::Format::text || format == report::Format::markdown);
  for (const auto& rank : input.ranks) {
    if (report_shows_notes) break;
    for (const auto& warning : rank.warnings) {
      fmt::print(stderr, "gpuprof: warning: {}: {}\n", printable(rank.path), printable(warning));
    }
    for (const auto& note : rank.notices) {
      notice(invocation, fmt::format("gpuprof: note: {}: {}", printable(rank.path), printable(note)));
    }
  }
  const trace::StageTimer writing("write");
  if (to_stdout) {
    const auto text = report::render(format, input);
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    report::write_report(format, input, arguments.output, write_options);
  }
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<ReportArguments>();
  auto* command = app.add_subcommand(
      "report", "Analyse traces (one file per rank): time breakdown, transfers, kernels, steps, batch gaps");
  command->add_option("traces", arguments->traces,
                      "Trace files (one per rank; Kineto/nsys/nvprof files are imported on the fly) or folders")->required();
  offer_values(command->add_option("--format", arguments->format, "Output format")->capture_default_str(),
               {"text", "md", "csv", "json", "html"});
  command->add_option("--ranks", arguments->ranks, "Rank of each trace file, in order (e.g. 0,1,2,3); overrides meta")
      ->delimiter(',');
  command->add_option("-o,--output", arguments->output, "Output file (CSV: a folder for one file per table)")
      ->check(kNonEmptyPath);
  std::vector<std::string> section_names;
  for (const auto section : report::all_sections()) section_names.emplace_back(report::to_string(section));
  offer_values(command->add_option("--sections", arguments->sections, "Sections to show, comma-separated (default: all)")
                   ->delimiter(','),
               section_names, true);
  offer_values(command->add_option("--window", arguments->window, "steps (per step annotation) or span (activity span)")
                   ->capture_default_str(),
               {"steps", "span"});
  command->add_option("--step-pattern", arguments->step_pattern,
                      "Regex for step annotations; group 1 is the step number");
  command->add_option("--comm-pattern", arguments->comm_patterns,
                      "Regex for more communication kernels (besides the built-in library names); repeatable");
  command->add_option("--warmup-steps", arguments->warmup_steps, "Leading steps left out of steady state")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_option("--top", arguments->top,
                      "Kernel rows per rank (0: all; default 15 in text and md, all in json, csv and html)")
      ->check(CLI::NonNegativeNumber);
  offer_values(command->add_option("--gaps", arguments->gaps, "Batch gaps in text and md: summary (per device) or all")
                   ->capture_default_str(),
               {"summary", "all"});
  command->add_option("--max-intervals", arguments->max_intervals,
                      "JSON: the longest idle intervals listed (0: all); the rest are counted")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--wide", arguments->wide,
                    "Text and md: every breakdown column (wider than 120 columns), as in CSV and JSON");
  command->add_flag("--full-names", arguments->full_names, "Show whole kernel names instead of short base names");
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  command->add_flag("--skip-bad", arguments->skip_bad,
                    "Leave out damaged trace files (named in a notice) instead of failing");
  command->add_flag("--save", arguments->save, "Write the steps and gaps back into the trace files");
  command->add_flag("--timings", arguments->timings,
                    "Print the wall and CPU time of each stage (open, load, each analysis, write) to stderr "
                    "(any command: GPUPROF_TIMINGS=1)");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_report(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
