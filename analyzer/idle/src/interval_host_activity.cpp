#include "gpuprof/idle/interval_host_activity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/data_loading_names.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/phase_ranges.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::idle {
namespace {

// One name may stand for two causes (a cudaMemcpyAsync from pageable or from pinned memory): apart.
using GroupKey = std::tuple<HostEventKind, trace::StringId, std::int64_t, IdleCause>;

struct Collector {
  std::int64_t start = 0, end = 0;
  std::map<GroupKey, HostEventGroup> groups;
  std::vector<analysis::Interval> spans;

  // Adds the event when it overlaps the stretch by more than `held_ns`, the part the group does not
  // count (held by other events).
  bool add(HostEventKind kind, trace::StringId name, std::int64_t thread, std::int64_t from, std::int64_t to,
           IdleCause cause, std::int64_t held_ns = 0) {
    const std::int64_t overlap = std::min(to, end) - std::max(from, start) - held_ns;
    if (overlap <= 0) return false;
    auto& group = groups[{kind, name, thread, cause}];
    group.kind = kind;
    group.thread = thread;
    group.cause = cause;
    ++group.count;
    group.overlap_ns += overlap;
    spans.push_back({std::max(from, start), std::min(to, end)});
    return true;
  }
};

// Each thread's running stretches outside the events collected: what the scheduler adds to them.
void add_running(Collector& collector, const std::map<std::int64_t, std::vector<analysis::Interval>>& running) {
  const auto events = analysis::normalize(collector.spans);
  for (const auto& [thread, stretches] : running) {
    auto it = std::upper_bound(stretches.begin(), stretches.end(), collector.start,
                               [](std::int64_t value, const analysis::Interval& stretch) { return value < stretch.end; });
    for (; it != stretches.end() && it->start < collector.end; ++it) {
      const auto from = std::max(it->start, collector.start), to = std::min(it->end, collector.end);
      collector.add(HostEventKind::thread_running, trace::kNoString, thread, from, to, IdleCause::host_bound,
                    analysis::length_within(events, from, to));
    }
  }
}

// `cause(name)` for each name `names` uses, indexed by string id; ids past the strings are never looked up.
std::vector<std::int8_t> classify_names(const trace::TraceModel& model, const std::vector<trace::StringId>& names,
                                        const std::function<std::int8_t(std::string_view)>& cause) {
  constexpr std::int8_t kUnseen = -100;
  std::vector<std::int8_t> classes(model.strings.size(), kUnseen);
  for (const auto id : names) {
    if (id < classes.size() && classes[id] == kUnseen) classes[id] = cause(model.strings[id]);
  }
  return classes;
}

std::int8_t code(IdleCause cause) { return static_cast<std::int8_t>(cause); }

bool issuing(const std::vector<std::int64_t>& threads, std::int64_t thread) {
  return std::binary_search(threads.begin(), threads.end(), thread);
}

std::string share(std::int64_t part, std::int64_t whole) {
  return fmt::format("{:.1f}%", whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
}

HostActivityDuring collected(const trace::TraceModel& model, Collector collector, std::int64_t start_ns,
                             std::int64_t end_ns, std::size_t limit) {
  HostActivityDuring result{start_ns, end_ns, {}, 0, 0};
  result.covered_ns = analysis::total_length(analysis::normalize(std::move(collector.spans)));
  for (auto& [key, group] : collector.groups) {
    const auto name = std::get<1>(key);
    group.name = name != trace::kNoString ? std::string(model.string(name))
                 : group.kind == HostEventKind::thread_running
                     ? std::string("thread running (OS scheduler; no call or range recorded)")
                     : std::string("synchronize");
    result.groups.push_back(std::move(group));
  }
  std::stable_sort(result.groups.begin(), result.groups.end(),
                   [](const auto& a, const auto& b) { return a.overlap_ns > b.overlap_ns; });
  if (result.groups.size() > limit) {
    result.groups_left_out = static_cast<std::int64_t>(result.groups.size() - limit);
    result.groups.resize(limit);
  }
  return result;
}

}  // namespace

std::string_view to_string(HostEventKind kind) {
  switch (kind) {
    case HostEventKind::api_call: return "API call";
    case HostEventKind::sync: return "synchronization";
    case HostEventKind::range: return "range";
    case HostEventKind::thread_running: return "scheduler";
  }
  return "event";
}

HostActivityIndex::Reach HostActivityIndex::reach_of(const trace::HostColumns& table) {
  Reach reach;
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (row > 0 && table.start_ns[row] < table.start_ns[row - 1]) reach.sorted = false;
    std::int64_t length = 0;
    if (__builtin_sub_overflow(table.end_ns[row], table.start_ns[row], &length)) {
      reach.from_first_row = true;  // hostile times: longer than an int64 holds
    } else {
      reach.longest_ns = std::max(reach.longest_ns, length);
    }
  }
  return reach;
}

