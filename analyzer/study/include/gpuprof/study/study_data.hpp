#pragma once

// What a study file holds, in memory: the grid, every run and what each produced.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/study/sweep_grid.hpp"
#include "gpuprof/study/workload_summary.hpp"

namespace gpuprof::study {

inline constexpr const char* kStudyFormat = "gpuprof.study";
inline constexpr std::int64_t kStudyVersion = 1;
inline constexpr const char* kStudyFileName = "study.sqlite";

// `profiled` runs under `gpuprof record`; `calibration` runs the same command without the collector.
enum class RunKind { profiled, calibration };
// `running` is what an interrupted sweep leaves behind; --resume runs it again.
enum class RunStatus { running, ok, failed, skipped };

const char* to_string(RunKind kind);
const char* to_string(RunStatus status);
std::optional<RunKind> run_kind_from_string(std::string_view text);
std::optional<RunStatus> run_status_from_string(std::string_view text);

struct RunRecord {
  std::int64_t id = 0;
  std::string configuration;  // Configuration::name()
  std::int64_t repeat = 1;    // from 1
  RunKind kind = RunKind::profiled;
  RunStatus status = RunStatus::running;
  std::optional<std::int64_t> exit_code;
  std::string error;
  std::int64_t start_ns = 0, end_ns = 0;  // Unix time
  double wall_seconds = 0;
  std::vector<std::string> trace_paths;  // relative to the study folder
};

// The figures of one finished run. `time_seconds` is the program's own training
// time when it wrote a summary, otherwise the wall time of the run.
struct RunResult {
  WorkloadSummary summary;
  double time_seconds = 0;
  std::string time_source;  // "summary" or "wall"
  std::optional<double> seconds_per_step;
};

struct StudyData {
  std::map<std::string, std::string> meta;
  std::vector<Configuration> configurations;
  std::vector<RunRecord> runs;
  std::map<std::int64_t, RunResult> results;  // by run id
};

}  // namespace gpuprof::study
