#include "gpuprof/study/sweep_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "gpuprof/study/logged_process.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "synthetic_run.hpp"

namespace gpuprof::study {
namespace {

namespace fs = std::filesystem;

std::int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct RunFiles {
  fs::path trace_folder, summary, log;
  std::string trace_prefix;  // every trace of this run starts with it
};

RunFiles files_for(const SweepEnvironment& environment, const PlannedRun& run) {
  const fs::path root = environment.study_dir;
  const auto name = run.configuration.name();
  const auto suffix = run.kind == RunKind::profiled ? fmt::format("repeat{}", run.repeat) : std::string("calibration");
  return {root / "traces" / name, root / "summaries" / (name + "_" + suffix + ".json"),
          root / "logs" / (name + "_" + suffix + ".log"), suffix + "_"};
}

std::vector<fs::path> traces_of(const RunFiles& files) {
  std::vector<fs::path> traces;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(files.trace_folder, error)) {
    const auto file = entry.path().filename().string();
    if (file.rfind(files.trace_prefix, 0) == 0 && entry.path().extension() == ".sqlite") traces.push_back(entry.path());
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

// A re-run must not inherit the files of the interrupted attempt.
void clear_previous_attempt(const RunFiles& files) {
  std::error_code error;
  for (const auto& trace : traces_of(files)) fs::remove(trace, error);
  fs::remove(files.summary, error);
  fs::remove(files.log, error);
  fs::create_directories(files.trace_folder, error);
  fs::create_directories(files.summary.parent_path(), error);
  fs::create_directories(files.log.parent_path(), error);
}

std::vector<std::string> full_command(const SweepSettings& settings, const PlannedRun& run, const RunFiles& files,
                                      const SweepEnvironment& environment) {
  auto command = command_for(settings, run.configuration, files.summary.string(), environment.workload_binary);
  if (run.kind == RunKind::calibration) return command;
  // %p keeps the files of several ranks (processes) of one run apart.
  const auto pattern = (files.trace_folder / (files.trace_prefix + "%p.sqlite")).string();
  command.insert(command.begin(), {environment.gpuprof_binary, "record", "-o", pattern, "--force", "--"});
  return command;
}

RunResult result_of(const SweepSettings& settings, const RunFiles& files, double wall_seconds) {
  RunResult result;
  result.summary = read_workload_summary(files.summary.string()).value_or(WorkloadSummary{});
  const auto& summary = result.summary;
  result.time_seconds = summary.training_seconds.value_or(wall_seconds);
  result.time_source = summary.training_seconds ? "summary" : "wall";
  // Step time only from the program's own clock: the wall time includes start-up and set-up.
  const auto steps = summary.steps ? summary.steps : settings.steps;
  if (summary.training_seconds && steps && *steps > 0) result.seconds_per_step = *summary.training_seconds / static_cast<double>(*steps);
  return result;
}

std::string describe_failure(const ProcessOutcome& outcome, const RunFiles& files) {
  if (!outcome.started) return "cannot start: " + outcome.start_error;
  const auto line = failure_line(files.log.string());
  std::string meaning;
  if (outcome.exit_code == 2) meaning = " (bad input, or the machine cannot run it)";
  if (outcome.exit_code == 127) meaning = " (command not found)";
  if (outcome.exit_code > 128) meaning = fmt::format(" (killed by signal {})", outcome.exit_code - 128);
  return fmt::format("exit {}{}{}", outcome.exit_code, meaning, line.empty() ? "" : ": " + line);
}

bool has_ok_profiled_run(StudyStore& store, const std::string& name) {
  for (const auto& run : store.load().runs) {
    if (run.configuration == name && run.kind == RunKind::profiled && run.status == RunStatus::ok) return true;
  }
  return false;
}

// A synthetic run writes its trace in this process: there is no program to start.
void execute_synthetic(StudyStore& store, const SweepSettings& settings, const PlannedRun& run,
                       const RunFiles& files, const SweepEnvironment& environment, RunRecord& record) {
  const auto trace = files.trace_folder / (files.trace_prefix + "synthetic.sqlite");
  const auto started = std::chrono::steady_clock::now();
  try {
    const auto result = write_synthetic_run(settings, run.configuration, run.repeat, trace.string());
    record.status = RunStatus::ok;
    record.exit_code = 0;
    record.trace_paths.push_back(fs::relative(trace, environment.study_dir).string());
    record.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    record.end_ns = unix_now_ns();
    store.finish_run(record);
    store.save_result(record.id, result);
  } catch (const TraceError& error) {
    record.status = RunStatus::failed;
    record.exit_code = 1;
    record.error = std::string("synthetic trace: ") + error.what();
    record.end_ns = unix_now_ns();
    store.finish_run(record);
  }
}

RunRecord execute(StudyStore& store, const SweepSettings& settings, const PlannedRun& run,
                  const SweepEnvironment& environment) {
  const auto files = files_for(environment, run);
  clear_previous_attempt(files);
  RunRecord record;
  record.configuration = run.configuration.name();
  record.repeat = run.repeat;
  record.kind = run.kind;
  record.start_ns = unix_now_ns();
  record.id = store.begin_run(record.configuration, run.repeat, run.kind, record.start_ns);
  if (settings.synthetic) {
    execute_synthetic(store, settings, run, files, environment, record);
    return record;
  }
  const auto program = program_of(settings, run.configuration, environment.workload_binary);
  if (run.kind == RunKind::calibration && !has_ok_profiled_run(store, record.configuration)) {
    record.status = RunStatus::skipped;
    record.error = "no successful profiled run to compare with";
  } else if (!program_exists(program)) {
    record.status = RunStatus::failed;
    record.exit_code = 127;
    record.error = "command not found: " + program;
  } else {
    const auto started = std::chrono::steady_clock::now();
    const auto outcome = run_logged(full_command(settings, run, files, environment), files.log.string());
    record.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    record.exit_code = outcome.exit_code;
    record.status = outcome.started && outcome.exit_code == 0 ? RunStatus::ok : RunStatus::failed;
    if (record.status == RunStatus::failed) record.error = describe_failure(outcome, files);
    for (const auto& trace : traces_of(files)) {
      record.trace_paths.push_back(fs::relative(trace, environment.study_dir).string());
    }
  }
  record.end_ns = unix_now_ns();
  store.finish_run(record);
  if (record.status == RunStatus::ok) store.save_result(record.id, result_of(settings, files, record.wall_seconds));
  return record;
}

}  // namespace

SweepTally run_sweep(StudyStore& store, const SweepSettings& settings, const std::vector<PlannedRun>& plan,
                     const SweepEnvironment& environment) {
  SweepTally tally;
  for (std::size_t index = 0; index < plan.size(); ++index) {
    const auto& run = plan[index];
    const auto what = run.kind == RunKind::profiled
                          ? fmt::format("{} repeat {}/{}", run.configuration.name(), run.repeat, settings.repeat)
                          : fmt::format("{} without the collector", run.configuration.name());
    // Runs of one sweep differ in length, but the mean so far is the best guess of the time left there is.
    const auto item = fmt::format("[{}/{}] {}", index + 1, plan.size(), what);
    if (environment.progress) {
      environment.progress({"run", static_cast<std::int64_t>(index), static_cast<std::int64_t>(plan.size()), "runs", item});
    }
    const auto record = execute(store, settings, run, environment);
    if (record.status == RunStatus::ok) ++tally.ok;
    if (record.status == RunStatus::skipped) ++tally.skipped;
    if (record.status == RunStatus::failed) {
      ++tally.failed;
      if (environment.on_failure) environment.on_failure(fmt::format("gpuprof: {} failed: {}", what, record.error));
    }
  }
  return tally;
}

}  // namespace gpuprof::study
