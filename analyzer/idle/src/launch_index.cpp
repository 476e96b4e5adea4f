#include "gpuprof/idle/launch_index.hpp"

#include <algorithm>
#include <utility>

namespace gpuprof::idle {
namespace {

using analysis::CorrelationIndex;

// The first row of [from, end) starting at or after `time`, the rows sorted by start: a few steps forward
// first, since the times asked in order are mostly close together, then a binary search.
std::size_t first_not_before(const std::vector<std::int64_t>& start, std::size_t from, std::size_t end,
                             std::int64_t time) {
  for (int step = 0; step < 8 && from < end; ++step, ++from) {
    if (start[from] >= time) return from;
  }
  const auto begin = start.begin();
  return static_cast<std::size_t>(std::lower_bound(begin + static_cast<std::ptrdiff_t>(from),
                                                   begin + static_cast<std::ptrdiff_t>(end), time) -
                                  begin);
}

const Launch* kept_launch_at(const std::vector<Launch>& kept, std::size_t at, std::int64_t gpu_start) {
  return at < kept.size() && kept[at].first == gpu_start ? &kept[at] : nullptr;
}

}  // namespace

LaunchIndex::LaunchIndex(const trace::ApiCallTable& api, const CorrelationIndex& correlations,
                         std::shared_ptr<const std::vector<bool>> copy_holds_host, std::vector<Part> parts)
    : api_(&api), correlations_(&correlations), copy_holds_host_(std::move(copy_holds_host)), parts_(std::move(parts)) {
  std::erase_if(parts_, [](const Part& part) { return part.begin >= part.end; });
  if (parts_.size() > kMostPartsReadInPlace) merge_parts();
}

void LaunchIndex::merge_parts() {
  // Sorted by GPU start, then call start and thread: the first launch of each GPU start is its earliest.
  std::vector<Launch> every;
  for (const auto& part : parts_) {
    for (auto row = part.begin; row < part.end;) {
      std::optional<Launch> earliest;
      const auto gpu_start = part.table->start_ns[row];
      fold_at(part, row, gpu_start, earliest);
      if (earliest) every.push_back(*earliest);
      for (++row; row < part.end && part.table->start_ns[row] == gpu_start;) ++row;
    }
  }
  std::sort(every.begin(), every.end());
  every.erase(std::unique(every.begin(), every.end(),
                          [](const Launch& a, const Launch& b) { return a.first == b.first; }),
              every.end());
  kept_ = std::move(every);
  parts_.clear();
}

void LaunchIndex::fold_at(const Part& part, std::size_t row, std::int64_t gpu_start,
                          std::optional<Launch>& earliest) const {
  const auto& start = part.table->start_ns;
  for (; row < part.end && start[row] == gpu_start; ++row) {
    const auto api_row = correlations_->api_row(part.table->correlation_id[row]);
    if (api_row == CorrelationIndex::kNone || (part.copies && (*copy_holds_host_)[row])) continue;
    const Launch launch{gpu_start, api_->start_ns[api_row], api_->thread_id[api_row]};
    if (!earliest || launch < *earliest) earliest = launch;
  }
}

std::optional<Launch> LaunchIndex::earliest_at(std::int64_t gpu_start) const {
  std::optional<Launch> earliest;
  for (const auto& part : parts_) {
    fold_at(part, first_not_before(part.table->start_ns, part.begin, part.end, gpu_start), gpu_start, earliest);
  }
  const auto found = std::lower_bound(kept_.begin(), kept_.end(), gpu_start,
                                      [](const Launch& launch, std::int64_t time) { return launch.first < time; });
  if (const auto* launch = kept_launch_at(kept_, static_cast<std::size_t>(found - kept_.begin()), gpu_start);
      launch != nullptr && (!earliest || *launch < *earliest)) {
    earliest = *launch;
  }
  return earliest;
}

LaunchIndex LaunchIndex::kept_at(std::span<const std::int64_t> gpu_starts) const {
  std::vector<std::int64_t> times(gpu_starts.begin(), gpu_starts.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  LaunchIndex kept;
  for (const auto time : times) {
    if (const auto launch = earliest_at(time)) kept.kept_.push_back(*launch);
  }
  return kept;
}

LaunchCursor::LaunchCursor(const LaunchIndex* index) : index_(index) {
  if (index_ == nullptr) return;
  next_.reserve(index_->parts_.size());
  for (const auto& part : index_->parts_) next_.push_back(part.begin);
}

std::optional<Launch> LaunchCursor::at(std::int64_t gpu_start) {
  if (index_ == nullptr) return std::nullopt;
  std::optional<Launch> earliest;
  for (std::size_t i = 0; i < next_.size(); ++i) {
    const auto& part = index_->parts_[i];
    next_[i] = first_not_before(part.table->start_ns, next_[i], part.end, gpu_start);
    index_->fold_at(part, next_[i], gpu_start, earliest);
  }
  const auto& kept = index_->kept_;
  while (next_kept_ < kept.size() && kept[next_kept_].first < gpu_start) ++next_kept_;
  if (const auto* launch = kept_launch_at(kept, next_kept_, gpu_start);
      launch != nullptr && (!earliest || *launch < *earliest)) {
    earliest = *launch;
  }
  return earliest;
}

}  // namespace gpuprof::idle
