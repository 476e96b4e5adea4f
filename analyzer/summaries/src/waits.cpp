#include "gpuprof/summaries/waits.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include "gpuprof/analysis/run_sort.hpp"

namespace gpuprof::summaries {

// The pieces come in a few sorted runs (a new run wherever a wait started before the one added before it).
std::int64_t WaitUnion::total(std::vector<Piece>& buffer) {
  analysis::sort_runs(std::span(pieces_), buffer);
  std::int64_t total = 0;
  std::int64_t covered_to = std::numeric_limits<std::int64_t>::min();
  for (const auto& [from, to] : pieces_) {
    const auto start = std::max(from, covered_to);
    if (to > start) total += to - start;
    covered_to = std::max(covered_to, to);
  }
  return total;
}

}  // namespace gpuprof::summaries
