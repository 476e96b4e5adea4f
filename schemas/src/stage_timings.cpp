#include "gpuprof/trace/stage_timings.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>

namespace gpuprof::trace {
namespace {

using Clock = std::chrono::steady_clock;

const Clock::time_point kEpoch = Clock::now();

bool enabled_by_environment() {
  const char* value = std::getenv("GPUPROF_TIMINGS");
  return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

std::atomic<bool> enabled{enabled_by_environment()};
std::atomic<int> next_thread{0};
thread_local int thread_number = -1;
thread_local int thread_depth = 0;

std::mutex stages_mutex;
std::vector<StageTiming>& stages() {
  static std::vector<StageTiming> recorded;
  return recorded;
}

double wall_now() { return std::chrono::duration<double>(Clock::now() - kEpoch).count(); }

double thread_cpu_now() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double seconds(const timeval& value) {
  return static_cast<double>(value.tv_sec) + static_cast<double>(value.tv_usec) * 1e-6;
}

void append(std::string& out, const char* format, auto... values) {
  char line[256];
  const int length = std::snprintf(line, sizeof line, format, values...);
  if (length > 0) out.append(line, std::min<std::size_t>(static_cast<std::size_t>(length), sizeof line - 1));
}

}  // namespace

void enable_stage_timings() { enabled = true; }
bool stage_timings_enabled() { return enabled.load(std::memory_order_relaxed); }

StageTimer::StageTimer(std::string_view name) : active_(stage_timings_enabled()) {
  if (!active_) return;
  name_ = name;
  if (thread_number < 0) thread_number = next_thread++;
  ++thread_depth;
  wall_start_ = wall_now();
  cpu_start_ = thread_cpu_now();
}

StageTimer::~StageTimer() {
  if (!active_) return;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  StageTiming stage{std::move(name_),          --thread_depth, thread_number, wall_start_, wall_now() - wall_start_,
                    thread_cpu_now() - cpu_start_, static_cast<double>(usage.ru_maxrss) / 1024.0};
  const std::lock_guard lock(stages_mutex);
  stages().push_back(std::move(stage));
}

std::vector<StageTiming> recorded_stage_timings() {
  std::vector<StageTiming> copy;
  {
    const std::lock_guard lock(stages_mutex);
    copy = stages();
  }
  // Recorded as each ends, so a stage follows those inside it; listed per thread (in the order the threads
  // first timed a stage), each thread's stages as they started.
  std::stable_sort(copy.begin(), copy.end(), [](const StageTiming& a, const StageTiming& b) {
    if (a.thread != b.thread) return a.thread < b.thread;
    return a.start_s < b.start_s || (a.start_s == b.start_s && a.depth < b.depth);
  });
  return copy;
}

ProcessUsage process_usage() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {seconds(usage.ru_utime), seconds(usage.ru_stime), static_cast<double>(usage.ru_maxrss) / 1024.0,
          wall_now()};
}

std::string format_stage_timings(const std::vector<StageTiming>& stages, const ProcessUsage& usage) {
  const double cpu = usage.user_s + usage.system_s;
  std::string out =
      "gpuprof: timings (CPU: the stage's own thread; share: of the process' CPU; peak: the process' peak resident "
      "memory when the stage ended)\n";
  append(out, "  %-52s %9s %9s %7s %9s\n", "stage", "wall s", "CPU s", "share", "peak MiB");
  for (const auto& stage : stages) {
    std::string label(static_cast<std::size_t>(2 * stage.depth), ' ');
    label += stage.name;
    if (stage.thread != 0) label += " [thread " + std::to_string(stage.thread + 1) + "]";
    append(out, "  %-52s %9.3f %9.3f %6.1f%% %9.0f\n", label.c_str(), stage.wall_s, stage.cpu_s,
           cpu > 0 ? 100.0 * stage.cpu_s / cpu : 0.0, stage.peak_mib);
  }
  append(out, "  process: %.3f s wall, %.3f s CPU (%.3f user + %.3f sys), peak resident %.0f MiB\n", usage.wall_s, cpu,
         usage.user_s, usage.system_s, usage.peak_mib);
  return out;
}

}  // namespace gpuprof::trace
