#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprof::analysis {

enum class WindowMode { steps, span };

// The default matches `ProfilerStep#12`, `step 12`, `batch 12`; group 1 is the step number.
inline constexpr const char* kDefaultStepPattern = R"(^(?:ProfilerStep#|[Ss]tep[ _#]?|[Bb]atch[ _#]?)(\d+)$)";

struct AnalysisOptions {
  WindowMode window = WindowMode::steps;
  // ECMAScript regex; when it has a capture group, group 1 is the step number.
  std::string step_pattern = kDefaultStepPattern;
  // Extra ECMAScript regexes for communication kernels (searched anywhere in the name).
  std::vector<std::string> comm_patterns;
  // The first steps of each device are warm-up and stay out of steady-state figures.
  std::int64_t warmup_steps = 1;
  // Kernel rows kept in the summary (0: all).
  std::size_t top_kernels = 0;
  // Keep every idle interval with its causes (RankAnalysis::idle_intervals), for views that show them one
  // by one; reports need only the sums the breakdowns carry.
  bool keep_idle_intervals = false;
  // With keep_idle_intervals: the host activity of this rank's longest this many kept intervals
  // (RankAnalysis::interval_host_activity), what the JSON lists with them; 0: of none.
  std::size_t interval_host_activity = 0;
  // The nsys-style summaries (RankAnalysis::host: NVTX ranges, API calls, launch latency per kernel, launch
  // queues) cost a pass over every event and its memory: only for views that show them.
  bool host_summaries = true;
  // GPU memory in use over time (RankAnalysis::memory): only for views that show it.
  bool memory_use = true;
};

// Throws TraceError::bad_input for an option no analysis can use (an invalid
// regex, a negative warm-up count), so that commands refuse it before any work.
void check_analysis_options(const AnalysisOptions& options);

}  // namespace gpuprof::analysis
