#include "gpuprof/idle/idle_attribution.hpp"

#include <algorithm>
#include <optional>

namespace gpuprof::idle {
namespace {

constexpr std::size_t index_of(IdleCause cause) { return static_cast<std::size_t>(cause); }

void add_piece(const IdleInterval& piece, IdleTally& tally, std::vector<IdleInterval>* intervals) {
  if (piece.end_ns <= piece.start_ns) return;
  tally.add(piece.causes);
  if (intervals != nullptr) intervals->push_back(piece);
}

// The causes of [start, end) when the GPU waits for a launch from host_end on: launch_latency from there,
// before it each host cause's time (`length(cause, from, to)`, the sets being disjoint), unrecorded the rest.
// The one rule for every idle stretch, so that a piece and its parts are judged alike.
template <class Length>
CauseTimes split_causes(std::int64_t start, std::int64_t host_end, std::int64_t end, Length&& length) {
  CauseTimes causes{};
  if (end <= start) return causes;
  host_end = std::clamp(host_end, start, end);
  causes[index_of(IdleCause::launch_latency)] = end - host_end;
  std::int64_t covered = 0;
  for (std::size_t cause = 0; cause < kHostCauses; ++cause) {
    causes[cause] = host_end > start ? length(cause, start, host_end) : 0;
    covered += causes[cause];
  }
  causes[index_of(IdleCause::unrecorded)] = (host_end - start) - covered;
  return causes;
}

}  // namespace

IdleAttributor::IdleAttributor(const analysis::DeviceActivity& activity, const DeviceHostCauses& host,
                               std::vector<IdleEvidence>* before_peer_work)
    : activity_(activity), host_(host), launches_(host.launches.get()), before_peer_work_(before_peer_work) {
  for (const auto& set : host.sets) cursors_.emplace_back(set);
}

std::optional<Launch> IdleAttributor::launch_of(std::int64_t gpu_start) { return launches_.at(gpu_start); }

std::vector<analysis::OverlapCursor>& IdleAttributor::cursors_of(std::optional<std::int64_t> thread) {
  if (!thread) return cursors_;
  auto [found, added] = thread_cursors_.try_emplace(*thread);
  if (added) {
    for (const auto& set : host_.of_thread(thread)) found->second.emplace_back(set);
  }
  return found->second;
}

CauseTimes IdleAttributor::causes_of(std::int64_t start, std::int64_t end, std::optional<std::int64_t> launch,
                                     std::optional<std::int64_t> thread) {
  auto& cursors = cursors_of(thread);
  // After the next work's launch call began the GPU only waits for that launch to arrive.
  return split_causes(start, launch.value_or(end), end, [&cursors](std::size_t cause, std::int64_t from, std::int64_t to) {
    return cursors[cause].length_within(from, to);
  });
}

bool IdleAttributor::peer_work_starts_at(std::int64_t time) const {
  const auto starts_at = [time](const analysis::IntervalSet& set) {
    const auto it = std::lower_bound(set.begin(), set.end(), time, [](const analysis::Interval& interval,
                                                                      std::int64_t value) {
      return interval.start < value;
    });
    return it != set.end() && it->start == time;
  };
  return starts_at(activity_.comm) || starts_at(activity_.peer_copy);
}

void IdleAttributor::keep_evidence(const IdleInterval& piece, std::int64_t run_end, std::optional<std::int64_t> launch,
                                   std::optional<std::int64_t> thread) {
  if (piece.end_ns <= piece.start_ns) return;
  IdleEvidence evidence{piece, run_end, std::clamp(launch.value_or(piece.end_ns), piece.start_ns, piece.end_ns), {}};
  const auto& sets = host_.of_thread(thread);
  for (std::size_t cause = 0; cause < kHostCauses; ++cause) {
    evidence.host[cause] = analysis::clip(sets[cause], piece.start_ns, evidence.host_end_ns);
  }
  before_peer_work_->push_back(std::move(evidence));
}

void IdleAttributor::window(std::int64_t step, std::int64_t start, std::int64_t tail, std::int64_t end,
                            IdleTally& in_step, IdleTally& gap, std::vector<IdleInterval>* intervals) {
  const auto& busy = activity_.busy;
  auto it = std::upper_bound(busy.begin(), busy.end(), start,
                             [](std::int64_t value, const analysis::Interval& interval) { return value < interval.end; });
  auto cursor = start;  // the earliest time not yet looked at
  while (cursor < end) {
    const auto idle_end = it == busy.end() ? end : std::clamp(it->start, cursor, end);
    if (idle_end > cursor) {
      // The work that ends the idle time: the next busy interval's first piece. Work launched before the
      // GPU went idle was held back by a dependency, not by its launch: the host's activity explains it.
      const auto launched = it != busy.end() ? launch_of(it->start) : std::optional<Launch>{};
      // Judged by the thread that launched the ending work, even when it launched it early.
      const auto thread = launched ? std::optional<std::int64_t>(launched->thread) : std::nullopt;
      auto launch = launched ? std::optional<std::int64_t>(launched->second) : std::nullopt;
      if (launch && *launch < cursor) launch.reset();
      const auto split = std::clamp(tail, cursor, idle_end);
      const IdleInterval inside{activity_.device, step, false, cursor, split, causes_of(cursor, split, launch, thread)};
      const IdleInterval after{activity_.device, step, true, split, idle_end,
                               causes_of(split, idle_end, launch, thread)};
      add_piece(inside, in_step, intervals);
      add_piece(after, gap, intervals);
      if (before_peer_work_ != nullptr && it != busy.end() && idle_end == it->start &&
          peer_work_starts_at(it->start)) {
        keep_evidence(inside, idle_end, launch, thread);
        keep_evidence(after, idle_end, launch, thread);
      }
    }
    if (it == busy.end()) break;
    cursor = std::max(cursor, std::min(it->end, end));
    ++it;
  }
}

CauseTimes causes_before(const DeviceHostCauses& host, std::int64_t start, std::int64_t gpu_start) {
  if (gpu_start <= start) return {};
  const auto found = earliest_launch_at(host, gpu_start);
  auto end = gpu_start;
  if (found && found->second >= start && found->second < gpu_start) end = found->second;
  return split_causes(start, end, gpu_start, [&host](std::size_t cause, std::int64_t from, std::int64_t to) {
    return analysis::length_within(host.sets[cause], from, to);
  });
}

CauseTimes causes_within(const IdleEvidence& evidence, std::int64_t from, std::int64_t to) {
  const auto& piece = evidence.interval;
  from = std::clamp(from, piece.start_ns, piece.end_ns);
  to = std::clamp(to, from, piece.end_ns);
  return split_causes(from, evidence.host_end_ns, to, [&evidence](std::size_t cause, std::int64_t a, std::int64_t b) {
    return analysis::length_within(evidence.host[cause], a, b);
  });
}

CauseTimes with_peer_wait(const IdleEvidence& evidence, std::int64_t arrival) {
  const auto& piece = evidence.interval;
  const auto until = std::clamp(arrival, piece.start_ns, piece.end_ns);
  auto causes = causes_within(evidence, until, piece.end_ns);
  causes[index_of(IdleCause::peer_wait)] += until - piece.start_ns;
  return causes;
}

}  // namespace gpuprof::idle