std::pair<std::size_t, std::size_t> HostActivityIndex::rows(const trace::HostColumns& table, const Reach& reach,
                                                            std::int64_t start_ns, std::int64_t end_ns) {
  if (!reach.sorted) return {0, table.size()};
  const auto& starts = table.start_ns;
  // An event starting before start_ns - longest ends before start_ns.
  std::int64_t earliest = std::numeric_limits<std::int64_t>::min();
  if (!reach.from_first_row && __builtin_sub_overflow(start_ns, reach.longest_ns, &earliest)) {
    earliest = std::numeric_limits<std::int64_t>::min();
  }
  const auto first = std::lower_bound(starts.begin(), starts.end(), earliest);
  const auto last = std::lower_bound(first, starts.end(), end_ns);
  return {static_cast<std::size_t>(first - starts.begin()), static_cast<std::size_t>(last - starts.begin())};
}

HostActivityIndex::HostActivityIndex(const trace::TraceModel& model, std::vector<std::int64_t> threads,
                                     std::function<bool(trace::StringId)> is_step_name,
                                     std::vector<bool> pageable_calls, std::vector<bool> phase_rows)
    : model_(model),
      threads_(std::move(threads)),
      is_step_name_(std::move(is_step_name)),
      pageable_calls_(std::move(pageable_calls)),
      phase_rows_(std::move(phase_rows)),
      api_calls_(reach_of(model.api_calls)),
      syncs_(reach_of(model.syncs)),
      ranges_(reach_of(model.ranges)),
      api_cause_(classify_names(model, model.api_calls.name, [](std::string_view name) { return code(api_call_cause(name)); })),
      range_cause_(classify_names(model, model.ranges.name, [](std::string_view name) {
        return analysis::is_data_loading_name(name) ? kDataLoading
               : is_peer_wait_name(name)            ? code(IdleCause::peer_wait)
                                                    : code(IdleCause::host_bound);
      })) {
  std::sort(threads_.begin(), threads_.end());
  const auto& states = model.thread_states;
  for (std::size_t row = 0; row < states.size(); ++row) {
    if (states.state[row] != trace::ThreadRunState::running || !issuing(threads_, states.thread_id[row])) continue;
    running_[states.thread_id[row]].push_back({states.start_ns[row], states.end_ns[row]});
  }
  for (auto& [thread, stretches] : running_) stretches = analysis::normalize(std::move(stretches));
}

