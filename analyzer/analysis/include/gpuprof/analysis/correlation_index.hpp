#pragma once

// Finds the API call that launched a GPU activity from its correlation id.
// Ids are usually dense, so a flat table is used when it stays small; sparse
// ids fall back to a sorted list.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

class CorrelationIndex {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  explicit CorrelationIndex(const trace::ApiCallTable& api_calls);
  // Row of api_calls, or kNone.
  std::uint32_t api_row(std::int64_t correlation_id) const;

 private:
  std::int64_t base_ = 0;
  std::vector<std::uint32_t> dense_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> sparse_;
};

}  // namespace gpuprof::analysis
