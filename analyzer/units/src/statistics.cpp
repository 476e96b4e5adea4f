#include "gpuprof/units/statistics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuprof::units {
namespace {

// Below this many values nth_element is as fast as counting.
constexpr std::size_t kCountedSelection = std::size_t{1} << 16;
constexpr int kBucketBits = 16;

// The values of ranks `low` and `high` (from 0; high is low or low + 1) of a sample, found by counting the
// values into 65,536 buckets spanning their range, then selecting among the values of the bucket(s) those
// ranks fall in: three reads of the sample, none of them writing it, where nth_element's partitions read and
// swap it several times with a mispredicted branch per value (4.5 % of a 100 M-event report's CPU).
// Nullopt when those buckets hold more than an eighth of the sample (values bunched in a small part of a
// wide range): the caller selects as before.
// `bounds`: the sample's smallest and largest values.
std::optional<std::pair<std::int64_t, std::int64_t>> counted_middles(std::span<const std::int64_t> values,
                                                                     std::size_t low, std::size_t high,
                                                                     std::pair<std::int64_t, std::int64_t> bounds) {
  if (values.size() > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  const auto [smallest, largest] = bounds;
  if (smallest == largest) return std::pair(smallest, smallest);
  // Offsets from the smallest value in unsigned arithmetic: the range of any int64 sample fits 64 bits.
  const auto base = static_cast<std::uint64_t>(smallest);
  const auto range = static_cast<std::uint64_t>(largest) - base;
  const int width = static_cast<int>(std::bit_width(range));
  const int shift = width > kBucketBits ? width - kBucketBits : 0;
  const auto bucket = [base, shift](std::int64_t value) { return (static_cast<std::uint64_t>(value) - base) >> shift; };
  std::vector<std::uint32_t> counts(static_cast<std::size_t>((range >> shift) + 1), 0);
  for (const auto value : values) ++counts[bucket(value)];
  std::size_t before = 0, bucket_of_low = 0;
  while (before + counts[bucket_of_low] <= low) before += counts[bucket_of_low++];
  std::size_t through = before + counts[bucket_of_low], bucket_of_high = bucket_of_low;
  while (through <= high) through += counts[++bucket_of_high];
  if (through - before > values.size() / 8) return std::nullopt;
  // Written without a branch through a plain pointer (one slot of slack for the last write): push_back
  // kept the loop's state in memory and made this loop most of the selection's time.
  std::vector<std::int64_t> chosen(through - before + 1);
  std::int64_t* out = chosen.data();
  const auto first_bucket = bucket_of_low, buckets = bucket_of_high - bucket_of_low;
  for (const auto value : values) {
    *out = value;
    out += bucket(value) - first_bucket <= buckets;  // below the first bucket wraps to a large number
  }
  chosen.pop_back();
  const auto lower = chosen.begin() + static_cast<std::ptrdiff_t>(low - before);
  std::nth_element(chosen.begin(), lower, chosen.end());
  if (high == low) return std::pair(*lower, *lower);
  return std::pair(*lower, *std::min_element(lower + 1, chosen.end()));
}

// The two middle values of a non-empty sample (the same one twice for an odd count). `bounds`: its smallest and
// largest values where the caller has them already (a read of the sample fewer, with a mispredicted branch
// per pair of values in minmax_element).
template <typename Value>
std::pair<Value, Value> middles(std::span<Value> values,
                                std::optional<std::pair<std::int64_t, std::int64_t>> bounds = std::nullopt) {
  if constexpr (std::is_same_v<Value, std::int64_t>) {
    if (values.size() >= kCountedSelection) {
      const auto high = values.size() / 2, low = values.size() % 2 != 0 ? high : high - 1;
      if (!bounds) {
        const auto [smallest, largest] = std::minmax_element(values.begin(), values.end());
        bounds = std::pair(*smallest, *largest);
      }
      if (const auto found = counted_middles(values, low, high, *bounds)) return *found;
    }
  }
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 != 0) return {*middle, *middle};
  // nth_element leaves the lower half before `middle`: its largest is the other middle value.
  return {*std::max_element(values.begin(), middle), *middle};
}

template <typename Value>
double median_of(std::span<Value> values,
                 std::optional<std::pair<std::int64_t, std::int64_t>> bounds = std::nullopt) {
  if (values.empty()) return 0.0;
  const auto [lower, upper] = middles(values, bounds);
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
double median(std::span<std::int64_t> values, std::int64_t smallest, std::int64_t largest) {
  return median_of(values, std::pair(smallest, largest));
}

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
