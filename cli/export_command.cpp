#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

struct ExportArguments {
  std::string input;
  std::string chrome_trace;
  bool force = false;
};

int run_export(const ExportArguments& arguments) {
  exporters::ChromeTraceOptions options;
  options.input = arguments.input;
  options.output = arguments.chrome_trace;
  options.overwrite = arguments.force;
  const auto summary = exporters::export_chrome_trace(options);
  for (const auto& warning : summary.warnings) {
    fmt::print(stderr, "gpuprof: warning: {}: {}\n", printable(arguments.input), printable(warning));
  }
  fmt::print("{} -> {}: {} events, {}\n", arguments.input, summary.output, summary.events,
             units::format_bytes(summary.output_bytes));
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<ExportArguments>();
  auto* command = app.add_subcommand(
      "export", "Write a trace for other viewers: Chrome trace / Perfetto JSON (opens in ui.perfetto.dev and "
                "chrome://tracing, and reads back with 'gpuprof import')");
  command->add_option("trace", arguments->input,
                      "Trace file: gpuprof, or Kineto, Nsight Systems SQLite or nvprof (imported on the fly)")
      ->required();
  command->add_option("--chrome-trace", arguments->chrome_trace,
                      "Output JSON file; a name ending in .gz is gzip-compressed")
      ->check(kNonEmptyPath)
      ->required();
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation&) { return run_export(*arguments); };
  });
}

}  // namespace gpuprof::cli
