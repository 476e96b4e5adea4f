#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "cli_reference.hpp"
#include "command.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "progress_line.hpp"
#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

struct CompareArguments {
  std::vector<std::string> base, other;
  std::vector<std::int32_t> base_ranks, other_ranks;
  std::string format = "text";
  std::string output;
  std::optional<std::int64_t> base_batch, other_batch;
  std::int64_t warmup_steps = 1;
  std::string step_pattern = analysis::kDefaultStepPattern;
  std::vector<std::string> comm_patterns;
  std::optional<std::size_t> top;  // unset: as in report, kDefaultTopKernels in text and md, all elsewhere
  bool full_names = false;
  bool wide = false;
  bool force = false;
};

// Each side is one path, or several joined with commas (a set of rank files).
std::vector<std::string> split_side(const std::string& text) {
  std::vector<std::string> paths;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto end = std::min(text.find(',', begin), text.size());
    if (end > begin) paths.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return paths;
}

void check_batch(const std::optional<std::int64_t>& batch, const char* option) {
  if (batch && *batch < 1) throw TraceError::bad_input("", fmt::format("{} must be at least 1", option));
}

int run_compare(const CompareArguments& arguments, const Invocation& invocation) {
  const auto format = report::format_from_string(arguments.format);
  check_batch(arguments.base_batch, "--base-batch");
  check_batch(arguments.other_batch, "--other-batch");
  job::JobOptions options;
  options.analysis.warmup_steps = arguments.warmup_steps;
  options.analysis.step_pattern = arguments.step_pattern;
  options.analysis.comm_patterns = arguments.comm_patterns;
  options.analysis.top_kernels = 0;  // the diff needs every kernel of both runs
  report::WriteOptions write_options{.overwrite = arguments.force, .inputs = job::expand_inputs(arguments.base)};
  for (const auto& path : job::expand_inputs(arguments.other)) write_options.inputs.push_back(path);
  report::check_output(format, arguments.output, write_options);
  // Both sides are checked and analysed before anything is written.
  ProgressLine line(stderr, "compare", invocation.quiet);
  options.progress = line.callback();
  options.ranks = arguments.base_ranks;
  const auto base = job::analyze_job(arguments.base, options);
  options.ranks = arguments.other_ranks;
  const auto other = job::analyze_job(arguments.other, options);
  line.clear();
  const bool terminal = format == report::Format::text || format == report::Format::markdown;
  const auto top = arguments.top.value_or(terminal ? report::kDefaultTopKernels : 0);
  const auto comparison =
      comparison::compare_runs(base, other, {arguments.base_batch, arguments.other_batch, top, arguments.full_names});
  for (const auto& warning : comparison.warnings) fmt::print(stderr, "gpuprof: warning: {}\n", printable(warning));
  for (const auto& note : comparison.notices) notice(invocation, "gpuprof: note: " + printable(note));
  if (arguments.output.empty() || arguments.output == "-") {
    const auto text = comparison::render_comparison(format, comparison, arguments.wide);
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    comparison::write_comparison(format, comparison, arguments.output, write_options, arguments.wide);
  }
  return kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<CompareArguments>();
  auto base_text = std::make_shared<std::string>(), other_text = std::make_shared<std::string>();
  auto* command = app.add_subcommand(
      "compare", "Compare two runs (e.g. 1 GPU vs N GPUs): speedup, scaling efficiency, step-time waterfall, kernels");
  command->add_option("base", *base_text, "Base run: a trace, a folder of rank traces, or rank files joined by ','")
      ->required();
  command->add_option("other", *other_text, "Other run, same forms as base")->required();
  offer_values(command->add_option("--format", arguments->format, "Output format")->capture_default_str(),
               {"text", "md", "csv", "json", "html"});
  command->add_option("-o,--output", arguments->output, "Output file (CSV: a folder for one file per table)")
      ->check(kNonEmptyPath);
  command->add_option("--base-ranks", arguments->base_ranks, "Rank of each base trace file, in order (e.g. 0,1)")
      ->delimiter(',');
  command->add_option("--other-ranks", arguments->other_ranks, "Rank of each other trace file, in order")
      ->delimiter(',');
  command->add_option("--base-batch", arguments->base_batch, "Samples per step of the whole base job");
  command->add_option("--other-batch", arguments->other_batch, "Samples per step of the whole other job");
  command->add_option("--warmup-steps", arguments->warmup_steps, "Leading steps left out of steady state")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_option("--step-pattern", arguments->step_pattern,
                      "Regex for step annotations; group 1 is the step number (as in report)");
  command->add_option("--comm-pattern", arguments->comm_patterns,
                      "Regex for more communication kernels (as in report); repeatable");
  command->add_flag("--wide", arguments->wide,
                    "Text: whole lines and kernel names (wider than 120 columns); otherwise 120 columns");
  command->add_flag("--full-names", arguments->full_names, "Show whole kernel names instead of short base names");
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  command->add_option("--top", arguments->top,
                      "Kernel rows, largest change first (0: all; default 15 in text and md, all in json, csv and html)")
      ->check(CLI::NonNegativeNumber);
  command->callback([arguments, base_text, other_text, &action] {
    arguments->base = split_side(*base_text);
    arguments->other = split_side(*other_text);
    action = [arguments](const Invocation& invocation) { return run_compare(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
