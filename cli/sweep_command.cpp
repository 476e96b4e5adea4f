#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

#include "command.hpp"
#include "progress_line.hpp"
#include "gpuprof/launcher/collector_location.hpp"
#include "gpuprof/launcher/gpu_inventory.hpp"
#include "gpuprof/study/study_store.hpp"
#include "gpuprof/study/sweep_runner.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/number_list.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

namespace fs = std::filesystem;

struct SweepArguments {
  study::SweepSettings settings;
  std::string batches = "64,128,256,512,1024";
  std::string gpus = "1,2";
  std::int64_t epochs = 0, steps = 0;
  bool resume = false, force = false;
  std::string output;
};

int refuse(const std::string& problem) {
  fmt::print(stderr, "gpuprof: {}\n", printable(problem));
  return kExitBadInput;
}

std::string self_executable() {
  std::error_code error;
  const auto path = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("gpuprof") : path.string();
}

// $GPUPROF_WORKLOAD, else beside gpuprof (installed) or in the build tree, else PATH.
std::string find_workload_binary() {
  if (const char* path = std::getenv("GPUPROF_WORKLOAD"); path != nullptr && *path) return path;
  const fs::path folder = fs::path(self_executable()).parent_path();
  for (const auto& candidate : {folder / "gpuprof-workload", folder / ".." / "workloads" / "gpuprof-workload"}) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) return fs::absolute(candidate).lexically_normal().string();
  }
  return "gpuprof-workload";
}

std::string complete_settings(SweepArguments& arguments) {
  auto& settings = arguments.settings;
  const auto batches = units::parse_number_list(arguments.batches);
  if (!batches) return "--batch: expected a comma-separated list of numbers, got '" + arguments.batches + "'";
  const auto gpus = units::parse_number_list(arguments.gpus);
  if (!gpus) return "--gpus: expected a comma-separated list of numbers, got '" + arguments.gpus + "'";
  settings.batches = *batches;
  settings.gpus = *gpus;
  if (arguments.epochs != 0) settings.epochs = arguments.epochs;
  if (arguments.steps != 0) settings.steps = arguments.steps;
  if (!settings.command.empty() && !settings.extra_arguments.empty()) {
    return "extra workload arguments after -- go with --workload; put them in --command instead";
  }
  if (arguments.resume && arguments.force) return "--resume and --force exclude each other";
  return study::check_settings(settings);
}

// Refused before anything is written: a program that exists for no configuration at all.
std::string check_programs(const study::SweepSettings& settings, const std::string& workload_binary) {
  std::string missing;
  for (const auto& configuration : study::expand_grid(settings)) {
    const auto program = study::program_of(settings, configuration, workload_binary);
    if (study::program_exists(program)) return {};
    missing = program;
  }
  return "command not found: " + (missing.empty() ? settings.command : missing) +
         (settings.command.empty() ? " (build the workloads, or set GPUPROF_WORKLOAD)" : "");
}

std::string prepare_folder(const fs::path& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) return folder.string() + ": cannot create the study folder: " + error.message();
  if (!fs::is_directory(folder) || ::access(folder.c_str(), W_OK) != 0) {
    return folder.string() + ": the study folder is not writable";
  }
  return {};
}

// The files --force would remove or a new study would replace; none may be one the runs read.
std::vector<std::string> study_outputs(const fs::path& folder) {
  std::vector<std::string> outputs = {(folder / study::kStudyFileName).string()};
  std::error_code error;
  for (const char* sub : {"traces", "summaries", "logs"}) {
    for (fs::recursive_directory_iterator entry(folder / sub, error), end; !error && entry != end;
         entry.increment(error)) {
      outputs.push_back(entry->path().string());
    }
  }
  return outputs;
}

// The words of --command and the workload arguments that name files.
std::vector<std::string> program_files(const study::SweepSettings& settings) {
  std::vector<std::string> words = settings.extra_arguments;
  std::istringstream command(settings.command);
  for (std::string word; command >> word;) words.push_back(word);
  return words;
}

void start_over(const fs::path& folder) {
  std::error_code error;
  fs::remove(folder / study::kStudyFileName, error);
  for (const char* sub : {"traces", "summaries", "logs"}) fs::remove_all(folder / sub, error);
}

std::map<std::string, std::string> study_meta(const SweepArguments& arguments, const Invocation& invocation) {
  const auto& settings = arguments.settings;
  return {{"workload", settings.workload}, {"strategy", settings.strategy}, {"command", settings.command},
          {"epochs", settings.epochs ? std::to_string(*settings.epochs) : ""},
          {"steps", settings.steps ? std::to_string(*settings.steps) : ""},
          {"repeat", std::to_string(settings.repeat)}, {"settings", study::settings_fingerprint(settings)},
          {"command_line", invocation.command_line}, {"tool_version", GPUPROF_VERSION},
          {"synthetic", settings.synthetic ? "1" : ""}};
}

