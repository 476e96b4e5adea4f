#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <set>

#include "cli_reference.hpp"
#include "command.hpp"
#include "progress_line.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

namespace fs = std::filesystem;

struct ImportArguments {
  std::vector<std::string> inputs;
  std::string output;
  std::string format;
  bool force = false;
};

// "worker0.pt.trace.json.gz" → "worker0.pt.trace": compression and format suffixes go.
std::string output_stem(const std::string& input) {
  fs::path name = fs::path(input).filename();
  for (const char* suffix : {".gz", ".json", ".sqlite", ".nvvp", ".prof"}) {
    if (name.extension() == suffix) name = name.stem();
  }
  return name.string();
}

std::vector<std::string> output_paths(const ImportArguments& arguments) {
  if (arguments.inputs.size() == 1 && !fs::is_directory(arguments.output)) return {arguments.output};
  // Several inputs (the ranks of one job): -o names a folder, one trace per input.
  std::error_code error;
  if (!fs::is_directory(arguments.output)) {
    if (fs::exists(arguments.output)) {
      throw TraceError::bad_input(arguments.output, "is a file; with several inputs -o must name a folder");
    }
    fs::create_directories(arguments.output, error);
    if (error) throw TraceError::failure(arguments.output, "cannot create folder: " + error.message());
  }
  std::vector<std::string> outputs;
  std::set<std::string> seen;
  for (const auto& input : arguments.inputs) {
    const std::string output = (fs::path(arguments.output) / (output_stem(input) + ".sqlite")).string();
    if (!seen.insert(output).second) {
      throw TraceError::bad_input(input, "would be written to " + output + " like an earlier input");
    }
    outputs.push_back(output);
  }
  return outputs;
}

int run_import(const ImportArguments& arguments, const Invocation& invocation) {
  std::optional<importers::SourceFormat> format;
  if (!arguments.format.empty()) {
    format = importers::parse_source_format(arguments.format);
    if (!format) throw TraceError::bad_input("", "unknown --format '" + arguments.format + "' (kineto, nsys, nvprof)");
  }
  const auto outputs = output_paths(arguments);
  // Checked for all before the first import: `import x.sqlite y.sqlite -o .` must not replace x by its import.
  refuse_writing_over_inputs(outputs, arguments.inputs);
  ProgressLine line(stderr, "import", invocation.quiet);
  for (std::size_t i = 0; i < arguments.inputs.size(); ++i) {
    importers::ImportOptions options;
    options.input = arguments.inputs[i];
    options.output = outputs[i];
    options.format = format;
    options.overwrite = arguments.force;
    options.tool_version = GPUPROF_VERSION;
    options.progress = line.callback();
    const auto summary = importers::import_trace(options);
    line.clear();
    fmt::print("{} -> {}: {}\n", printable(summary.input), printable(summary.output),
               printable(importers::describe(summary)));
  }
  return kExitOk;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<ImportArguments>();
  auto* command = app.add_subcommand(
      "import", "Convert PyTorch profiler (Kineto) JSON, Nsight Systems SQLite exports or nvprof databases into "
                "gpuprof traces");
  command->add_option("inputs", arguments->inputs, "Foreign trace files (several: the ranks of one job)")
      ->required();
  command->add_option("-o,--output", arguments->output,
                      "Output trace; with several inputs, a folder receiving <input stem>.sqlite each")
      ->check(kNonEmptyPath)
      ->required();
  offer_values(command->add_option("--format", arguments->format, "Force the input format"),
               {"kineto", "nsys", "nvprof"});
  command->add_flag("-f,--force", arguments->force, "Overwrite existing output files");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_import(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
