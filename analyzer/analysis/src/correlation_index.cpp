#include "gpuprof/analysis/correlation_index.hpp"

#include <algorithm>

namespace gpuprof::analysis {

CorrelationIndex::CorrelationIndex(const trace::ApiCallTable& api_calls) {
  const auto& ids = api_calls.correlation_id;
  std::int64_t low = std::numeric_limits<std::int64_t>::max(), high = std::numeric_limits<std::int64_t>::min();
  std::size_t known = 0;
  for (const auto id : ids) {
    if (id == trace::kUnknown) continue;
    low = std::min(low, id);
    high = std::max(high, id);
    ++known;
  }
  if (known == 0) return;
  const auto range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  if (range <= 4 * known + 1024) {
    base_ = low;
    dense_.assign(range, kNone);
    for (std::size_t row = 0; row < ids.size(); ++row) {
      if (ids[row] != trace::kUnknown) dense_[static_cast<std::size_t>(ids[row] - low)] = static_cast<std::uint32_t>(row);
    }
    return;
  }
  sparse_.reserve(known);
  for (std::size_t row = 0; row < ids.size(); ++row) {
    if (ids[row] != trace::kUnknown) sparse_.emplace_back(ids[row], static_cast<std::uint32_t>(row));
  }
  std::sort(sparse_.begin(), sparse_.end());
}

std::uint32_t CorrelationIndex::api_row(std::int64_t correlation_id) const {
  if (correlation_id == trace::kUnknown) return kNone;
  if (!dense_.empty()) {
    if (correlation_id < base_) return kNone;
    const auto offset = static_cast<std::uint64_t>(correlation_id) - static_cast<std::uint64_t>(base_);
    return offset < dense_.size() ? dense_[offset] : kNone;
  }
  const auto found = std::lower_bound(sparse_.begin(), sparse_.end(), std::make_pair(correlation_id, std::uint32_t{0}));
  return found != sparse_.end() && found->first == correlation_id ? found->second : kNone;
}

}  // namespace gpuprof::analysis
