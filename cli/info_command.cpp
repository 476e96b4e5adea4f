#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli_reference.hpp"
#include "command.hpp"
#include "progress_line.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/report/info_document.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

struct InfoArguments {
  std::vector<std::string> traces;
  std::string format = "text";
};

// A foreign trace (Kineto JSON, Nsight Systems, nvprof) is imported to a temporary
// gpuprof trace first. Anything not recognised as foreign goes to TraceFile as it
// is, whose refusal says precisely what is wrong with it.
std::string as_gpuprof_trace(const std::string& path, importers::TemporaryStore& store,
                             const progress::ProgressCallback& progress) {
  importers::SourceFormat format = importers::SourceFormat::gpuprof;
  try {
    format = importers::detect_source_format(path);
  } catch (const TraceError&) {
    return path;
  }
  return format == importers::SourceFormat::gpuprof ? path : importers::open_as_trace(path, store, progress);
}

int run_info(const InfoArguments& arguments, const Invocation& invocation) {
  if (arguments.format != "text" && arguments.format != "json") {
    fmt::print(stderr, "gpuprof: --format: unknown format '{}' (use text or json)\n", printable(arguments.format));
    return kExitBadInput;
  }
  importers::TemporaryStore store;
  // A job folder is its trace files, as `report` reads it. Every file is described before printing, so a
  // bad file fails the command without half a listing.
  const auto paths = job::expand_inputs(arguments.traces);
  std::string text;
  std::vector<std::string> objects;
  // A gpuprof file is described from its tables' counts, without loading it; only an import takes long.
  ProgressLine line(stderr, "info", invocation.quiet);
  for (std::size_t index = 0; index < paths.size(); ++index) {
    const auto& path = paths[index];
    const auto trace = as_gpuprof_trace(path, store, line.callback());
    line.clear();
    if (arguments.format == "json") {
      objects.push_back(importers::read_as_input(path, trace, [&] { return report::info_json_trace({path, trace}); }));
      continue;
    }
    if (index > 0) text += "\n";
    text += importers::read_as_input(path, trace, [&] { return report::info_text({path, trace}); });
  }
  if (arguments.format == "json") text = report::info_json_document(objects);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

}  // namespace

void add_info_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<InfoArguments>();
  auto* command = app.add_subcommand(
      "info", "Describe trace files: schema, source, host, ranks, devices, time span, rows per table, collector stats");
  command->add_option("traces", arguments->traces, "Trace files (gpuprof, Kineto, Nsight, nvprof) or job folders")
      ->required();
  offer_values(command->add_option("--format", arguments->format, "text, or json (format gpuprof.info/1)")
                   ->capture_default_str(),
               {"text", "json"});
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_info(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
