#pragma once

// Step time against batch size, one straight line per GPU count, and the batch
// size at which N GPUs become faster than one (docs/study.md explains the choice).

#include <cstdint>
#include <limits>
#include <vector>

namespace gpuprof::study {

// One run: its global batch size and its time per step.
struct TimePoint {
  double batch = 0;
  double seconds = 0;
};

// t(b) = intercept + slope * b by ordinary least squares over every run.
struct LineFit {
  bool valid = false;  // needs two different batch sizes
  double intercept = 0, slope = 0;
  double r_squared = 0;
  std::size_t points = 0;
  double at(double batch) const { return intercept + slope * batch; }
};

LineFit fit_line(const std::vector<TimePoint>& points);

enum class BreakEvenKind {
  breaks_even,     // N GPUs are slower below `batch` and faster above it
  always_faster,   // faster at every batch size
  never,           // slower at every batch size
  faster_below,    // faster only below `batch` (their step time grows faster with the batch)
};
const char* to_string(BreakEvenKind kind);

struct BreakEven {
  BreakEvenKind kind = BreakEvenKind::never;
  double batch = 0;  // the crossing, for breaks_even and faster_below
};

// Where the N-GPU line `many` crosses the 1-GPU line `one`, over batch sizes > 0.
BreakEven solve_break_even(const LineFit& one, const LineFit& many);

inline constexpr std::uint64_t kBootstrapSeed = 20240917;
inline constexpr std::size_t kBootstrapResamples = 2000;

// A 95% interval for the break-even batch by residual bootstrap: each resample
// adds the fits' residuals, drawn with replacement, to the fitted lines at the
// measured batch sizes and refits. "Always faster" counts as 0 and "never" (or
// "faster only below") as infinity, so `high` may be infinite.
struct BreakEvenInterval {
  bool available = false;  // needs more than two runs per GPU count (otherwise the residuals are all zero)
  double low = 0, high = 0;
  double share_breaking_even = 0;  // resamples whose outcome is breaks_even
  std::size_t resamples = 0;
};

BreakEvenInterval bootstrap_break_even(const std::vector<TimePoint>& one, const std::vector<TimePoint>& many,
                                       std::size_t resamples = kBootstrapResamples,
                                       std::uint64_t seed = kBootstrapSeed);

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace gpuprof::study
