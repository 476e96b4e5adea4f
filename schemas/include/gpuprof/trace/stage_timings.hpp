#pragma once

// Where a command's time goes, stage by stage (open, load, each analysis,
// write): `gpuprof report --timings`, or GPUPROF_TIMINGS=1 for any command,
// prints each stage's wall and CPU time to stderr (issue 38). Off by default,
// when a stage costs one test of a flag. Lives beside the loader, the lowest
// library every stage links, so loading, the analyses and the writers can all
// time themselves without a dependency of their own.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuprof::trace {

struct StageTiming {
  std::string name;
  int depth = 0;           // stages inside another stage of the same thread are indented under it
  int thread = 0;          // 0: the first thread that timed a stage; others numbered as they come
  double start_s = 0;      // since timings were enabled
  double wall_s = 0;
  double cpu_s = 0;        // of the stage's own thread (CLOCK_THREAD_CPUTIME_ID): other threads' stages are listed apart
  double peak_mib = 0;     // the process' peak resident memory when the stage ended: where the peak was reached
};

// Turned on by the CLI (--timings) or by GPUPROF_TIMINGS set to anything but "" or "0".
void enable_stage_timings();
bool stage_timings_enabled();

// Times the enclosing scope as one stage when timings are on; does nothing otherwise.
class StageTimer {
 public:
  explicit StageTimer(std::string_view name);
  ~StageTimer();
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  bool active_ = false;
  std::string name_;
  double wall_start_ = 0;
  double cpu_start_ = 0;
};

// The value of `work()`, timed as stage `name`.
template <typename Work>
decltype(auto) timed(std::string_view name, Work&& work) {
  const StageTimer timer(name);
  return work();
}

// Every stage recorded so far, in the order they started.
std::vector<StageTiming> recorded_stage_timings();

// The process so far: user and system CPU of every thread, peak resident memory.
struct ProcessUsage {
  double user_s = 0;
  double system_s = 0;
  double peak_mib = 0;
  double wall_s = 0;  // since timings were enabled
};
ProcessUsage process_usage();

// The stages as a table for stderr, each with its share of the process' CPU, then the process' totals.
std::string format_stage_timings(const std::vector<StageTiming>& stages, const ProcessUsage& usage);

}  // namespace gpuprof::trace
