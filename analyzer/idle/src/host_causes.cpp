#include "gpuprof/idle/host_causes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "gpuprof/analysis/comm_rules.hpp"
#include "gpuprof/analysis/data_loading_names.hpp"
#include "gpuprof/idle/phase_ranges.hpp"
#include "recent_lookup.hpp"

namespace gpuprof::idle {
namespace {

using analysis::CorrelationIndex;
using analysis::Interval;
using analysis::IntervalSet;

constexpr std::size_t index_of(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr std::size_t kData = index_of(IdleCause::data_loading);

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

using RawCauses = std::array<std::vector<Interval>, kHostCauses>;

struct Raw {
  std::map<std::int64_t, RawCauses> threads;
  std::vector<Interval> data_loading;  // every thread's
};

// A cause's spans as they are added: a span starting inside the last one (a thread's calls follow one another
// back to back) is folded into it, as `normalize` would fold it, and empty spans are left out as it leaves them
// out. The lists then hold about the merged set instead of a span per call (80 MB of API calls at 10 M events).
// Inlined: called for each API call, twice, where the call cost as much as the work.
[[gnu::always_inline]] inline void add_span(std::vector<Interval>& spans, Interval span) {
  if (span.end <= span.start) return;
  if (!spans.empty() && span.start >= spans.back().start && span.start <= spans.back().end) {
    spans.back().end = std::max(spans.back().end, span.end);
    return;
  }
  spans.push_back(span);
}

// `pageable_rows`: the API rows that made a pageable copy, in row order (a few; the calls' bits are read
// elsewhere, and walking them here was a pass over a bit per call).
void add_api_calls(const trace::TraceModel& model, const std::vector<std::uint32_t>& pageable_rows, Raw& raw) {
  ApiNames names(model);
  const auto& api = model.api_calls;
  // The threads' entries kept by address: std::map nodes stay put.
  RecentLookup<std::int64_t, RawCauses*, 4> recent;
  const auto causes_of = [&](std::int64_t thread) -> RawCauses& {
    return *recent.get(thread, [&](std::int64_t new_thread) { return &raw.threads[new_thread]; });
  };
  trace::StringId last_name = trace::kNoString;
  IdleCause cause = names.cause(last_name);
  for (std::size_t row = 0; row < api.size(); ++row) {
    auto& causes = causes_of(api.thread_id[row]);
    const Interval span{api.start_ns[row], api.end_ns[row]};
    if (api.name[row] != last_name) last_name = api.name[row], cause = names.cause(last_name);  // names repeat
    if (cause != IdleCause::host_bound) add_span(causes[index_of(cause)], span);
    add_span(causes[index_of(IdleCause::host_bound)], span);
  }
  for (const auto row : pageable_rows) {
    add_span(raw.threads[api.thread_id[row]][index_of(IdleCause::blocking_copy)], {api.start_ns[row], api.end_ns[row]});
  }
  const auto& syncs = model.syncs;
  for (std::size_t row = 0; row < syncs.size(); ++row) {
    auto& causes = raw.threads[syncs.thread_id[row]];
    add_span(causes[index_of(IdleCause::sync_wait)], {syncs.start_ns[row], syncs.end_ns[row]});
    add_span(causes[index_of(IdleCause::host_bound)], {syncs.start_ns[row], syncs.end_ns[row]});
  }
}

void add_ranges(const trace::TraceModel& model, const std::vector<bool>& step_names, const std::vector<bool>& phases,
                Raw& raw) {
  const auto& ranges = model.ranges;
  // 0: other, 1: data loading, 2: peer wait; per string id, matched once.
  std::vector<std::int8_t> kind(model.strings.size(), -1);
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    const auto id = ranges.name[row];
    if (ranges.on_gpu[row] != 0 || id >= kind.size()) continue;
    if (kind[id] < 0) {
      const auto& name = model.strings[id];
      kind[id] = analysis::is_data_loading_name(name) ? 1 : is_peer_wait_name(name) ? 2 : 0;
    }
    const Interval span{ranges.start_ns[row], ranges.end_ns[row]};
    auto& causes = raw.threads[ranges.thread_id[row]];
    if (kind[id] == 1) add_span(raw.data_loading, span);
    if (kind[id] == 2) add_span(causes[index_of(IdleCause::peer_wait)], span);
    // A step annotation covers the whole step, idle time included, and a range enclosing its phase
    // (phase_ranges.hpp) the phase: neither is a sign the host was busy.
    const bool step_mark = id < step_names.size() && step_names[id];
    if (!step_mark && !phases[row]) add_span(causes[index_of(IdleCause::host_bound)], span);
  }
}

// A thread on a CPU outside every call and range ran its own code (framework, Python) and launched
// nothing: host_bound, last of the host causes, so any call or range at the same time keeps its cause.
void add_running(const trace::ThreadStateTable& states, Raw& raw) {
  for (std::size_t row = 0; row < states.size(); ++row) {
    if (states.state[row] != trace::ThreadRunState::running) continue;
    add_span(raw.threads[states.thread_id[row]][index_of(IdleCause::host_bound)],
             {states.start_ns[row], states.end_ns[row]});
  }
}

// Calls `visit(device, row, api row)` for each row of `table` whose launching call is in the trace, device
// after device (GPU tables are sorted by device).
// The device is read run by run (RunColumn), not searched for per row.
template <class Visit>
void for_each_launched_row(const trace::GpuColumns& table, const CorrelationIndex& correlations, Visit&& visit) {
  table.device.for_each_row([&](std::int32_t device, std::size_t row) {
    const auto api_row = correlations.api_row(table.correlation_id[row]);
    if (api_row != CorrelationIndex::kNone) visit(device, row, api_row);
  });
}

// A copy whose call holds the host (pageable or synchronous) is not a launch: the GPU waits for the host's
// staging, which is the blocking_copy the call already stands for.
bool holds_host(const trace::TraceModel& model, ApiNames& names, std::size_t copy_row, std::size_t api_row) {
  return pageable_copy(model.memcpys, copy_row) ||
         names.cause(model.api_calls.name[api_row]) == IdleCause::blocking_copy;
}

// What one walk over every GPU table finds: the threads that issue each device's work, the API calls that
// launched anything (phase_ranges.hpp reads them), those that made a pageable copy (pageable_copy_calls) and
// the copies whose call holds the host, which are no launches (LaunchIndex reads the rest from the tables).
struct LaunchSurvey {
  std::map<std::int32_t, std::set<std::int64_t>> threads;
  std::vector<bool> launched_calls;
  std::vector<bool> pageable_calls;
  std::vector<std::uint32_t> pageable_rows;  // the same calls' rows, in row order
  std::vector<bool> copy_holds_host;  // per memcpy row

