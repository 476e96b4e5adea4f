#include "gpuprof/idle/interval_host_activity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "gpuprof/analysis/gaps.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::idle {
namespace {

using GroupKey = std::tuple<HostEventKind, trace::StringId, std::int64_t>;

struct Collector {
  std::int64_t start = 0, end = 0;
  std::map<GroupKey, HostEventGroup> groups;
  std::vector<analysis::Interval> spans;

  // Adds the event when it overlaps the stretch.
  bool add(HostEventKind kind, trace::StringId name, std::int64_t thread, std::int64_t from, std::int64_t to,
           IdleCause cause) {
    const std::int64_t overlap = std::min(to, end) - std::max(from, start);
    if (overlap <= 0) return false;
    auto& group = groups[{kind, name, thread}];
    group.kind = kind;
    group.thread = thread;
    group.cause = cause;
    ++group.count;
    group.overlap_ns += overlap;
    spans.push_back({std::max(from, start), std::min(to, end)});
    return true;
  }
};

bool issuing(const std::vector<std::int64_t>& threads, std::int64_t thread) {
  return std::binary_search(threads.begin(), threads.end(), thread);
}

void add_api_calls(const trace::TraceModel& model, const std::vector<std::int64_t>& threads, Collector& out) {
  const auto& calls = model.api_calls;
  for (std::size_t row = 0; row < calls.size(); ++row) {
    if (calls.start_ns[row] >= out.end || calls.end_ns[row] <= out.start || !issuing(threads, calls.thread_id[row])) {
      continue;
    }
    out.add(HostEventKind::api_call, calls.name[row], calls.thread_id[row], calls.start_ns[row], calls.end_ns[row],
            api_call_cause(model.string(calls.name[row])));
  }
  const auto& syncs = model.syncs;
  for (std::size_t row = 0; row < syncs.size(); ++row) {
    if (!issuing(threads, syncs.thread_id[row])) continue;
    out.add(HostEventKind::sync, trace::kNoString, syncs.thread_id[row], syncs.start_ns[row], syncs.end_ns[row],
            IdleCause::sync_wait);
  }
}

void add_ranges(const trace::TraceModel& model, const std::vector<std::int64_t>& threads,
                const analysis::StepPattern& steps, Collector& out) {
  const auto& ranges = model.ranges;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0 || ranges.start_ns[row] >= out.end || ranges.end_ns[row] <= out.start) continue;
    const auto name = model.string(ranges.name[row]);
    const bool loading = analysis::is_data_loading_name(name);
    if (!loading && !issuing(threads, ranges.thread_id[row])) continue;
    if (steps.match(name)) continue;  // a step annotation spans the idle time too: no sign of host work
    out.add(HostEventKind::range, ranges.name[row], ranges.thread_id[row], ranges.start_ns[row], ranges.end_ns[row],
            loading ? IdleCause::data_loading : is_peer_wait_name(name) ? IdleCause::peer_wait : IdleCause::host_bound);
  }
}

std::string share(std::int64_t part, std::int64_t whole) {
  return fmt::format("{:.1f}%", whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
}

}  // namespace

std::string_view to_string(HostEventKind kind) {
  switch (kind) {
    case HostEventKind::api_call: return "API call";
    case HostEventKind::sync: return "synchronization";
    case HostEventKind::range: return "range";
  }
  return "event";
}

HostActivityDuring host_activity_during(const trace::TraceModel& model, const std::vector<std::int64_t>& threads,
                                        const analysis::StepPattern& steps, std::int64_t start_ns,
                                        std::int64_t end_ns, std::size_t limit) {
  Collector collector{start_ns, end_ns, {}, {}};
  add_api_calls(model, threads, collector);
  add_ranges(model, threads, steps, collector);
  HostActivityDuring result{start_ns, end_ns, {}, 0, 0};
  result.covered_ns = analysis::total_length(analysis::normalize(std::move(collector.spans)));
  for (auto& [key, group] : collector.groups) {
    const auto name = std::get<1>(key);
    group.name = name == trace::kNoString ? std::string("synchronize") : std::string(model.string(name));
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

std::string describe_host_activity(const HostActivityDuring& activity) {
  const std::int64_t length = activity.end_ns - activity.start_ns;
  if (activity.covered_ns == 0) return "Host activity: none recorded on the threads that issue GPU work";
  auto text = fmt::format("Host activity under {} of it ({}):", share(activity.covered_ns, length),
                          units::format_duration(activity.covered_ns));
  for (const auto& group : activity.groups) {
    text += fmt::format("\n  {} {} on thread {}: {} {}, {} ({} of it; {})", to_string(group.kind), group.name,
                        group.thread, group.count, group.count == 1 ? "event" : "events",
                        units::format_duration(group.overlap_ns), share(group.overlap_ns, length),
                        to_string(group.cause));
  }
  if (activity.groups_left_out > 0) text += fmt::format("\n  and {} more", activity.groups_left_out);
  return text;
}

}  // namespace gpuprof::idle
