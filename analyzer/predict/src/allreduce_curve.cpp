#include "gpuprof/predict/allreduce_curve.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// Points whose time is this close to the latency say nothing about bandwidth
// (the time is the latency plus noise), so they are left out of the fit.
constexpr double kLatencyDominated = 0.1;

// Latency from the two smallest points, t = alpha + S / beta, for tables that start
// at large sizes (the vTrain tables start at 1 MiB); the smallest time when the
// table reaches down to latency-bound sizes.
double estimate_alpha(const std::vector<AllReducePoint>& points) {
  const auto& first = points.front();
  if (first.bytes <= 64 * 1024 || points.size() < 2) return first.time_ns;
  const auto& second = points[1];
  const double slope = (second.time_ns - first.time_ns) / static_cast<double>(second.bytes - first.bytes);
  return std::clamp(first.time_ns - slope * static_cast<double>(first.bytes), 0.0, first.time_ns);
}

double lerp(double a, double b, double weight) { return a + (b - a) * weight; }

}  // namespace

double all_reduce_factor(std::int32_t gpus) {
  return gpus <= 1 ? 0.0 : 2.0 * static_cast<double>(gpus - 1) / static_cast<double>(gpus);
}

AllReduceCurve::AllReduceCurve(std::vector<AllReduceTable> tables, std::optional<double> hop_latency_ns)
    : hop_latency_ns_(hop_latency_ns) {
  if (tables.empty()) throw TraceError::bad_input("", "no all-reduce measurements for the link");
  std::sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) { return a.gpus < b.gpus; });
  for (auto& table : tables) {
    if (table.points.empty() || table.gpus < 2)
      throw TraceError::bad_input(table.source, "no all-reduce measurements on 2 or more GPUs");
    std::sort(table.points.begin(), table.points.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    if (!fitted_.empty() && fitted_.back().gpus == table.gpus) continue;  // the first source of a count wins
    fitted_.push_back(fit(table));
  }
}

AllReduceCurve::Fitted AllReduceCurve::fit(const AllReduceTable& table) {
  Fitted fitted;
  fitted.gpus = table.gpus;
  fitted.alpha_ns = estimate_alpha(table.points);
  const double factor = all_reduce_factor(table.gpus);
  for (const auto& point : table.points) {
    const double transfer_ns = point.time_ns - fitted.alpha_ns;
    if (point.bytes <= 0 || transfer_ns < kLatencyDominated * point.time_ns) continue;
    fitted.log_bytes.push_back(std::log(static_cast<double>(point.bytes)));
    fitted.bus_gbps.push_back(static_cast<double>(point.bytes) * factor / transfer_ns);
  }
  if (fitted.bus_gbps.empty()) {  // a table of latency-bound sizes only: its largest point sets the bandwidth
    const auto& last = table.points.back();
    fitted.log_bytes.push_back(std::log(std::max<double>(1.0, static_cast<double>(last.bytes))));
    fitted.bus_gbps.push_back(static_cast<double>(last.bytes) * factor / std::max(1.0, last.time_ns));
  }
  return fitted;
}

double AllReduceCurve::bandwidth_at(const Fitted& fitted, double log_bytes) {
  const auto& xs = fitted.log_bytes;
  if (log_bytes <= xs.front()) return fitted.bus_gbps.front();
  if (log_bytes >= xs.back()) return fitted.bus_gbps.back();
  const auto upper = static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.end(), log_bytes) - xs.begin());
  const auto lower = upper - 1;
  const double weight = (log_bytes - xs[lower]) / (xs[upper] - xs[lower]);
  return lerp(fitted.bus_gbps[lower], fitted.bus_gbps[upper], weight);
}

AllReduceCurve::Bracket AllReduceCurve::bracket(std::int32_t gpus) const {
  const auto above = std::find_if(fitted_.begin(), fitted_.end(), [&](const auto& f) { return f.gpus >= gpus; });
  if (above == fitted_.end()) return {&fitted_.back(), &fitted_.back(), 0.0};
  if (above->gpus == gpus || above == fitted_.begin()) return {&*above, &*above, 0.0};
  const auto below = above - 1;
  const double weight = static_cast<double>(gpus - below->gpus) / static_cast<double>(above->gpus - below->gpus);
  return {&*below, &*above, weight};
}

double AllReduceCurve::alpha_ns(std::int32_t gpus) const {
  if (gpus <= 1) return 0.0;
  const auto b = bracket(gpus);
  if (b.lower != b.upper) return lerp(b.lower->alpha_ns, b.upper->alpha_ns, b.weight);
  const auto& nearest = *b.lower;
  if (gpus == nearest.gpus) return nearest.alpha_ns;
  // Beyond the tables: a ring adds two hops per GPU.
  double per_gpu = hop_latency_ns_ ? 2.0 * *hop_latency_ns_ : 0.0;
  if (!hop_latency_ns_ && fitted_.size() >= 2) {
    const auto& a = fitted_[fitted_.size() - 2];
    const auto& c = fitted_.back();
    per_gpu = std::max(0.0, (c.alpha_ns - a.alpha_ns) / static_cast<double>(c.gpus - a.gpus));
  }
  return std::max(0.0, nearest.alpha_ns + per_gpu * static_cast<double>(gpus - nearest.gpus));
}

double AllReduceCurve::bus_gbps(std::int64_t bytes, std::int32_t gpus) const {
  const double log_bytes = std::log(std::max<double>(1.0, static_cast<double>(bytes)));
  const auto b = bracket(std::max(gpus, 2));
  return lerp(bandwidth_at(*b.lower, log_bytes), bandwidth_at(*b.upper, log_bytes), b.weight);
}

double AllReduceCurve::time_ns(std::int64_t bytes, std::int32_t gpus) const {
  if (gpus <= 1 || bytes <= 0) return 0.0;
  return alpha_ns(gpus) + static_cast<double>(bytes) * all_reduce_factor(gpus) / bus_gbps(bytes, gpus);
}

std::vector<std::int32_t> AllReduceCurve::gpu_counts() const {
  std::vector<std::int32_t> counts;
  for (const auto& f : fitted_) counts.push_back(f.gpus);
  return counts;
}

}  // namespace gpuprof::predict
