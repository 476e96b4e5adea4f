#pragma once

// Sorting input that is mostly sorted already: trace tables come ordered by
// stream or by start, so what analyses sort is a few sorted runs. Merging the
// runs costs O(n log runs) where a general sort of 10 M events took seconds.

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

namespace gpuprof::analysis {

// Stable merge of values[0, middle) and values[middle, end) through `buffer`, which takes the shorter of the two.
// What is in place already stays: the left run's head up to the right run's first value and the right run's
// tail from the left run's last value (equal values keep their order either way).
template <typename T, typename Less>
void merge_neighbours(std::span<T> values, std::size_t middle, std::vector<T>& buffer, Less& less) {
  T* const split = values.data() + middle;
  T* const first = std::upper_bound(values.data(), split, *split, less);
  if (first == split) return;  // already in order
  T* const last = std::lower_bound(split, values.data() + values.size(), *(split - 1), less);
  if (split - first <= last - split) {
    buffer.assign(first, split);
    const T* left = buffer.data();
    const T* const left_end = left + buffer.size();
    T* right = split;
    T* out = first;
    while (left != left_end && right != last) {
      if (less(*right, *left)) {
        *out++ = std::move(*right++);
      } else {
        *out++ = *left++;  // ties: left first
      }
    }
    std::copy(left, left_end, out);
  } else {
    buffer.assign(split, last);
    const T* const right_begin = buffer.data();
    const T* right = right_begin + buffer.size();
    T* left = split;
    T* out = last;
    while (left != first && right != right_begin) {
      if (less(*(right - 1), *(left - 1))) {
        *--out = std::move(*--left);
      } else {
        *--out = *--right;  // ties: right last
      }
    }
    std::copy_backward(right_begin, right, out);
  }
}

// A whole array or part of one (one device's rows of an array that holds every device's). `buffer` holds
// the runs' parts while they merge; a caller sorting many arrays passes the same one to each.
template <typename T, typename Less = std::less<>>
void sort_runs(std::span<T> values, std::vector<T>& buffer, Less less = {}) {
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
  if (bounds.size() <= 2) return;
  // Merge neighbouring runs pairwise until one is left, as std::inplace_merge would, but through one buffer
  // that holds the largest part moved (at most half the values): inplace_merge takes a fresh one for each
  // merge, and above glibc's mmap threshold (32 MB) each is new memory the kernel zeroes. Reserved once at
  // its most, so that it never moves while it grows: only the pages a part is copied into are ever touched
  // (reserved pages cost address space, not memory), where growing it allocated, zeroed and copied each size.
  buffer.reserve(values.size() / 2 + 1);
  while (bounds.size() > 2) {
    std::vector<std::size_t> next{0};
    for (std::size_t i = 0; i + 2 < bounds.size(); i += 2) {
      merge_neighbours(values.subspan(bounds[i], bounds[i + 2] - bounds[i]), bounds[i + 1] - bounds[i], buffer, less);
      next.push_back(bounds[i + 2]);
    }
    if ((bounds.size() - 1) % 2 == 1) next.push_back(bounds.back());
    bounds = std::move(next);
  }
}

template <typename T, typename Less = std::less<>>
void sort_runs(std::span<T> values, Less less = {}) {
  std::vector<T> buffer;
  sort_runs(values, buffer, less);
}

template <typename T, typename Less = std::less<>>
void sort_runs(std::vector<T>& values, Less less = {}) {
  sort_runs(std::span<T>(values), less);
}

}  // namespace gpuprof::analysis
