#include "gpuprof/idle/idle_attribution.hpp"

#include <algorithm>
#include <optional>

namespace gpuprof::idle {
namespace {

constexpr std::size_t index_of(IdleCause cause) { return static_cast<std::size_t>(cause); }

void add_piece(std::int64_t step, std::int32_t device, bool in_gap, std::int64_t start, std::int64_t end,
               const CauseTimes& causes, IdleTally& tally, std::vector<IdleInterval>* intervals) {
  if (end <= start) return;
  tally.add(causes);
  if (intervals != nullptr) intervals->push_back({device, step, in_gap, start, end, causes});
}

}  // namespace

IdleAttributor::IdleAttributor(const analysis::DeviceActivity& activity, const DeviceHostCauses& host)
    : activity_(activity), host_(host) {
  for (const auto& set : host.sets) cursors_.emplace_back(set);
}

std::optional<std::int64_t> IdleAttributor::launch_of(std::int64_t gpu_start) {
  const auto& launches = host_.launches;
  while (next_launch_ < launches.size() && launches[next_launch_].first < gpu_start) ++next_launch_;
  // Sorted by (GPU start, call start): the first entry at this start is the earliest launch of work starting then.
  if (next_launch_ < launches.size() && launches[next_launch_].first == gpu_start) return launches[next_launch_].second;
  return std::nullopt;
}

CauseTimes IdleAttributor::causes_of(std::int64_t start, std::int64_t end, std::optional<std::int64_t> launch) {
  CauseTimes causes{};
  // After the next work's launch call began the GPU only waits for that launch to arrive.
  const auto host_end = launch ? std::clamp(*launch, start, end) : end;
  causes[index_of(IdleCause::launch_latency)] = end - host_end;
  std::int64_t covered = 0;
  for (std::size_t cause = 0; cause < cursors_.size(); ++cause) {
    causes[cause] = cursors_[cause].length_within(start, host_end);
    covered += causes[cause];
  }
  causes[index_of(IdleCause::unrecorded)] = (host_end - start) - covered;
  return causes;
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
      auto launch = it != busy.end() ? launch_of(it->start) : std::optional<std::int64_t>{};
      if (launch && *launch < cursor) launch.reset();
      const auto split = std::clamp(tail, cursor, idle_end);
      add_piece(step, activity_.device, false, cursor, split, causes_of(cursor, split, launch), in_step, intervals);
      add_piece(step, activity_.device, true, split, idle_end, causes_of(split, idle_end, launch), gap, intervals);
    }
    if (it == busy.end()) break;
    cursor = std::max(cursor, std::min(it->end, end));
    ++it;
  }
}

CauseTimes causes_before(const DeviceHostCauses& host, std::int64_t start, std::int64_t gpu_start) {
  CauseTimes causes{};
  if (gpu_start <= start) return causes;
  const auto& launches = host.launches;
  const auto found = std::lower_bound(launches.begin(), launches.end(), std::make_pair(gpu_start, std::int64_t{0}),
                                      [](const auto& a, const auto& b) { return a.first < b.first; });
  auto end = gpu_start;
  if (found != launches.end() && found->first == gpu_start && found->second >= start && found->second < gpu_start) {
    end = found->second;
  }
  causes[index_of(IdleCause::launch_latency)] = gpu_start - end;
  std::int64_t covered = 0;
  for (std::size_t cause = 0; cause < host.sets.size(); ++cause) {
    causes[cause] = analysis::length_within(host.sets[cause], start, end);
    covered += causes[cause];
  }
  causes[index_of(IdleCause::unrecorded)] = (end - start) - covered;
  return causes;
}

}  // namespace gpuprof::idle
