#include "gpuprof/analysis/gaps.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "gpuprof/analysis/interval_set.hpp"

namespace gpuprof::analysis {
namespace {

using trace::kUnknown;

constexpr std::size_t kCauseCount = 3;  // causes backed by host records: sync, pageable_copy, data_loading

// Host activity per thread, one interval set per cause; kUnknown holds all threads together.
class HostActivity {
 public:
  void add(std::int64_t thread, GapCause cause, std::int64_t start, std::int64_t end) {
    raw_[thread][static_cast<std::size_t>(cause)].push_back({start, end});
    raw_[kUnknown][static_cast<std::size_t>(cause)].push_back({start, end});
  }
  void finish() {
    for (auto& [thread, lists] : raw_) {
      for (std::size_t cause = 0; cause < kCauseCount; ++cause) sets_[thread][cause] = normalize(std::move(lists[cause]));
    }
    raw_.clear();
  }
  GapCause cause(std::int64_t thread, std::int64_t start, std::int64_t end) const {
    auto found = sets_.find(thread);
    if (found == sets_.end()) found = sets_.find(kUnknown);
    if (found == sets_.end()) return GapCause::host_bound;
    std::int64_t best = 0;
    GapCause cause = GapCause::host_bound;
    for (std::size_t index = 0; index < kCauseCount; ++index) {
      const auto covered = length_within(found->second[index], start, end);
      if (covered > best) best = covered, cause = static_cast<GapCause>(index);
    }
    return cause;
  }

 private:
  std::map<std::int64_t, std::array<std::vector<Interval>, kCauseCount>> raw_;
  std::map<std::int64_t, std::array<IntervalSet, kCauseCount>> sets_;
};

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

void add_syncs(const trace::TraceModel& model, HostActivity& host) {
  const auto& syncs = model.syncs;
  for (std::size_t row = 0; row < syncs.size(); ++row) {
    host.add(syncs.thread_id[row], GapCause::sync, syncs.start_ns[row], syncs.end_ns[row]);
  }
  // Producers without a syncs table still record the API call.
  const auto& api = model.api_calls;
  std::vector<std::int8_t> is_sync(model.strings.size(), -1);
  for (std::size_t row = 0; row < api.size(); ++row) {
    const auto id = api.name[row];
    if (id >= is_sync.size()) continue;
    if (is_sync[id] < 0) is_sync[id] = contains(model.strings[id], "Synchronize") ? 1 : 0;
    if (is_sync[id] == 1) host.add(api.thread_id[row], GapCause::sync, api.start_ns[row], api.end_ns[row]);
  }
}

// The API calls of host-to-device copies that hold the host thread: pageable
// memory, or a blocking (non-Async) call.
void add_blocking_uploads(const trace::TraceModel& model, const CorrelationIndex& correlations, HostActivity& host) {
  const auto& copies = model.memcpys;
  const auto& api = model.api_calls;
  for (std::size_t row = 0; row < copies.size(); ++row) {
    if (copies.copy_kind[row] != trace::CopyKind::host_to_device) continue;
    const auto api_row = correlations.api_row(copies.correlation_id[row]);
    if (api_row == CorrelationIndex::kNone) continue;
    const bool pageable = copies.src_memory_kind[row] == trace::MemoryKind::pageable;
    const bool blocking = !contains(model.string(api.name[api_row]), "Async");
    if (pageable || blocking) {
      host.add(api.thread_id[api_row], GapCause::pageable_copy, api.start_ns[api_row], api.end_ns[api_row]);
    }
  }
}

void add_data_loading(const trace::TraceModel& model, HostActivity& host) {
  const auto& ranges = model.ranges;
  std::vector<std::int8_t> is_data(model.strings.size(), -1);
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    const auto id = ranges.name[row];
    if (ranges.on_gpu[row] != 0 || id >= is_data.size()) continue;
    if (is_data[id] < 0) is_data[id] = is_data_loading_name(model.strings[id]) ? 1 : 0;
    if (is_data[id] == 1) host.add(ranges.thread_id[row], GapCause::data_loading, ranges.start_ns[row], ranges.end_ns[row]);
  }
}

}  // namespace

std::string_view to_string(GapCause cause) {
  switch (cause) {
    case GapCause::sync: return "sync";
    case GapCause::pageable_copy: return "pageable_copy";
    case GapCause::data_loading: return "data_loading";
    case GapCause::host_bound: return "host_bound";
  }
  return "host_bound";
}

bool is_data_loading_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "data" || contains(lower, "dataloader") || contains(lower, "data_loader") ||
         contains(lower, "data loading") || contains(lower, "load_batch");
}

std::vector<BatchGap> find_batch_gaps(const trace::TraceModel& model, const std::vector<StepBreakdown>& steps,
                                      const CorrelationIndex& correlations) {
  HostActivity host;
  add_syncs(model, host);
  add_blocking_uploads(model, correlations, host);
  add_data_loading(model, host);
  host.finish();
  std::vector<BatchGap> gaps;
  for (std::size_t index = 1; index < steps.size(); ++index) {
    const auto& before = steps[index - 1].step;
    const auto& after = steps[index].step;
    const auto idle = steps[index - 1].breakdown.batch_gap_ns;
    if (before.device != after.device || idle <= 0) continue;
    const auto thread = after.host_thread != kUnknown ? after.host_thread : before.host_thread;
    gaps.push_back({after.device, before.step, before.last_work_ns, before.end_ns,
                    host.cause(thread, before.last_work_ns, before.end_ns), before.warmup, idle});
  }
  return gaps;
}

}  // namespace gpuprof::analysis
