#pragma once

// Values of many rows grouped by a small dense key in one array, by counting
// and then scattering: linear in the rows, with no vector per group. Growing a
// vector per group for 5 M kernels or API calls copied every value twice on
// average and touched twice the memory (docs/performance.md).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gpuprof::analysis {

// A key that leaves its row out.
inline constexpr std::size_t kNoGroup = std::numeric_limits<std::size_t>::max();

template <typename Value>
struct BasicGroupedValues {
  std::vector<Value> values;       // group after group, in key order
  std::vector<std::size_t> begin;  // group k is values[begin[k], begin[k + 1])

  std::size_t groups() const { return begin.empty() ? 0 : begin.size() - 1; }
  std::span<Value> group(std::size_t key) {
    return std::span(values).subspan(begin[key], begin[key + 1] - begin[key]);
  }
};

using GroupedValues = BasicGroupedValues<std::int64_t>;

// `key_of(row)`: a key below `key_count`, or anything else (kNoGroup) to leave
// the row out. It is called twice per row, so it must be cheap and answer the
// same both times; `value_of(row)` is called once per row kept. `Value`: what is stored (row numbers fit
// 32 bits, half the memory of a time).
template <typename Value = std::int64_t, typename KeyOf, typename ValueOf>
BasicGroupedValues<Value> group_values(std::size_t rows, std::size_t key_count, KeyOf&& key_of, ValueOf&& value_of) {
  BasicGroupedValues<Value> grouped;
  grouped.begin.assign(key_count + 1, 0);
  for (std::size_t row = 0; row < rows; ++row) {
    const std::size_t key = key_of(row);
    if (key < key_count) ++grouped.begin[key + 1];
  }
  for (std::size_t key = 0; key < key_count; ++key) grouped.begin[key + 1] += grouped.begin[key];
  grouped.values.resize(grouped.begin.back());
  std::vector<std::size_t> cursor(grouped.begin.begin(), grouped.begin.end() - 1);
  for (std::size_t row = 0; row < rows; ++row) {
    const std::size_t key = key_of(row);
    if (key < key_count) grouped.values[cursor[key]++] = value_of(row);
  }
  return grouped;
}

}  // namespace gpuprof::analysis
