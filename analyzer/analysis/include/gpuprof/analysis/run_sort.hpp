#pragma once

// Sorting input that is mostly sorted already: trace tables come ordered by
// stream or by start, so what analyses sort is a few sorted runs. Merging the
// runs costs O(n log runs) where a general sort of 10 M events took seconds.

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

namespace gpuprof::analysis {

// A whole array or part of one (one device's rows of an array that holds every device's).
template <typename T, typename Less = std::less<>>
void sort_runs(std::span<T> values, Less less = {}) {
  // Ascending runs, as [begin, end) offsets.
  std::vector<std::size_t> bounds{0};
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (less(values[i], values[i - 1])) bounds.push_back(i);
  }
  bounds.push_back(values.size());
  // Too many runs: the input was not mostly sorted after all.
  if (bounds.size() > 64 + values.size() / 64) {
    std::sort(values.begin(), values.end(), less);
    return;
  }
  // Merge neighbouring runs pairwise until one is left.
  while (bounds.size() > 2) {
    std::vector<std::size_t> next{0};
    for (std::size_t i = 0; i + 2 < bounds.size(); i += 2) {
      std::inplace_merge(values.begin() + static_cast<std::ptrdiff_t>(bounds[i]),
                         values.begin() + static_cast<std::ptrdiff_t>(bounds[i + 1]),
                         values.begin() + static_cast<std::ptrdiff_t>(bounds[i + 2]), less);
      next.push_back(bounds[i + 2]);
    }
    if ((bounds.size() - 1) % 2 == 1) next.push_back(bounds.back());
    bounds = std::move(next);
  }
}

template <typename T, typename Less = std::less<>>
void sort_runs(std::vector<T>& values, Less less = {}) {
  sort_runs(std::span<T>(values), less);
}

}  // namespace gpuprof::analysis