int run_sweep_command(SweepArguments& arguments, const Invocation& invocation) {
  if (auto problem = complete_settings(arguments); !problem.empty()) return refuse(problem);
  const bool synthetic = arguments.settings.synthetic;
  if (!synthetic && arguments.settings.command.empty()) {
    const auto gpus = launcher::find_gpus();
    if (auto problem = study::check_machine(arguments.settings, gpus.count, gpus.reason); !problem.empty()) {
      return refuse(problem);
    }
  }
  const auto workload_binary = find_workload_binary();
  if (!synthetic) {
    if (auto problem = check_programs(arguments.settings, workload_binary); !problem.empty()) return refuse(problem);
  }
  const fs::path folder = fs::absolute(arguments.output);
  if (auto problem = prepare_folder(folder); !problem.empty()) return refuse(problem);
  const auto path = (folder / study::kStudyFileName).string();
  std::error_code unreadable;  // a loop of links counts as there: opening it says what it is
  const bool exists = fs::exists(path, unreadable) || unreadable;
  if (exists && !arguments.resume && !arguments.force) {
    return refuse(path + " already exists (use --resume to continue it, or --force to start over)");
  }
  if (!synthetic && launcher::find_collector_library().empty()) {
    fmt::print(stderr, "gpuprof: libgpuprof_collector.so not found (build it, or set GPUPROF_COLLECTOR)\n");
    return kExitFailure;
  }
  try {
    auto members = study_outputs(folder);
    for (const char* sub : {"traces", "summaries", "logs"}) members.push_back((folder / sub).string());
    study::refuse_links_out_of_study(folder.string(), members);
    refuse_writing_over_inputs(study_outputs(folder), program_files(arguments.settings));
  } catch (const TraceError& error) {
    return refuse(error.what());
  }
  if (exists && arguments.force) start_over(folder);
  const bool resuming = exists && arguments.resume;
  auto store = resuming ? study::StudyStore::open(path, true)
                        : study::StudyStore::create(path, study_meta(arguments, invocation));
  if (resuming && store.meta_value("settings") != study::settings_fingerprint(arguments.settings)) {
    return refuse(path + ": was swept with other settings (workload, strategy, epochs/steps, command or extra "
                         "arguments); use --force to start over");
  }
  const auto grid = study::expand_grid(arguments.settings);
  for (const auto& configuration : grid) store.add_configuration(configuration);
  const auto plan = study::plan_sweep(grid, arguments.settings.repeat, arguments.settings.calibrate,
                                      resuming ? store.load().runs : std::vector<study::RunRecord>{});
  if (resuming) notice(invocation, fmt::format("gpuprof: resuming {}: {} runs left", path, plan.size()));
  ProgressLine line(stderr, "sweep", invocation.quiet);
  const auto tally = study::run_sweep(store, arguments.settings, plan,
                                      {folder.string(), self_executable(), workload_binary, line.callback(),
                                       [&line](const std::string& failure) { line.note(failure); }});
  line.clear();
  notice(invocation, fmt::format("gpuprof: sweep done: {} ok, {} failed, {} skipped; see gpuprof study {}", tally.ok,
                                 tally.failed, tally.skipped, folder.string()));
  return tally.failed > 0 && tally.ok == 0 ? kExitFailure : kExitOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<SweepArguments>();
  auto& settings = arguments->settings;
  auto* command = app.add_subcommand("sweep", "Run a workload over a grid of batch sizes and GPU counts, profiled");
  command->add_option("--workload", settings.workload, "Built-in workload: rnn, towers, resnet or mlp");
  command->add_option("--command", settings.command,
                      "Your own program: 'CMD {batch} {gpus} {strategy} {summary}' (placeholders filled in)");
  command->add_option("--batch", arguments->batches, "Global batch sizes")->capture_default_str();
  command->add_option("--gpus", arguments->gpus, "GPU counts (1 GPU runs use strategy single)")->capture_default_str();
  command->add_option("--strategy", settings.strategy, "Multi-GPU strategy: data-parallel or host-staged")
      ->capture_default_str();
  auto* epochs = command->add_option("--epochs", arguments->epochs, "Epochs per run");
  command->add_option("--steps", arguments->steps, "Steps per run instead of epochs")->excludes(epochs);
  command->add_option("--repeat", settings.repeat, "Runs per configuration")->capture_default_str();
  command->add_flag("--synthetic", settings.synthetic,
                    "Sweep the grid on gpuprof synth traces instead of a GPU (labelled synthetic everywhere)");
  command->add_flag("--calibrate", settings.calibrate, "Run each configuration once more without the collector");
  command->add_flag("--resume", arguments->resume, "Continue an interrupted study: finished runs are kept");
  command->add_flag("-f,--force", arguments->force, "Replace an existing study");
  command->add_option("-o,--output", arguments->output, "Study folder")->required()
      ->check(kNonEmptyPath);
  command->add_option("workload_arguments", settings.extra_arguments, "Extra workload arguments, after --");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_sweep_command(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