HostActivityDuring HostActivityIndex::during(std::int64_t start_ns, std::int64_t end_ns, std::size_t limit) const {
  Collector collector{start_ns, end_ns, {}, {}};
  // Rows within reach that end before the stretch are most of those read: they are passed over first.
  const auto outside = [&](const trace::HostColumns& table, std::size_t row) {
    return table.end_ns[row] <= start_ns || table.start_ns[row] >= end_ns;
  };
  const auto& calls = model_.api_calls;
  for (auto [row, last] = rows(calls, api_calls_, start_ns, end_ns); row < last; ++row) {
    if (outside(calls, row) || !issuing(threads_, calls.thread_id[row])) continue;
    // A pageable copy's call holds the host whatever its name: the cause the interval's tally gives it.
    const auto name = calls.name[row];
    const auto cause = row < pageable_calls_.size() && pageable_calls_[row] ? IdleCause::blocking_copy
                       : name < api_cause_.size() ? static_cast<IdleCause>(api_cause_[name])
                                                  : api_call_cause(model_.string(name));
    collector.add(HostEventKind::api_call, calls.name[row], calls.thread_id[row], calls.start_ns[row],
                  calls.end_ns[row], cause);
  }
  const auto& syncs = model_.syncs;
  for (auto [row, last] = rows(syncs, syncs_, start_ns, end_ns); row < last; ++row) {
    if (outside(syncs, row) || !issuing(threads_, syncs.thread_id[row])) continue;
    collector.add(HostEventKind::sync, trace::kNoString, syncs.thread_id[row], syncs.start_ns[row],
                  syncs.end_ns[row], IdleCause::sync_wait);
  }
  const auto& ranges = model_.ranges;
  for (auto [row, last] = rows(ranges, ranges_, start_ns, end_ns); row < last; ++row) {
    if (outside(ranges, row) || ranges.on_gpu[row] != 0) continue;
    const auto id = ranges.name[row];
    // An id past the strings reads as "<unknown string>": neither data loading nor a peer wait.
    const auto cause = id < range_cause_.size() ? range_cause_[id] : code(IdleCause::host_bound);
    const bool loading = cause == kDataLoading;
    if (!loading && !issuing(threads_, ranges.thread_id[row])) continue;
    // A step annotation, or a range enclosing its phase, spans the idle time too: no sign of host work.
    if (is_step_name_(id) || (row < phase_rows_.size() && phase_rows_[row])) continue;
    collector.add(HostEventKind::range, id, ranges.thread_id[row], ranges.start_ns[row], ranges.end_ns[row],
                  loading ? IdleCause::data_loading : static_cast<IdleCause>(cause));
  }
  add_running(collector, running_);
  return collected(model_, std::move(collector), start_ns, end_ns, limit);
}

HostActivityDuring host_activity_during(const trace::TraceModel& model, const std::vector<std::int64_t>& threads,
                                        const analysis::StepPattern& steps, std::int64_t start_ns,
                                        std::int64_t end_ns, std::size_t limit) {
  const analysis::CorrelationIndex correlations(model.api_calls);
  const HostActivityIndex index(
      model, threads, [&](trace::StringId name) { return steps.match(model.string(name)).has_value(); },
      pageable_copy_calls(model, correlations), phase_ranges(model, correlations));
  return index.during(start_ns, end_ns, limit);
}

std::string describe_host_activity(const HostActivityDuring& activity) {
  const std::int64_t length = activity.end_ns - activity.start_ns;
  if (activity.covered_ns == 0) return "Host activity: none recorded on the threads that issue GPU work";
  auto text = fmt::format("Host activity under {} of it ({}):", share(activity.covered_ns, length),
                          units::format_duration(activity.covered_ns));
  for (const auto& group : activity.groups) {
    const bool running = group.kind == HostEventKind::thread_running;
    text += fmt::format("\n  {}{} on thread {}: {} {}, {} ({} of it; {})", running ? "" : std::string(to_string(group.kind)) + " ",
                        group.name, group.thread, group.count,
                        running ? (group.count == 1 ? "stretch" : "stretches") : (group.count == 1 ? "event" : "events"),
                        units::format_duration(group.overlap_ns), share(group.overlap_ns, length),
                        to_string(group.cause));
  }
  if (activity.groups_left_out > 0) text += fmt::format("\n  and {} more", activity.groups_left_out);
  return text;
}

}  // namespace gpuprof::idle
