#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli_reference.hpp"
#include "command.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/sync_model.hpp"
#include "progress_line.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/study/study_store.hpp"
#include "gpuprof/study/study_writers.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

namespace fs = std::filesystem;

struct StudyArguments {
  std::string folder;
  std::string format = "text";
  std::string output;
  bool force = false;
  bool wide = false;
  study::PredictionSettings predict;
};

int run_study_command(const StudyArguments& arguments, const Invocation& invocation) {
  const auto format = report::format_from_string(arguments.format);  // one line and exit 2 when unknown
  const auto path = (fs::path(arguments.folder) / study::kStudyFileName).string();
  std::error_code missing;  // a loop of links is not "missing": opening it says what it is
  if (!fs::exists(path, missing) && !missing) {
    fmt::print(stderr, "gpuprof: {}: no study here (run gpuprof sweep -o {} first)\n", printable(path),
               printable(arguments.folder));
    return kExitBadInput;
  }
  if (!arguments.output.empty() && arguments.output != "-") refuse_writing_over_inputs({arguments.output}, {arguments.folder});
  auto store = study::StudyStore::open(path, false);
  const auto data = store.load();
  std::vector<std::string> notices;
  ProgressLine line(stderr, "study", invocation.quiet);
  const auto breakdowns = study::breakdowns_of_study(data, arguments.folder, notices, line.callback());
  line.clear();
  auto report = study::build_study_report(data, breakdowns);
  report.waterfalls = study::waterfalls_of_study(data, arguments.folder, notices);
  report.predictions = study::predict_study(data, report.rows, arguments.folder, arguments.predict, notices);
  report.notices.insert(report.notices.end(), notices.begin(), notices.end());
  const auto text = study::render_study(format, report, arguments.wide);
  if (arguments.output.empty() || arguments.output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    // The study folder holds every file the study reads: none may be written over.
    report::write_files({{arguments.output, text}}, {.overwrite = arguments.force, .inputs = {arguments.folder}});
  }
  return kExitOk;
}

}  // namespace

void add_study_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<StudyArguments>();
  auto* command = app.add_subcommand("study", "Report a scaling study: speedups, fits, break-even batch sizes");
  command->add_option("study", arguments->folder, "Study folder written by gpuprof sweep")->required();
  command->add_option("--format", arguments->format, "text, md, html, csv or json")->capture_default_str();
  command->add_option("-o,--output", arguments->output, "Output file (default: standard output)")
      ->check(kNonEmptyPath);
  command->add_flag("-f,--force", arguments->force, "Overwrite an existing output file");
  command->add_option("--predict-link", arguments->predict.link,
                      "Predict the N-GPU runs from the 1-GPU traces over this link preset (see gpuprof predict; "
                      "default: chosen from the traces' GPU)");
  command->add_option("--predict-strategy", arguments->predict.strategy, "data-parallel or host-staged")
      ->capture_default_str();
  command->add_option("--predict-gpus", arguments->predict.gpus,
                      "GPU counts to predict, e.g. 2,4,8 (default: the sweep's counts above 1, else 2)");
  command->add_option("--predict-grad-bytes", arguments->predict.gradient_bytes,
                      "Gradient bytes per step when the traces do not state them");
  command->add_option("--predict-sync", arguments->predict.sync,
                      "data-parallel: ring-allreduce, ps-cpu or ps-gpu (see gpuprof predict --sync)");
  command->add_option("--predict-topology", arguments->predict.topology,
                      "The machine's `nvidia-smi topo -m` output (see gpuprof predict --topology)");
  command->add_flag("--wide", arguments->wide, "Text: every column, one line per row (otherwise 120 columns)");
  offer_values(command->get_option("--predict-link"), predict::link_preset_names());
  offer_values(command->get_option("--predict-sync"), predict::sync_names());
  offer_values(command->get_option("--predict-strategy"), {"data-parallel", "host-staged"});
  offer_values(command->get_option("--format"), {"text", "md", "html", "csv", "json"});
  command->callback([arguments, command, &action] {
    // Any --predict-* option asks for the predictions.
    for (const char* option : {"--predict-link", "--predict-strategy", "--predict-gpus", "--predict-grad-bytes",
                               "--predict-sync", "--predict-topology"})
      arguments->predict.enabled = arguments->predict.enabled || command->count(option) > 0;
    action = [arguments](const Invocation& invocation) { return run_study_command(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
