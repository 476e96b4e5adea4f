#include "gpuprof/units/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace gpuprof::units {
namespace {

// The two middle values of a non-empty sample (the same one twice for an odd count).
template <typename Value>
std::pair<Value, Value> middles(std::span<Value> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 != 0) return {*middle, *middle};
  // nth_element leaves the lower half before `middle`: its largest is the other middle value.
  return {*std::max_element(values.begin(), middle), *middle};
}

template <typename Value>
double median_of(std::span<Value> values) {
  if (values.empty()) return 0.0;
  const auto [lower, upper] = middles(values);
  return lower == upper ? static_cast<double>(upper) : (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
}

template <typename Value>
Value percentile_of(std::span<const Value> sorted, double percent) {
  if (sorted.empty()) return Value{};
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()));
  const auto index = rank <= 1.0 ? std::size_t{1} : static_cast<std::size_t>(std::min(rank, double(sorted.size())));
  return sorted[index - 1];
}

}  // namespace

double median(std::span<double> values) { return median_of(values); }
double median(std::span<std::int64_t> values) { return median_of(values); }

std::int64_t whole_median(std::span<std::int64_t> values) {
  if (values.empty()) return 0;
  const auto [lower, upper] = middles(values);
  return std::midpoint(lower, upper);
}

double nearest_rank_percentile(std::span<const double> sorted, double percent) {
  return percentile_of(sorted, percent);
}
std::int64_t nearest_rank_percentile(std::span<const std::int64_t> sorted, double percent) {
  return percentile_of(sorted, percent);
}

}  // namespace gpuprof::units
