#pragma once

// What the host did during one stretch of device idle time (a batch gap or
// one idle interval), call by call: the app's details pane for a clicked gap
// band says "cudaStreamSynchronize on thread 12: 1 call, 310 us (sync_wait)"
// next to the causes' shares. Read from the threads that issue the rank's GPU
// work, and data-loading ranges from every thread, as the idle causes are;
// where the trace records the OS scheduler, also the time those threads ran on
// a CPU outside every call and range read (the host_bound it stands for).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

// thread_running: a thread on a CPU (trace::ThreadStateTable) while no call or range read covers it.
enum class HostEventKind : std::uint8_t { api_call, sync, range, thread_running };

std::string_view to_string(HostEventKind kind);

// The host events of one name, kind and thread that overlap the stretch. For thread_running, the
// thread's running stretches that reach outside every call and range read, and only that time.
struct HostEventGroup {
  HostEventKind kind = HostEventKind::api_call;
  std::string name;
  std::int64_t thread = 0;
  std::int64_t count = 0;
  std::int64_t overlap_ns = 0;  // summed over the group's events, each clipped to the stretch
  IdleCause cause = IdleCause::host_bound;  // what such an event stands for among the idle causes
};

struct HostActivityDuring {
  std::int64_t start_ns = 0, end_ns = 0;
  std::vector<HostEventGroup> groups;  // most overlap first, at most the limit asked for
  std::int64_t groups_left_out = 0;
  // Time of the stretch under any of the events read (step annotations and phase ranges left out) or with an issuing
  // thread running: how much they explain.
  std::int64_t covered_ns = 0;
  // The thread that launched the work ending the stretch, whose activity its idle causes are judged by
  // (host_causes.hpp); nullopt when that launch is not known (every issuing thread is then read).
  std::optional<std::int64_t> launched_by_thread;
};

// What the host did during many stretches of one model (every batch gap of a report). Host tables are
// sorted by start, so a stretch reads only the rows that start within the table's longest event before it
// ends: a search per table, not a pass over it. A table found out of order is read whole.
class HostActivityIndex {
 public:
  // `threads`: the threads that issue the rank's GPU work (any order); ranges whose name `is_step_name`
  // only mark a step; `pageable_calls` (per API row, pageable_copy_calls): calls listed as blocking_copy;
  // `phase_rows` (per range row, phase_ranges): ranges enclosing their phase, left out as step marks are.
  HostActivityIndex(const trace::TraceModel& model, std::vector<std::int64_t> threads,
                    std::function<bool(trace::StringId)> is_step_name, std::vector<bool> pageable_calls,
                    std::vector<bool> phase_rows = {});
  HostActivityDuring during(std::int64_t start_ns, std::int64_t end_ns, std::size_t limit = 5) const;

 private:
  // Where the rows that may overlap a stretch lie in one table.
  struct Reach {
    std::int64_t longest_ns = 0;
    bool sorted = true;
    bool from_first_row = false;  // an event longer than an int64 holds
  };
  static Reach reach_of(const trace::HostColumns& table);
  static std::pair<std::size_t, std::size_t> rows(const trace::HostColumns& table, const Reach& reach,
                                                   std::int64_t start_ns, std::int64_t end_ns);

  const trace::TraceModel& model_;
  std::vector<std::int64_t> threads_;
  std::map<std::int64_t, std::vector<analysis::Interval>> running_;  // per issuing thread, disjoint, by start
  std::function<bool(trace::StringId)> is_step_name_;
  std::vector<bool> pageable_calls_;
  std::vector<bool> phase_rows_;
  Reach api_calls_, syncs_, ranges_;
  // Per string id, classified once for every name the host tables use (api_call_cause; for ranges
  // kDataLoading, else the cause their name stands for): a stretch's rows only look them up.
  static constexpr std::int8_t kDataLoading = -2;
  std::vector<std::int8_t> api_cause_, range_cause_;
};

// One stretch: `threads` the issuing threads (sorted); ranges matching `steps` only mark a step.
HostActivityDuring host_activity_during(const trace::TraceModel& model, const std::vector<std::int64_t>& threads,
                                        const analysis::StepPattern& steps, std::int64_t start_ns,
                                        std::int64_t end_ns, std::size_t limit = 5);

// One line per group after a line with the coverage ("host activity under 96.1% of it: ...").
std::string describe_host_activity(const HostActivityDuring& activity);

}  // namespace gpuprof::idle
