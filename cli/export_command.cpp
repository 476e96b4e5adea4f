#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "progress_line.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::cli {
namespace {

struct ExportArguments {
  std::vector<std::string> inputs;
  std::vector<std::int32_t> ranks;
  std::string chrome_trace;
  bool force = false;
};

std::string what_was_read(const ExportArguments& arguments, const exporters::ChromeTraceSummary& summary) {
  const std::string inputs = arguments.inputs.size() == 1 ? arguments.inputs.front()
                                                          : fmt::format("{} inputs", arguments.inputs.size());
  if (summary.clock_method.empty()) return inputs;
  return fmt::format("{} ({} ranks, clocks: {}; {} collective arrows)", inputs, summary.ranks, summary.clock_method,
                     summary.collective_arrows);
}

int run_export(const ExportArguments& arguments, const Invocation& invocation) {
  ProgressLine line(stderr, "export", invocation.quiet);
  exporters::ChromeTraceOptions options;
  options.inputs = arguments.inputs;
  options.ranks = arguments.ranks;
  options.output = arguments.chrome_trace;
  options.overwrite = arguments.force;
  options.progress = line.callback();
  const auto summary = exporters::export_chrome_trace(options);
  line.clear();
  for (const auto& note : summary.notices) notice(invocation, "gpuprof: note: " + printable(note));
  for (const auto& [file, warning] : summary.warnings) {
    fmt::print(stderr, "gpuprof: warning: {}: {}\n", printable(file), printable(warning));
  }
  fmt::print("{} -> {}: {} events, {}\n", printable(what_was_read(arguments, summary)), printable(summary.output),
             summary.events, units::format_bytes(summary.output_bytes));
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<ExportArguments>();
  auto* command = app.add_subcommand(
      "export", "Write a trace for other viewers: Chrome trace / Perfetto JSON (opens in ui.perfetto.dev and "
                "chrome://tracing, and reads back with 'gpuprof import'); a job's ranks go into one file");
  command->add_option("traces", arguments->inputs,
                      "Trace files (one per rank; gpuprof, or Kineto, Nsight Systems SQLite or nvprof, imported on "
                      "the fly) or folders")
      ->required();
  command->add_option("--chrome-trace", arguments->chrome_trace,
                      "Output JSON file; a name ending in .gz is gzip-compressed")
      ->check(kNonEmptyPath)
      ->required();
  command->add_option("--ranks", arguments->ranks, "Rank of each trace file, in order (e.g. 0,1,2,3); overrides meta")
      ->delimiter(',');
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_export(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
