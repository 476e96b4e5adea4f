#pragma once

// The one median and the one percentile of every gpuprof analysis, report, prediction, benchmark and test.
//
// median: the middle value, and for an even count the mean of the two middle ones. It is the textbook
// median, the one nsys stats prints as Med (which the report's summaries mirror), and it does not lean
// towards either side of an even sample (two ranks, two repeats), as the upper or the lower middle would.
//
// nearest_rank_percentile: the smallest value with at least `percent` % of the values at or below it
// (ceil(percent/100 * n)-th smallest). Always a value of the sample (a gap, a delay that happened), so a
// p95 of nanoseconds stays whole nanoseconds; at 50 % it is the lower middle, which is what a caller wanting
// "the faster of two" asks for by name.

#include <cstdint>
#include <span>
#include <vector>

namespace gpuprof::units {

// 0 for none. Reorders `values` (a partial sort), so callers with a copy to spare pass it.
double median(std::span<double> values);
double median(std::span<std::int64_t> values);
inline double median(std::vector<double> values) { return median(std::span<double>(values)); }
// The same, for a caller that has found the sample's smallest and largest values already (duration_stats).
double median(std::span<std::int64_t> values, std::int64_t smallest, std::int64_t largest);
// The same median in whole nanoseconds, exact for any int64 (a clock offset of 1.7e18 ns does not fit a
// double's 53 bits): the mean of the two middle values rounded towards the lower one.
std::int64_t whole_median(std::span<std::int64_t> values);

// `sorted` ascending; 0 for none; `percent` in [0, 100] (outside: the smallest or the largest value).
double nearest_rank_percentile(std::span<const double> sorted, double percent);
std::int64_t nearest_rank_percentile(std::span<const std::int64_t> sorted, double percent);

}  // namespace gpuprof::units