  LaunchSurvey(const trace::TraceModel& model, const CorrelationIndex& correlations)
      : launched_calls(model.api_calls.size(), false),
        pageable_calls(model.api_calls.size(), false),
        copy_holds_host(model.memcpys.size(), false) {
    ApiNames names(model);
    std::int32_t last_device = 0;
    std::int64_t last_thread = 0;
    std::set<std::int64_t>* issuing = nullptr;  // a stream's launches come from one thread, mostly
    const auto add = [&](std::int32_t device, std::size_t api_row) {
      launched_calls[api_row] = true;
      const auto thread = model.api_calls.thread_id[api_row];
      if (issuing == nullptr || device != last_device) {
        issuing = &threads[device], last_device = device;
        issuing->insert(thread), last_thread = thread;
      } else if (thread != last_thread) {
        issuing->insert(thread), last_thread = thread;
      }
    };
    for_each_launched_row(model.kernels, correlations,
                          [&](std::int32_t device, std::size_t, std::size_t api_row) { add(device, api_row); });
    for_each_launched_row(model.memcpys, correlations, [&](std::int32_t device, std::size_t row, std::size_t api_row) {
      if (pageable_copy(model.memcpys, row) && !pageable_calls[api_row]) {
        pageable_calls[api_row] = true;
        pageable_rows.push_back(static_cast<std::uint32_t>(api_row));
      }
      if (holds_host(model, names, row, api_row)) copy_holds_host[row] = true;
      add(device, api_row);
    });
    for_each_launched_row(model.memsets, correlations,
                          [&](std::int32_t device, std::size_t, std::size_t api_row) { add(device, api_row); });
    std::sort(pageable_rows.begin(), pageable_rows.end());
  }
};

// Each device's stream slices of the three GPU tables, where its launches are read.
std::map<std::int32_t, std::vector<LaunchIndex::Part>> launch_parts(const trace::TraceModel& model) {
  std::map<std::int32_t, std::vector<LaunchIndex::Part>> parts;
  const auto add = [&](const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices, bool copies) {
    for (const auto& slice : slices) parts[slice.device].push_back({&table, slice.begin, slice.end, copies});
  };
  add(model.kernels, model.kernel_streams, false);
  add(model.memcpys, model.memcpy_streams, true);
  add(model.memsets, model.memset_streams, false);
  return parts;
}

// Disjoint sets for `threads`: each cause keeps only the time no earlier cause holds.
void fill_sets(const std::map<std::int64_t, std::array<IntervalSet, kHostCauses>>& per_thread,
               const std::vector<std::int64_t>& threads, const IntervalSet& data_loading, DeviceHostCauses& out) {
  IntervalSet taken;
  for (std::size_t cause = 0; cause < kHostCauses; ++cause) {
    IntervalSet held;
    if (cause == kData) {
      held = data_loading;
    } else {
      std::vector<Interval> all;
      for (const auto thread : threads) {
        const auto found = per_thread.find(thread);
        if (found != per_thread.end()) all.insert(all.end(), found->second[cause].begin(), found->second[cause].end());
      }
      held = analysis::normalize(std::move(all));
    }
    out.sets[cause] = analysis::subtract(held, taken);
    taken = analysis::unite(taken, held);
  }
}

}  // namespace

IdleCause api_call_cause(std::string_view name) {
  if (contains(name, "Synchronize")) return IdleCause::sync_wait;
  // cudaMemcpy, cuMemcpyDtoH_v2, ...: the synchronous copy calls hold the thread until the copy is done.
  if (contains(name, "Memcpy") && !contains(name, "Async")) return IdleCause::blocking_copy;
  if (is_peer_wait_name(name)) return IdleCause::peer_wait;
  return IdleCause::host_bound;
}

IdleCause ApiNames::cause(trace::StringId id) {
  if (id >= cause_.size()) return IdleCause::host_bound;
  if (cause_[id] < 0) cause_[id] = static_cast<std::int8_t>(api_call_cause(model_.strings[id]));
  return static_cast<IdleCause>(cause_[id]);
}

bool pageable_copy(const trace::MemcpyTable& copies, std::size_t row) {
  const auto kind = copies.copy_kind[row];
  return (kind == trace::CopyKind::host_to_device && copies.src_memory_kind[row] == trace::MemoryKind::pageable) ||
         (kind == trace::CopyKind::device_to_host && copies.dst_memory_kind[row] == trace::MemoryKind::pageable);
}

std::vector<bool> pageable_copy_calls(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  std::vector<bool> calls(model.api_calls.size(), false);
  const auto& copies = model.memcpys;
  for (std::size_t row = 0; row < copies.size(); ++row) {
    if (!pageable_copy(copies, row)) continue;
    const auto api_row = correlations.api_row(copies.correlation_id[row]);
    if (api_row < calls.size()) calls[api_row] = true;  // kNone is past every row
  }
  return calls;
}

bool is_peer_wait_name(std::string_view name) {
  if (analysis::is_comm_library_call(name)) return true;
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.starts_with("c10d::") || contains(lower, "record_param_comms") || contains(lower, "barrier") ||
         lower.starts_with("gloo:");
}

HostCauses::HostCauses(const trace::TraceModel& model, const CorrelationIndex& correlations,
                       const std::vector<bool>& step_names) {
  LaunchSurvey survey(model, correlations);
  pageable_copy_calls_ = std::move(survey.pageable_calls);
  phase_ranges_ = idle::phase_ranges(model, survey.launched_calls);
  survey.launched_calls = {};
  Raw raw;
  add_api_calls(model, survey.pageable_rows, raw);
  add_ranges(model, step_names, phase_ranges_, raw);
  add_running(model.thread_states, raw);
  std::map<std::int64_t, std::array<IntervalSet, kHostCauses>> per_thread;
  for (auto& [thread, causes] : raw.threads) {
    for (std::size_t cause = 0; cause < kHostCauses; ++cause) {
      per_thread[thread][cause] = analysis::normalize(std::move(causes[cause]));
    }
  }
  const auto data_loading = analysis::normalize(std::move(raw.data_loading));
  auto& threads = survey.threads;
  std::erase_if(threads, [](const auto& entry) { return entry.second.empty(); });
  const auto copy_holds_host = std::make_shared<const std::vector<bool>>(std::move(survey.copy_holds_host));
  std::vector<LaunchIndex::Part> every_part;
  for (auto& [device, parts] : launch_parts(model)) {
    every_part.insert(every_part.end(), parts.begin(), parts.end());
    // A device none of whose work has a known launching call has no issuing thread: read as none_.
    if (!threads.contains(device)) continue;
    devices_[device].launches =
        std::make_shared<const LaunchIndex>(model.api_calls, correlations, copy_holds_host, std::move(parts));
  }
  all_.launches =
      std::make_shared<const LaunchIndex>(model.api_calls, correlations, copy_holds_host, std::move(every_part));
  for (const auto& entry : threads) devices_[entry.first];
  std::set<std::int64_t> issuing;
  for (auto& [device, entry] : devices_) {
    entry.threads.assign(threads[device].begin(), threads[device].end());
    issuing.insert(entry.threads.begin(), entry.threads.end());
    fill_sets(per_thread, entry.threads, data_loading, entry);
  }
  all_.threads.assign(issuing.begin(), issuing.end());
  fill_sets(per_thread, all_.threads, data_loading, all_);
  auto thread_sets = std::make_shared<std::map<std::int64_t, CauseSets>>();
  for (const auto thread : all_.threads) {
    DeviceHostCauses one;
    fill_sets(per_thread, {thread}, data_loading, one);
    (*thread_sets)[thread] = std::move(one.sets);
  }
  for (auto& [device, entry] : devices_) entry.thread_sets = thread_sets;
  all_.thread_sets = thread_sets;
  none_.sets[kData] = data_loading;
}

std::optional<Launch> earliest_launch_at(const DeviceHostCauses& host, std::int64_t gpu_start) {
  return host.launches ? host.launches->earliest_at(gpu_start) : std::nullopt;
}

std::optional<std::int64_t> launching_thread(const DeviceHostCauses& host, std::int64_t gpu_start) {
  const auto launch = earliest_launch_at(host, gpu_start);
  return launch ? std::optional<std::int64_t>(launch->thread) : std::nullopt;
}

const CauseSets& DeviceHostCauses::of_thread(std::optional<std::int64_t> thread) const {
  if (!thread || !thread_sets) return sets;
  const auto found = thread_sets->find(*thread);
  return found == thread_sets->end() ? sets : found->second;
}

DeviceHostCauses HostCauses::take_any_device(std::span<const std::int64_t> gpu_starts) && {
  if (all_.launches) all_.launches = std::make_shared<const LaunchIndex>(all_.launches->kept_at(gpu_starts));
  return std::move(all_);
}

const DeviceHostCauses& HostCauses::device(std::int32_t device) const {
  const auto found = devices_.find(device);
  return found == devices_.end() ? none_ : found->second;
}

}  // namespace gpuprof::idle
